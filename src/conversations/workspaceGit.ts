import * as vscode from 'vscode';
import { parseGitRemote, type RemoteRepository } from './gitRemote';

/** The slice of the built-in git extension's API we read. */
interface GitApi {
  repositories: {
    rootUri: vscode.Uri;
    state: { HEAD?: { name?: string }; remotes: { name: string; fetchUrl?: string; pushUrl?: string }[] };
  }[];
}

interface GitExtensionExports {
  getAPI(version: 1): GitApi;
}

export interface WorkspaceRepository extends RemoteRepository {
  branch: string | undefined;
}

/** Repository and branch of the open workspace, from the built-in git extension, if any. */
export async function workspaceRepository(): Promise<WorkspaceRepository | undefined> {
  const extension = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (!extension) return undefined;
  try {
    const git = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    const repo =
      git.repositories.find((r) => folder?.startsWith(r.rootUri.toString())) ?? git.repositories[0];
    if (!repo) return undefined;
    const remote = repo.state.remotes.find((r) => r.name === 'origin') ?? repo.state.remotes[0];
    const parsed = parseGitRemote(remote?.fetchUrl ?? remote?.pushUrl ?? '');
    return parsed ? { ...parsed, branch: repo.state.HEAD?.name } : undefined;
  } catch {
    // git missing or disabled: prefill nothing
    return undefined;
  }
}
