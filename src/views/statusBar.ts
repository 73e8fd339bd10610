import * as vscode from 'vscode';
import type { Connection } from '../state/connection';
import type { OpenHandsStore } from '../state/store';

/** Connection state and running/paused counts; a click focuses the Sandboxes view. */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
  ) {
    this.item = vscode.window.createStatusBarItem('openhands.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'OpenHands';
    this.item.command = 'openhands.sandboxes.focus';
    this.subscription = store.onDidChange(() => this.update());
    this.update();
    this.item.show();
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
    const server = this.connection.config.serverUrl ?? this.connection.config.rawServerUrl;
    const running = store.sandboxes.filter((s) => s.status === 'RUNNING').length;
    const paused = store.sandboxes.filter((s) => s.status === 'PAUSED').length;
    const counts = vscode.l10n.t('{0} running · {1} paused', running, paused);
    this.item.backgroundColor = undefined;
    switch (store.state) {
      case 'unconfigured': {
        const problem = this.connection.problem;
        this.item.text = problem ? `$(warning) OpenHands: ${vscode.l10n.t('settings')}` : `$(gear) OpenHands`;
        this.item.tooltip =
          problem ?? vscode.l10n.t('No OpenHands server configured. Click to open the OpenHands view.');
        if (problem) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'idle':
        // nothing is asked while no OpenHands view is visible, so say what opening one does
        this.item.text = `$(cloud) OpenHands`;
        this.item.tooltip = vscode.l10n.t('{0}: open the OpenHands view to load the sandboxes.', server);
        break;
      case 'loading':
        this.item.text = `$(sync~spin) OpenHands`;
        this.item.tooltip = vscode.l10n.t('Connecting to {0}…', server);
        break;
      case 'ready':
        this.item.text = `$(cloud) OpenHands: ${counts}`;
        this.item.tooltip = vscode.l10n.t(
          'Connected to {0}. Updated {1}.',
          server,
          store.lastSuccessAt?.toLocaleTimeString() ?? '',
        );
        break;
      case 'error': {
        const unauthorized = store.lastError?.kind === 'unauthorized';
        this.item.text = unauthorized
          ? `$(key) OpenHands: ${vscode.l10n.t('unauthorized')}`
          : `$(debug-disconnect) OpenHands: ${vscode.l10n.t('offline')}`;
        if (store.stale && !unauthorized) this.item.text += ` (${counts})`;
        this.item.tooltip = store.lastError?.message ?? '';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
