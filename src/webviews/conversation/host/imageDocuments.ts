/**
 * Images from a conversation opened whole in an editor tab: `openhands-image:/<conversation>/<name>`
 * served as bytes by a read-only file system, so VS Code's own image preview shows them (zoom, copy,
 * Save As). Only images the host checked are put here, the last few opened; writes are refused.
 */
import * as vscode from 'vscode';

export const IMAGE_SCHEME = 'openhands-image';
/** Images kept for open tabs (a reopened tab reads its image again from here). */
const KEPT_IMAGES = 24;

export class ImageDocuments implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly images = new Map<string, { bytes: Uint8Array; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerFileSystemProvider(IMAGE_SCHEME, this, {
      isReadonly: true,
      isCaseSensitive: true,
    });
  }

  /** Opens checked image bytes in an editor tab. */
  async open(conversationId: string, name: string, bytes: Uint8Array): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: IMAGE_SCHEME, path: `/${conversationId}/${name}` });
    this.images.delete(uri.path);
    this.images.set(uri.path, { bytes, mtime: Date.now() });
    for (const oldest of this.images.keys()) {
      if (this.images.size <= KEPT_IMAGES) break;
      this.images.delete(oldest);
    }
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
    return uri;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const image = this.images.get(uri.path);
    if (image)
      return { type: vscode.FileType.File, ctime: image.mtime, mtime: image.mtime, size: image.bytes.length };
    if (uri.path === '/' || uri.path.split('/').length === 2)
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const image = this.images.get(uri.path);
    if (!image) throw vscode.FileSystemError.FileNotFound(uri);
    return image.bytes;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
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
    this.images.clear();
  }
}
