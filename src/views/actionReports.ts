/**
 * How the outcome of a sandbox action reaches the user: progress on the Sandboxes view while it
 * runs, and a failure as a message with Retry (when trying again makes sense) and Show Log. State
 * (`SandboxActions`) only says how an action ended; this is where it is shown.
 */
import * as vscode from 'vscode';
import type { Log } from '../core/log';
import type { ActionOutcome } from '../state/sandboxActions';

/** Runs an action with the Sandboxes view's progress bar, then shows a failure; true when it worked. */
export async function reportAction(
  action: () => Promise<ActionOutcome>,
  log: Log,
  retry: () => unknown,
): Promise<boolean> {
  const outcome = await vscode.window.withProgress({ location: { viewId: 'openhands.sandboxes' } }, action);
  showFailure(outcome, log, retry);
  return outcome.ok;
}

export function showFailure(outcome: ActionOutcome, log: Log, retry?: () => unknown): void {
  if (outcome.ok) return;
  const retryLabel = vscode.l10n.t('Retry');
  const logLabel = vscode.l10n.t('Show Log');
  const buttons = outcome.canRetry && retry ? [retryLabel, logLabel] : [logLabel];
  const show =
    outcome.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void show(outcome.message, ...buttons).then((choice) => {
    if (choice === retryLabel) retry?.();
    if (choice === logLabel) log.show();
  });
}
