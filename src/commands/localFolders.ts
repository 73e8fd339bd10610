/**
 * A workspace folder as a path git can run in here. In a remote window (Remote-SSH, WSL, a Dev Container,
 * Codespaces) VS Code runs this extension on the workspace's side (`extensionKind` prefers "workspace"), so its
 * folders are `file:` paths on the machine that holds them. A folder this side cannot reach (a `vscode-remote:`
 * folder when the extension runs on the user's side, a virtual file system) is refused in words: its `fsPath`
 * would name a path on the wrong machine, at best missing, at worst another checkout at the same path.
 */
import * as vscode from 'vscode';

export type LocalFolder = { kind: 'local'; path: string } | { kind: 'refused'; message: string };

export function localFolder(uri: vscode.Uri): LocalFolder {
  if (uri.scheme === 'file') return { kind: 'local', path: uri.fsPath };
  const name = uri.path.split('/').filter(Boolean).pop() ?? uri.toString();
  return { kind: 'refused', message: notLocalMessage(name, uri.scheme) };
}

/** The workspace folders git can run in here, and the words for those it cannot. */
export interface WorkspaceFolders {
  paths: readonly string[];
  refused: readonly string[];
}

/** The workspace's folders, read once and sorted into the two. */
export function localWorkspaceFolders(
  folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? [],
): WorkspaceFolders {
  const paths: string[] = [];
  const refused: string[] = [];
  for (const folder of folders) {
    const local = localFolder(folder.uri);
    if (local.kind === 'local') paths.push(local.path);
    else refused.push(local.message);
  }
  return { paths, refused };
}

function notLocalMessage(name: string, scheme: string): string {
  return scheme === 'vscode-remote'
    ? vscode.l10n.t(
        '“{0}” is on the remote machine, and OpenHands runs on this one, so git cannot reach it here. Install OpenHands for VS Code on the remote side (Extensions: “Install in …”), then try again.',
        name,
      )
    : vscode.l10n.t(
        '“{0}” is not a folder on disk ({1}:), so git cannot run in it. Open a local clone of the repository and try again.',
        name,
        scheme,
      );
}
