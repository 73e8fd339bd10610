/**
 * Check Out the Agent's Branch: in the workspace folder whose git remote is the conversation's
 * repository, fetch the agent's branch and check it out as a local branch tracking it
 * (`changes/branchCheckout.ts`). Asks first when the tree has uncommitted changes; never forces.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppConversation } from '../../api';
import type { CheckoutOutcome } from '../../changes';
import { parseGitRemote } from '../../conversations/gitRemote';
import type { Log } from '../../core/log';
import { conversationTitle } from '../../state/names';
import { agentBranch } from '../../state/pullRequestLinks';
import { localChanges } from '../changes/localChanges';
import { localWorkspaceFolders, type WorkspaceFolders } from '../localFolders';

/** The local clone of the conversation's repository and the remote that holds it. */
interface LocalClone {
  root: string;
  remote: string;
}

export type CheckOutResult =
  | { kind: 'checked-out'; outcome: CheckoutOutcome; root: string }
  | { kind: 'refused'; message: string }
  | { kind: 'cancelled' };

export async function checkOutAgentBranch(
  log: Log,
  conversation: AppConversation,
  /** The folders git can run in here, and why the others cannot be used (remote or virtual ones): read once. */
  workspace: WorkspaceFolders = localWorkspaceFolders(),
): Promise<CheckOutResult> {
  const { BranchCheckoutError, checkOutRemoteBranch, checkedBranchName, uncommittedFiles } = localChanges();
  const title = conversationTitle(conversation);
  const branch = agentBranch(conversation);
  const repository = conversation.selected_repository?.trim();
  if (!branch || !repository)
    return refuse(
      vscode.l10n.t(
        '“{0}” names no repository and branch: there is no branch of the agent’s to check out.',
        title,
      ),
    );
  try {
    const clone = await findClone(repository, workspace.paths);
    // a folder on the remote machine or a virtual file system is said as such, never taken for a path here
    if (!clone && workspace.refused[0]) return refuse(workspace.refused[0]);
    if (!clone)
      return refuse(
        vscode.l10n.t(
          'No folder of this workspace is a clone of {0}: open one (its git remote must be {0}), then check out the agent’s branch again.',
          repository,
        ),
      );
    if ((await checkedBranchName(clone.root, branch)) !== branch)
      return refuse(
        vscode.l10n.t(
          'The server names the agent’s branch “{0}”, which is not a valid git branch name: nothing was fetched.',
          printable(branch),
        ),
      );
    const dirty = await uncommittedFiles(clone.root);
    if (dirty > 0 && !(await askDirty(clone.root, branch, dirty))) return { kind: 'cancelled' };
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Fetching “{0}” from {1}…', branch, clone.remote),
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        const cancelled = token.onCancellationRequested(() => abort.abort());
        return checkOutRemoteBranch(clone.root, clone.remote, branch, undefined, abort.signal).finally(() =>
          cancelled.dispose(),
        );
      },
    );
    void vscode.window.showInformationMessage(
      outcome.kind === 'created'
        ? vscode.l10n.t(
            'Checked out the agent’s branch “{0}” in {1}, tracking {2}.',
            branch,
            path.basename(clone.root),
            outcome.upstream,
          )
        : vscode.l10n.t(
            'Checked out your branch “{0}” in {1}, now at {2}.',
            branch,
            path.basename(clone.root),
            outcome.upstream,
          ),
    );
    return { kind: 'checked-out', outcome, root: clone.root };
  } catch (error) {
    if (error instanceof BranchCheckoutError) return refuse(error.message);
    const detail = error instanceof Error ? error.message : String(error);
    if (/was cancelled/.test(detail)) return { kind: 'cancelled' };
    log.error(`Check Out the Agent's Branch: ${detail}`);
    return refuse(
      vscode.l10n.t('Could not check out the agent’s branch “{0}”: {1}', printable(branch), detail),
    );
  }
}

/** The first workspace folder in a clone of `repository`, with the remote whose URL names it. */
async function findClone(repository: string, folders: readonly string[]): Promise<LocalClone | undefined> {
  const { openLocalRepository } = localChanges();
  const wanted = repository.toLowerCase();
  for (const folder of folders) {
    const local = await openLocalRepository(folder);
    const remote = local?.remotes.find((candidate) =>
      [candidate.fetchUrl, candidate.pushUrl].some(
        (url) => url !== undefined && parseGitRemote(url)?.repository.toLowerCase() === wanted,
      ),
    );
    if (local && remote) return { root: local.root, remote: remote.name };
  }
  return undefined;
}

async function askDirty(root: string, branch: string, files: number): Promise<boolean> {
  const checkOut = vscode.l10n.t('Check Out');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      '{0} has uncommitted changes in {1} file(s). Check out “{2}” anyway?',
      path.basename(root),
      files,
      branch,
    ),
    {
      modal: true,
      detail: vscode.l10n.t(
        'git carries your changes over to the branch, or stops without changing anything when the branch changes the same files. Nothing is forced.',
      ),
    },
    checkOut,
  );
  return answer === checkOut;
}

function refuse(message: string): CheckOutResult {
  void vscode.window.showErrorMessage(message);
  return { kind: 'refused', message };
}

/** A name from the server shown in a message: one line, bounded. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters become visible marks
  const line = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
