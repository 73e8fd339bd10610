/**
 * Apply's dialogs, one a question: each says what it found and what each button does, and returns
 * the user's answer (a dismissed dialog is a no). Which one to ask, and what an answer makes of the
 * apply, is `applyDecisions.ts`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppConversation } from '../../api';
import type { RefusedPath } from '../../changes';
import { conversationTitle } from '../../state/names';
import { localFolder, type LocalFolder } from '../localFolders';
import { listed } from './applyReport';
import { localChanges } from './localChanges';

/**
 * The folder to apply to: the workspace's one, or a pick; undefined when the user chose none. A folder git
 * cannot reach from here (a remote or virtual one) comes back refused with the words that say why.
 */
export async function pickFolder(): Promise<LocalFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    const chosen = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      title: vscode.l10n.t('The Local Repository to Apply the Agent’s Changes To'),
      openLabel: vscode.l10n.t('Apply Here'),
    });
    return chosen?.[0] ? localFolder(chosen[0]) : undefined;
  }
  if (folders.length === 1) return folders[0] ? localFolder(folders[0].uri) : undefined;
  const chosen = await vscode.window.showWorkspaceFolderPick({
    placeHolder: vscode.l10n.t('The local repository to apply the agent’s changes to'),
    ignoreFocusOut: true,
  });
  return chosen ? localFolder(chosen.uri) : undefined;
}

/** The folder's repository is not the conversation's: apply there anyway? */
export async function askOtherRepository(
  conversation: AppConversation,
  root: string,
  mismatch: { wanted?: string; found?: string },
): Promise<boolean> {
  const folder = path.basename(root);
  const question = mismatch.wanted
    ? vscode.l10n.t(
        'The conversation works on {0}, but {1} is {2}. Apply the agent’s changes here anyway?',
        mismatch.wanted,
        folder,
        mismatch.found ?? vscode.l10n.t('a repository without a matching remote'),
      )
    : vscode.l10n.t(
        '“{0}” was not started on a repository, so it cannot be matched with {1}. Apply the agent’s changes to {1}?',
        conversationTitle(conversation),
        folder,
      );
  return confirm(question, undefined, vscode.l10n.t('Apply to {0}', folder));
}

/** Some of the selected files are refused: apply the others? */
export async function askSkipRefused(refused: readonly RefusedPath[], selected: number): Promise<boolean> {
  return confirm(
    vscode.l10n.t('Some of the agent’s files would reach outside your repository and are never applied.'),
    localChanges().describeRefusals(refused) +
      '\n\n' +
      vscode.l10n.t('Nothing has been changed yet. The other files can be applied without them.'),
    applyOthers(selected - refused.length),
  );
}

/** The local HEAD is not the agent's base: apply anyway? */
export async function askHead(question: {
  head?: string;
  baseCommit?: string;
  baseKnownLocally: boolean;
  handedOver: boolean;
}): Promise<boolean> {
  if (question.handedOver) {
    return confirm(
      vscode.l10n.t('Your files changed since you handed them to the agent.'),
      vscode.l10n.t(
        'The agent started from your local work as it was then. Its changes are merged into your files as they are now; files you changed since can conflict.',
      ),
      vscode.l10n.t('Apply Anyway'),
    );
  }
  const head = question.head ? question.head.slice(0, 8) : vscode.l10n.t('no commit');
  const base = question.baseCommit?.slice(0, 8) ?? '';
  const detail = question.baseKnownLocally
    ? vscode.l10n.t('Files you changed since can conflict.')
    : vscode.l10n.t('That commit is not in this repository (fetch it for three-way merges).');
  return confirm(
    vscode.l10n.t('Your HEAD ({0}) is not the commit the agent started from ({1}).', head, base),
    detail,
    vscode.l10n.t('Apply Anyway'),
  );
}

/** Local edits to files the agent changed: stash them first? (No: Apply refuses.) */
export async function askStash(dirty: readonly string[]): Promise<boolean> {
  return confirm(
    vscode.l10n.t('You have uncommitted changes to files the agent changed: {0}', listed(dirty)),
    vscode.l10n.t(
      'Stash them first (git stash; get them back with git stash pop), or commit them and apply again.',
    ),
    vscode.l10n.t('Stash and Apply'),
  );
}

/** Some files conflict: apply the others and skip them? */
export async function askSkipConflicts(conflicted: readonly string[], applicable: number): Promise<boolean> {
  return confirm(
    vscode.l10n.t('These files conflict with your repository: {0}', listed(conflicted)),
    vscode.l10n.t(
      'Nothing has been changed yet. The other files apply cleanly; the conflicting ones would be skipped.',
    ),
    applyOthers(applicable - conflicted.length),
  );
}

/** A modal warning with one button that goes on: true when it was clicked (a dismissed dialog is a no). */
async function confirm(message: string, detail: string | undefined, goOn: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, goOn)) === goOn;
}

function applyOthers(count: number): string {
  return count === 1
    ? vscode.l10n.t('Apply the Other File')
    : vscode.l10n.t('Apply the Other {0} Files', count);
}
