// Test-only extension the integration run installs for its virtual-folder pass (scripts/vscode/
// run-integration.ts): a FileSystemProvider for `memfs:` that VS Code activates when it resolves the
// workspace's folder, as it does GitHub Repositories' `vscode-vfs:`. It serves a small repository at
// memfs:/webapp and exports every call that would have changed it, so a test can say nothing did.
import * as vscode from 'vscode';
import { MemoryFileSystem } from './memoryFileSystem';
import { MEMFS_SCHEME, SEEDED_FILES, type MemfsExports } from './memfsFacts';

export function activate(context: vscode.ExtensionContext): MemfsExports {
  const files = new MemoryFileSystem(SEEDED_FILES);
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(MEMFS_SCHEME, files, { isCaseSensitive: true }),
  );
  return { changes: () => [...files.changes] };
}

export function deactivate(): void {}
