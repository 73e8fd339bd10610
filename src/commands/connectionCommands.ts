import * as vscode from 'vscode';
import { checkServerUrl } from '../api';
import type { ApiKeys } from '../core/secretsManager';
import { SECTION } from '../core/config';
import type { Connection } from '../state/connection';
import type { Log } from '../core/log';
import { isPlainHttpToAnotherHost } from '../core/plainHttp';
import type { RefreshScheduler } from '../state/refreshScheduler';
import type { SpecCatalog } from '../state/specCatalog';

export interface ConnectionCommandDeps {
  connection: Connection;
  keys: ApiKeys;
  log: Log;
  scheduler: RefreshScheduler;
  specs: SpecCatalog;
  extensionId: string;
}

export function registerConnectionCommands({
  connection,
  keys,
  log,
  scheduler,
  specs,
  extensionId,
}: ConnectionCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('openhands.refresh', async () => {
      await Promise.all([scheduler.runNow({ full: true }), specs.refreshIfUsed()]);
    }),
    vscode.commands.registerCommand('openhands.setApiKey', async (value?: string) => {
      const serverUrl = connection.config.serverUrl;
      if (!serverUrl) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Configure a valid server URL before setting its API key.'),
        );
        return false;
      }
      // asked before the key is typed; with an argument (no prompts) Connection asks before sending it
      if (
        typeof value !== 'string' &&
        isPlainHttpToAnotherHost(serverUrl) &&
        !connection.plainHttp.allows(serverUrl) &&
        !(await connection.plainHttp.ask(serverUrl, { modal: true }))
      ) {
        return false;
      }
      const apiKey =
        typeof value === 'string'
          ? value
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('OpenHands API Key for {0}', serverUrl),
              prompt: vscode.l10n.t(
                'Stored in VS Code Secret Storage for this server only; never in settings.',
              ),
              password: true,
              ignoreFocusOut: true,
              validateInput: (text) =>
                text.trim() ? undefined : vscode.l10n.t('The API key cannot be empty.'),
            });
      if (!apiKey?.trim()) return false;
      await keys.set(serverUrl, apiKey.trim());
      await connection.rebuild();
      log.info(`API key stored for ${serverUrl}.`);
      return true;
    }),
    vscode.commands.registerCommand('openhands.clearApiKey', async () => {
      const serverUrl = connection.config.serverUrl;
      if (!serverUrl) return false;
      await keys.clear(serverUrl);
      await connection.rebuild();
      log.info(`API key removed for ${serverUrl}.`);
      void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was removed.', serverUrl));
      return true;
    }),
    vscode.commands.registerCommand('openhands.configureServer', async (value?: string) => {
      const url =
        typeof value === 'string'
          ? value
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('OpenHands Server URL'),
              prompt: vscode.l10n.t('The address of the OpenHands server, e.g. http://localhost:3000'),
              value: connection.config.rawServerUrl,
              ignoreFocusOut: true,
              validateInput: (text) => {
                const check = checkServerUrl(text);
                return check.ok ? undefined : check.message;
              },
            });
      if (url === undefined) return false;
      const check = checkServerUrl(url);
      if (!check.ok) {
        void vscode.window.showErrorMessage(check.message);
        return false;
      }
      await vscode.workspace
        .getConfiguration(SECTION)
        .update('serverUrl', check.url, vscode.ConfigurationTarget.Global);
      await connection.rebuild();
      return true;
    }),
    vscode.commands.registerCommand('openhands.openSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${extensionId}`),
    ),
    vscode.commands.registerCommand('openhands.showLog', () => log.show()),
  ];
}
