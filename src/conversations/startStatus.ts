import * as vscode from 'vscode';
import type { StartTaskStatus } from '../api';

/** What to tell the user while a conversation starts, per start-task status. */
export function startStatusMessage(status: StartTaskStatus): string {
  switch (status) {
    case 'WORKING':
      return vscode.l10n.t('Starting…');
    case 'WAITING_FOR_SANDBOX':
      return vscode.l10n.t('Waiting for the sandbox…');
    case 'PREPARING_REPOSITORY':
      return vscode.l10n.t('Preparing the repository…');
    case 'RUNNING_SETUP_SCRIPT':
      return vscode.l10n.t('Running the setup script…');
    case 'SETTING_UP_GIT_HOOKS':
      return vscode.l10n.t('Setting up git hooks…');
    case 'SETTING_UP_SKILLS':
      return vscode.l10n.t('Setting up skills…');
    case 'STARTING_CONVERSATION':
      return vscode.l10n.t('Starting the conversation…');
    case 'READY':
      return vscode.l10n.t('Ready');
    case 'ERROR':
      return vscode.l10n.t('Failed');
    default:
      return `${status.toLowerCase().replace(/_/g, ' ')}…`;
  }
}
