// Connect to OpenHands…, Switch Server…, Forget Server…: the servers the user keeps, and which one
// the views show.
import * as vscode from 'vscode';
import type { ServerSecrets } from '../../core/secretsManager';
import { forgetServerEntry, readServers, sameServerUrl, type RememberedServer } from '../../core/servers';
import {
  connectInteractively,
  connectWith,
  showServer,
  switchTo,
  type ConnectDeps,
  type ConnectRequest,
  type ConnectResult,
  modelOfferLink,
} from './connectFlow';

export interface ServerCommandDeps extends ConnectDeps {
  /** The MCP form's secrets per server: forgotten with the server. */
  mcpSecrets: ServerSecrets;
  /** The Model page's LLM key per server: forgotten with the server. */
  llmKeys: ServerSecrets;
}

/** `deps.notice` is one for the whole server flow, so its messages replace each other. */
export function registerServerCommands(deps: ServerCommandDeps): vscode.Disposable[] {
  const notice = deps.notice;
  return [
    vscode.commands.registerCommand(
      'openhands.connect',
      async (request?: ConnectRequest): Promise<ConnectResult | boolean> => {
        if (request && typeof request === 'object' && typeof request.url === 'string') {
          const result = await connectWith(deps, request);
          if (result.saved) notice.show(result.message, modelOfferLink(result.model));
          else void vscode.window.showErrorMessage(result.message);
          return result;
        }
        return connectInteractively(deps);
      },
    ),
    vscode.commands.registerCommand('openhands.switchServer', async (url?: string) => {
      // "Connected to …" says nothing true of the server switched to
      notice.end();
      if (typeof url === 'string') {
        const server = knownServers(deps).find((known) => sameServerUrl(known.url, url));
        if (!server) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('{0} is not remembered any more. Connect to OpenHands… adds it again.', url),
          );
          return false;
        }
        await switchTo(deps, server);
        return true;
      }
      return pickServer(deps);
    }),
    vscode.commands.registerCommand(
      'openhands.forgetServer',
      async (target?: string | { url: string; confirmed?: boolean }) => {
        const url = typeof target === 'string' ? target : target?.url;
        const server = url
          ? knownServers(deps).find((known) => sameServerUrl(known.url, url))
          : await pickServerToForget(deps);
        if (!server) return false;
        const confirmed = typeof target === 'object' && target.confirmed === true;
        if (!confirmed && !(await confirmForget(server))) return false;
        await forget(deps, server);
        return true;
      },
    ),
  ];
}

/** The remembered servers, and the one shown if it is not among them. */
function knownServers(deps: ServerCommandDeps): RememberedServer[] {
  const servers = readServers();
  const config = deps.connection.config;
  if (config.serverUrl && !config.remembered) {
    servers.unshift({ name: config.serverName, url: config.serverUrl, authHeader: config.authHeader });
  }
  return servers;
}

type ServerItem = vscode.QuickPickItem & { server?: RememberedServer; action?: 'connect' | 'forget' };

async function pickServer(deps: ServerCommandDeps): Promise<boolean> {
  const current = deps.connection.config.serverUrl;
  const forgetButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('trash'),
    tooltip: vscode.l10n.t('Forget this server'),
  };
  const items: ServerItem[] = knownServers(deps).map((server) => {
    const shown = current !== undefined && sameServerUrl(server.url, current);
    return {
      label: `${shown ? '$(check)' : '$(server)'} ${server.name}`,
      description: server.url,
      detail: shown ? vscode.l10n.t('Shown in the views now') : undefined,
      server,
      buttons: [forgetButton],
    };
  });
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(add) ${vscode.l10n.t('Connect to Another Server…')}`, action: 'connect' },
  );
  const pick = vscode.window.createQuickPick<ServerItem>();
  pick.title = vscode.l10n.t('OpenHands: Switch Server');
  pick.placeholder = vscode.l10n.t('Which server should the views show?');
  pick.items = items;
  const chosen = await new Promise<ServerItem | RememberedServer | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    // the trash button: the pick closes first (the confirmation is a dialog), then Forget runs
    pick.onDidTriggerItemButton((event) => resolve(event.item.server));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (chosen && !('label' in chosen)) {
    if (!(await confirmForget(chosen))) return false;
    await forget(deps, chosen);
    return false;
  }
  if (!chosen) return false;
  if (chosen.action === 'connect') return connectInteractively(deps);
  if (!chosen.server) return false;
  if (current && sameServerUrl(chosen.server.url, current)) return true;
  await switchTo(deps, chosen.server);
  return true;
}

async function pickServerToForget(deps: ServerCommandDeps): Promise<RememberedServer | undefined> {
  const servers = knownServers(deps);
  if (!servers.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server is remembered.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    servers.map((server) => ({ label: server.name, description: server.url, server })),
    {
      title: vscode.l10n.t('OpenHands: Forget Server'),
      placeHolder: vscode.l10n.t('Which server should VS Code forget?'),
    },
  );
  return picked?.server;
}

async function confirmForget(server: RememberedServer): Promise<boolean> {
  const forgetLabel = vscode.l10n.t('Forget');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Forget {0}?', server.name),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Its address, its API key and the MCP form secrets kept for it are removed from this machine. Its sandboxes and conversations stay on the server.',
      ),
    },
    forgetLabel,
  );
  return answer === forgetLabel;
}

/** Removes the server and every secret kept for it; a server shown goes to the next remembered one. */
async function forget(deps: ServerCommandDeps, server: RememberedServer): Promise<void> {
  await forgetServerEntry(server.url);
  // the views move on first, so they never ask the forgotten server without its key
  const current = deps.connection.config.serverUrl;
  if (current && sameServerUrl(current, server.url)) await showServer(deps, readServers()[0]?.url ?? '');
  await Promise.all([
    deps.keys.clear(server.url),
    deps.mcpSecrets.clear(server.url),
    deps.llmKeys.clear(server.url),
    deps.connection.plainHttp.revoke(server.url),
  ]);
  deps.log.info(`Forgot ${server.url}: its key, LLM key and MCP form secrets were removed.`);
  deps.notice.show(
    vscode.l10n.t('{0} was forgotten: its key and secrets are gone from this machine.', server.name),
  );
}
