/**
 * A changed picture's sides as read-only files (`openhands-change-image:/<path>?…`, the query of
 * `changeUri`), so VS Code's own image preview shows them, in the diff editor too: a text document
 * cannot carry bytes. Only sides `ConversationChanges` judged pictures by their bytes are served;
 * every write is refused.
 */
import * as vscode from 'vscode';
import { CHANGE_IMAGE_SCHEME, parseChangeUri, type ChangeDocuments } from './changeDocuments';

export class ChangeImages implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly documents: ChangeDocuments) {
    this.registration = vscode.workspace.registerFileSystemProvider(CHANGE_IMAGE_SCHEME, this, {
      isCaseSensitive: true,
      isReadonly: new vscode.MarkdownString(
        vscode.l10n.t('A picture of the agent’s change, read from its sandbox: it cannot be edited here.'),
      ),
    });
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.bytesOf(uri);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const bytes = await this.bytesOf(uri);
    // a newer list is a newer URI: one version's bytes never change
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: bytes.length };
  }

  private async bytesOf(uri: vscode.Uri): Promise<Uint8Array> {
    const ref = parseChangeUri(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const sides = await this.documents.sidesOf(ref.conversationId, ref.change, ref.version);
    const bytes = sides.kind === 'image' ? sides[ref.side] : undefined;
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return bytes;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.FileNotADirectory(uri);
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
