/**
 * What Apply tells the user and the log when it is done: what it applied, merged, skipped and left
 * out, and why it refused.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppConversation, CodeRunningFile } from '../../api';
import type { ApplyPlan, ApplyRefusedError, ApplyResult, RefusedPath } from '../../changes';
import type { Log } from '../../core/log';
import { conversationTitle } from '../../state/names';
import { localChanges } from './localChanges';

/** The applied files, the log's lines and a notification that offers them. */
export function reportApplied(
  log: Log,
  conversation: AppConversation,
  repositoryRoot: string,
  plan: ApplyPlan,
  result: ApplyResult,
  codeRunning: { applied: readonly CodeRunningFile[]; leftOut: readonly string[] },
): void {
  const reasons = new Map(plan.files.map((file) => [file.path, file.reason]));
  log.info(`Applied the agent's changes of “${conversationTitle(conversation)}” to ${repositoryRoot}:`);
  for (const file of result.applied) log.info(`  applied     ${file}`);
  for (const file of result.merged) log.info(`  merged      ${file}`);
  for (const file of result.conflicted)
    log.info(`  conflicted  ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  for (const file of result.skipped)
    log.info(`  skipped     ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  for (const file of codeRunning.leftOut) log.info(`  left out    ${file} — it can run code`);
  for (const file of codeRunning.applied) log.info(`  can run code: ${file.path} — ${file.reason}`);
  if (result.stashed)
    log.info(`  stashed your edits to ${result.stashed.paths.join(', ')} as “${result.stashed.message}”`);
  const applied = result.applied.length + result.merged.length;
  const parts = [
    applied === 1
      ? vscode.l10n.t('Applied 1 file to {0}.', path.basename(repositoryRoot))
      : vscode.l10n.t('Applied {0} files to {1}.', applied, path.basename(repositoryRoot)),
  ];
  if (result.merged.length > 0) parts.push(vscode.l10n.t('{0} merged three-way.', result.merged.length));
  if (codeRunning.applied.length > 0)
    parts.push(
      vscode.l10n.t('These can run code: {0}.', listed(codeRunning.applied.map((file) => file.path))),
    );
  if (codeRunning.leftOut.length > 0)
    parts.push(vscode.l10n.t('Left out, as they can run code: {0}.', listed(codeRunning.leftOut)));
  if (result.skipped.length > 0) parts.push(vscode.l10n.t('Skipped: {0}.', listed(result.skipped)));
  if (result.stashed) parts.push(vscode.l10n.t('Your edits are in the stash.'));
  const show = vscode.l10n.t('Show Report');
  void vscode.window.showInformationMessage(parts.join(' '), show).then((choice) => {
    if (choice === show) log.show();
  });
}

/** Every file conflicts: the log names each with git's reason, the notification offers it. */
export async function reportConflicts(
  log: Log,
  plan: ApplyPlan,
  conflicted: readonly string[],
): Promise<void> {
  log.info(`Apply refused, nothing changed in ${plan.root}: every file conflicts.`);
  for (const file of plan.files)
    if (file.outcome === 'conflict')
      log.info(`  conflict  ${file.path}${file.reason ? ` — ${file.reason}` : ''}`);
  const show = vscode.l10n.t('Show Report');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Nothing was applied: every file conflicts with your repository ({0}).',
      listed(conflicted),
    ),
    show,
  );
  if (choice === show) log.show();
}

export function logRefused(log: Log, root: string, refused: readonly RefusedPath[]): void {
  log.warn(`The agent's change holds files that are never applied to ${root}:`);
  for (const file of refused) log.warn(`  refused  ${file.path} — ${file.reason}`);
}

/** What git's side refused at the last moment (the repository changed since the plan), in words. */
export function refusal(error: ApplyRefusedError): string {
  switch (error.reason) {
    case 'dirty':
      return vscode.l10n.t('Not applied: you have uncommitted changes to {0}.', listed(error.paths));
    case 'conflict':
      return vscode.l10n.t(
        'Not applied: {0} conflict with your repository. Nothing was changed.',
        listed(error.paths),
      );
    case 'empty':
      return vscode.l10n.t('Nothing to apply.');
    case 'not-a-repository':
      return vscode.l10n.t('Not applied: the folder is not in a git repository.');
    case 'unsafe':
      return unsafeMessage(error.refusals);
  }
}

export function unsafeMessage(refusals: readonly RefusedPath[]): string {
  return vscode.l10n.t(
    'Not applied: the agent’s change reaches outside your repository, into .git or through a link ({0}). Nothing was changed.',
    localChanges().describeRefusals(refusals),
  );
}

/** The first five paths, then how many more. */
export function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? vscode.l10n.t('{0} and {1} more', shown, paths.length - 5) : shown;
}
