/** The agent's branch and pull requests: Open Pull Request and Check Out the Agent's Branch. */
import * as vscode from 'vscode';
import type { Log } from '../../core/log';
import type { Connection } from '../../state/connection';
import type { ProviderHostsCache } from '../../state/providerHosts';
import type { OpenHandsStore } from '../../state/store';
import type { ExternalOpener } from '../externalOpener';
import { resolveConversation, type CommandTarget } from '../targets';
import { checkOutAgentBranch } from './checkOutBranch';
import { openPullRequest } from './openPullRequest';

export interface BranchCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  log: Log;
  providerHosts: ProviderHostsCache;
  opener: ExternalOpener;
}

export function registerBranchCommands(deps: BranchCommandDeps): vscode.Disposable[] {
  const { store, connection, log } = deps;
  return [
    vscode.commands.registerCommand('openhands.openPullRequest', async (target: CommandTarget) => {
      const conversation = await resolveConversation(
        target,
        store,
        connection,
        vscode.l10n.t('Open Pull Request'),
      );
      if (!conversation) return undefined;
      return openPullRequest({ hosts: () => deps.providerHosts.read(), opener: deps.opener }, conversation);
    }),
    vscode.commands.registerCommand('openhands.checkOutAgentBranch', async (target: CommandTarget) => {
      const conversation = await resolveConversation(
        target,
        store,
        connection,
        vscode.l10n.t('Check Out the Agent’s Branch'),
      );
      if (!conversation) return undefined;
      return checkOutAgentBranch(log, conversation);
    }),
  ];
}
