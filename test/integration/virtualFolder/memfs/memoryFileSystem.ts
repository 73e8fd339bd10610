// A FileSystemProvider that holds files in memory: enough of one for VS Code to list and read a folder.
// It records each call that would change it (and refuses it: nothing here needs writing).
import * as vscode from 'vscode';

export class MemoryFileSystem implements vscode.FileSystemProvider {
  /** The calls that would have changed something, as `writeFile /webapp/a.ts`. */
  readonly changes: string[] = [];
  private readonly files = new Map<string, Uint8Array>();
  private readonly folders = new Set<string>(['/']);
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(seed: Readonly<Record<string, string>>) {
    const encoder = new TextEncoder();
    for (const [path, text] of Object.entries(seed)) {
      this.files.set(path, encoder.encode(text));
      for (let parent = dirname(path); parent !== '/'; parent = dirname(parent)) this.folders.add(parent);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.byteLength };
    if (this.folders.has(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    if (!this.folders.has(uri.path)) throw vscode.FileSystemError.FileNotFound(uri);
    const entries: [string, vscode.FileType][] = [];
    for (const folder of this.folders)
      if (folder !== '/' && dirname(folder) === uri.path)
        entries.push([basename(folder), vscode.FileType.Directory]);
    for (const file of this.files.keys())
      if (dirname(file) === uri.path) entries.push([basename(file), vscode.FileType.File]);
    return entries;
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }

  writeFile(uri: vscode.Uri): void {
    this.refuse(`writeFile ${uri.path}`, uri);
  }

  createDirectory(uri: vscode.Uri): void {
    this.refuse(`createDirectory ${uri.path}`, uri);
  }

  delete(uri: vscode.Uri): void {
    this.refuse(`delete ${uri.path}`, uri);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri): void {
    this.refuse(`rename ${oldUri.path} ${newUri.path}`, oldUri);
  }

  private refuse(change: string, uri: vscode.Uri): never {
    this.changes.push(change);
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

function dirname(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
