/**
 * Images from a conversation opened whole in an editor tab: `openhands-image:/<conversation>/<name>`
 * served as bytes by a read-only file system, so VS Code's own image preview shows them (zoom, copy,
 * Save As). Only images the host checked are put here, the last few opened; writes are refused.
 */
import * as vscode from 'vscode';
import { ReadonlyBytesFileSystem } from '../../../core/readonlyBytes';

export const IMAGE_SCHEME = 'openhands-image';
/** Images kept for open tabs (a reopened tab reads its image again from here). */
const KEPT_IMAGES = 24;

export class ImageDocuments extends ReadonlyBytesFileSystem {
  private readonly images = new Map<string, Uint8Array>();

  constructor() {
    super(IMAGE_SCHEME, vscode.l10n.t('An image from the conversation: it cannot be edited here.'));
  }

  /** Opens checked image bytes in an editor tab. */
  async open(conversationId: string, name: string, bytes: Uint8Array): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: IMAGE_SCHEME, path: `/${conversationId}/${name}` });
    this.images.delete(uri.path);
    this.images.set(uri.path, bytes);
    for (const oldest of this.images.keys()) {
      if (this.images.size <= KEPT_IMAGES) break;
      this.images.delete(oldest);
    }
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
    return uri;
  }

  protected bytesOf(uri: vscode.Uri): Uint8Array {
    const bytes = this.images.get(uri.path);
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return bytes;
  }

  override dispose(): void {
    super.dispose();
    this.images.clear();
  }
}
