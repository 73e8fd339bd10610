/**
 * A changed picture's sides as read-only files (`openhands-change-image:/<path>?…`, the query of
 * `changeUri`), so VS Code's own image preview shows them, in the diff editor too. Only sides
 * `ConversationChanges` judged pictures by their bytes are served; every write is refused.
 */
import * as vscode from 'vscode';
import { ReadonlyBytesFileSystem } from '../core/readonlyBytes';
import { CHANGE_IMAGE_SCHEME, parseChangeUri, type ChangeDocuments } from './changeDocuments';

export class ChangeImages extends ReadonlyBytesFileSystem {
  constructor(private readonly documents: ChangeDocuments) {
    super(
      CHANGE_IMAGE_SCHEME,
      vscode.l10n.t('A picture of the agent’s change, read from its sandbox: it cannot be edited here.'),
    );
  }

  protected async bytesOf(uri: vscode.Uri): Promise<Uint8Array> {
    const ref = parseChangeUri(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const sides = await this.documents.sidesOf(ref.conversationId, ref.change, ref.version);
    const bytes = sides.kind === 'image' ? sides[ref.side] : undefined;
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return bytes;
  }
}
