/**
 * Bytes as read-only files of one URI scheme, so VS Code's own editors (the image preview, in the diff
 * editor too) show what the extension holds in memory: a text document cannot carry bytes. Subclasses
 * say where a URI's bytes come from; every write is refused.
 */
import * as vscode from 'vscode';

export abstract class ReadonlyBytesFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(scheme: string, why: string) {
    this.registration = vscode.workspace.registerFileSystemProvider(scheme, this, {
      isCaseSensitive: true,
      isReadonly: new vscode.MarkdownString(why),
    });
  }

  /** The file's bytes; throws `FileNotFound` for a URI this file system does not hold. */
  protected abstract bytesOf(uri: vscode.Uri): Promise<Uint8Array> | Uint8Array;

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.bytesOf(uri);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const bytes = await this.bytesOf(uri);
    // a URI names one version: its bytes never change
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: bytes.length };
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
