/**
 * Apply's question about the files of the agent's change that can run code on the user's machine
 * (`api/agentServer/codeRunningFiles.ts`): it lists them with their reasons and asks once, Apply All,
 * Apply Without Them or Review First. Review opens those files' diffs and applies nothing.
 */
import * as vscode from 'vscode';
import type { CodeRunningFile, GitChange } from '../../api';
import type { PlannedFile } from '../../changes';
import { changeUri } from '../../views/changeDocuments';
import { codeRunningAnswers, type CodeRunningAnswer } from './codeRunningChoice';

/** Lines the question's detail lists before "and N more" (a modal grows with each). */
const LISTED_FILES = 8;

/**
 * Asks about `marked`, the files of the `applicable` ones that can run code, and returns the
 * answer (undefined: the dialog was dismissed). What it makes of the apply is `codeRunningStep`.
 */
export async function askCodeRunning(
  marked: readonly CodeRunningFile[],
  applicable: number,
): Promise<CodeRunningAnswer | undefined> {
  const labels: Record<CodeRunningAnswer, string> = {
    all: vscode.l10n.t('Apply All'),
    without: vscode.l10n.t('Apply Without Them'),
    review: vscode.l10n.t('Review First'),
  };
  const answers = codeRunningAnswers(marked, applicable);
  const message =
    marked.length === 1
      ? vscode.l10n.t('One of the agent’s files can run code on your machine: {0}', marked[0]?.path ?? '')
      : vscode.l10n.t('{0} of the agent’s files can run code on your machine.', marked.length);
  const without = answers.includes('without')
    ? vscode.l10n.t('Apply Without Them applies the other files only.')
    : vscode.l10n.t('Every file of this change can run code.');
  const detail = [
    listedWithReasons(marked),
    vscode.l10n.t(
      'Nothing has been changed yet. {0} Review First opens their diffs and applies nothing.',
      without,
    ),
  ].join('\n\n');
  const choice = await vscode.window.showWarningMessage(
    message,
    { modal: true, detail },
    ...answers.map((answer) => labels[answer]),
  );
  return answers.find((candidate) => labels[candidate] === choice);
}

/** `path — reason`, one a line, the first few. */
export function listedWithReasons(files: readonly CodeRunningFile[]): string {
  const lines = files.slice(0, LISTED_FILES).map((file) => `${file.path} — ${file.reason}`);
  if (files.length > LISTED_FILES) lines.push(vscode.l10n.t('and {0} more', files.length - LISTED_FILES));
  return lines.join('\n');
}

/** Opens the diffs of `files` (one editor for all of them); applies nothing. */
export async function reviewCodeRunning(
  conversationId: string,
  title: string,
  files: readonly CodeRunningFile[],
  plan: readonly PlannedFile[],
  version: number,
): Promise<void> {
  const paths = new Set(files.map((file) => file.path));
  const resources = plan
    .filter((file) => paths.has(file.path))
    .map((file) => {
      const change: GitChange = { path: file.path, status: LIST_STATUS[file.status] };
      const side = (which: 'original' | 'modified') =>
        changeUri({ conversationId, change, side: which, version });
      return [side('modified'), side('original'), side('modified')] as const;
    });
  await vscode.commands.executeCommand(
    'vscode.changes',
    vscode.l10n.t('Agent’s files that can run code: {0}', title),
    resources,
  );
}

/** The patch's statuses as the change list says them (a rename lists its new path as added). */
const LIST_STATUS: Record<PlannedFile['status'], GitChange['status']> = {
  added: 'ADDED',
  deleted: 'DELETED',
  modified: 'UPDATED',
  renamed: 'ADDED',
};
