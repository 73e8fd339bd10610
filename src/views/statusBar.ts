import * as vscode from 'vscode';
import type { Connection } from '../state/connection';
import type { OpenHandsStore } from '../state/store';

/** Which server, its state and running/paused counts; a click switches the server (two clicks to another). */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
  ) {
    this.item = vscode.window.createStatusBarItem('openhands.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'OpenHands';
    this.subscriptions = [
      store.onDidChange(() => this.update()),
      connection.onDidChangeConfig(() => this.update()),
    ];
    this.update();
  }

  /** The text shown, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip shown, for tests. */
  get tooltip(): string {
    const tooltip = this.item.tooltip;
    return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  }

  update(): void {
    const { store } = this;
    const config = this.connection.config;
    if (config.showStatusBar) this.item.show();
    else this.item.hide();
    this.item.command = config.serverUrl ? 'openhands.switchServer' : 'openhands.connect';
    const server = config.serverUrl ? `${config.serverName} (${config.serverUrl})` : config.rawServerUrl;
    // with several servers, the name says which one the counts are of
    const label = config.rememberedCount > 1 && config.serverUrl ? config.serverName : 'OpenHands';
    const clickTo = config.serverUrl
      ? vscode.l10n.t('Click to switch server.')
      : vscode.l10n.t('Click to connect.');
    const running = store.sandboxes.filter((s) => s.status === 'RUNNING').length;
    const paused = store.sandboxes.filter((s) => s.status === 'PAUSED').length;
    const counts = vscode.l10n.t('{0} running · {1} paused', running, paused);
    this.item.backgroundColor = undefined;
    switch (store.state) {
      case 'unconfigured': {
        const problem = this.connection.problem;
        this.item.text = problem ? `$(warning) OpenHands: ${vscode.l10n.t('settings')}` : `$(plug) OpenHands`;
        this.item.tooltip =
          problem ?? vscode.l10n.t('Not connected to an OpenHands server. Click to connect.');
        if (problem) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'idle':
        // nothing is asked while no OpenHands view is visible, so say what opening one does
        this.item.text = `$(cloud) ${label}`;
        this.item.tooltip = `${vscode.l10n.t('{0}: open the OpenHands view to load the sandboxes.', server)} ${clickTo}`;
        break;
      case 'loading':
        this.item.text = `$(sync~spin) ${label}`;
        this.item.tooltip = vscode.l10n.t('Connecting to {0}…', server);
        break;
      case 'ready':
        this.item.text = `$(cloud) ${label}: ${counts}`;
        this.item.tooltip = `${vscode.l10n.t(
          'Connected to {0}. Updated {1}.',
          server,
          store.lastSuccessAt?.toLocaleTimeString() ?? '',
        )} ${clickTo}`;
        break;
      case 'error': {
        const unauthorized = store.lastError?.kind === 'unauthorized';
        this.item.text = unauthorized
          ? `$(key) ${label}: ${vscode.l10n.t('unauthorized')}`
          : `$(debug-disconnect) ${label}: ${vscode.l10n.t('offline')}`;
        if (store.stale && !unauthorized) this.item.text += ` (${counts})`;
        this.item.tooltip = `${store.lastError?.message ?? ''} ${clickTo}`.trim();
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
