import * as vscode from 'vscode';
import type { ExecutionStatus, SandboxStatus } from '../api';

export interface StatusStyle {
  icon: vscode.ThemeIcon;
  label: string;
}

const spin = (color?: string) =>
  new vscode.ThemeIcon('loading~spin', color ? new vscode.ThemeColor(color) : undefined);
const icon = (id: string, color: string) => new vscode.ThemeIcon(id, new vscode.ThemeColor(color));

/** How each sandbox status looks. Unknown statuses (a newer server) get a neutral look, never a crash. */
export function sandboxStatusStyle(status: SandboxStatus): StatusStyle {
  switch (status) {
    case 'RUNNING':
      return { icon: icon('vm-running', 'testing.iconPassed'), label: vscode.l10n.t('Running') };
    case 'STARTING':
      return { icon: spin('charts.yellow'), label: vscode.l10n.t('Starting') };
    case 'PAUSED':
      return { icon: icon('debug-pause', 'charts.yellow'), label: vscode.l10n.t('Paused') };
    case 'ERROR':
      return { icon: icon('error', 'testing.iconFailed'), label: vscode.l10n.t('Error') };
    case 'MISSING':
      return { icon: icon('question', 'disabledForeground'), label: vscode.l10n.t('Missing') };
    default:
      return { icon: icon('circle-outline', 'disabledForeground'), label: titleCase(status) };
  }
}

export function executionStatusLabel(status: ExecutionStatus | null): string | undefined {
  switch (status) {
    case null:
      return undefined;
    case 'idle':
      return vscode.l10n.t('idle');
    case 'running':
      return vscode.l10n.t('working');
    case 'paused':
      return vscode.l10n.t('paused');
    case 'waiting_for_confirmation':
      // the agent waits for the user to approve or reject its next actions
      return vscode.l10n.t('waiting for you');
    case 'finished':
      return vscode.l10n.t('finished');
    case 'error':
      return vscode.l10n.t('error');
    case 'stuck':
      return vscode.l10n.t('stuck');
    default:
      return status.replace(/_/g, ' ');
  }
}

export function conversationIcon(
  execution: ExecutionStatus | null,
  sandbox: SandboxStatus,
): vscode.ThemeIcon {
  if (execution === 'running') return spin('charts.blue');
  if (execution === 'error' || execution === 'stuck') return icon('comment-unresolved', 'testing.iconFailed');
  if (execution === 'waiting_for_confirmation') return icon('comment-draft', 'charts.orange');
  if (sandbox === 'RUNNING') return icon('comment-discussion', 'testing.iconPassed');
  return icon('comment', 'disabledForeground');
}

function titleCase(value: string): string {
  const lower = value.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
