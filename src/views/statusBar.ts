import * as vscode from 'vscode';
import { formatCost, statsFromMetrics } from '../api';
import type { Connection } from '../state/connection';
import type { OpenHandsStore } from '../state/store';

interface StatusLook {
  visible: boolean;
  command: string;
  text: string;
  tooltip: string;
  warning: boolean;
}

/** Which server, its state and running/paused counts; a click switches the server (two clicks to another). */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[];
  private shown: StatusLook | undefined;

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

  /** What the item shows: each assignment to the item is a message to the window, so only changes are sent. */
  update(): void {
    const look = this.look();
    const shown = this.shown;
    if (shown?.visible !== look.visible) {
      if (look.visible) this.item.show();
      else this.item.hide();
    }
    if (shown?.command !== look.command) this.item.command = look.command;
    if (shown?.text !== look.text) this.item.text = look.text;
    if (shown?.tooltip !== look.tooltip) this.item.tooltip = look.tooltip;
    if (shown?.warning !== look.warning)
      this.item.backgroundColor = look.warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.shown = look;
  }

  private look(): StatusLook {
    const { store } = this;
    const config = this.connection.config;
    const look: StatusLook = {
      visible: config.showStatusBar,
      command: config.serverUrl ? 'openhands.switchServer' : 'openhands.connect',
      text: '',
      tooltip: '',
      warning: false,
    };
    const server = config.serverUrl ? `${config.serverName} (${config.serverUrl})` : config.rawServerUrl;
    // with several servers, the name says which one the counts are of
    const label = config.rememberedCount > 1 && config.serverUrl ? config.serverName : 'OpenHands';
    const clickTo = config.serverUrl
      ? vscode.l10n.t('Click to switch server.')
      : vscode.l10n.t('Click to connect.');
    const running = store.sandboxes.filter((s) => s.status === 'RUNNING').length;
    const paused = store.sandboxes.filter((s) => s.status === 'PAUSED').length;
    const counts = vscode.l10n.t('{0} running · {1} paused', running, paused);
    switch (store.state) {
      case 'unconfigured': {
        const problem = this.connection.problem;
        look.text = problem ? `$(warning) OpenHands: ${vscode.l10n.t('settings')}` : `$(plug) OpenHands`;
        look.tooltip = problem ?? vscode.l10n.t('Not connected to an OpenHands server. Click to connect.');
        look.warning = problem !== undefined;
        break;
      }
      case 'idle':
        // nothing is asked while no OpenHands view is visible, so say what opening one does
        look.text = `$(cloud) ${label}`;
        look.tooltip = `${vscode.l10n.t('{0}: open the OpenHands view to load the sandboxes.', server)} ${clickTo}`;
        break;
      case 'loading':
        look.text = `$(sync~spin) ${label}`;
        look.tooltip = vscode.l10n.t('Connecting to {0}…', server);
        break;
      case 'ready':
        look.text = `$(cloud) ${label}: ${counts}`;
        // no time of the last poll here: a poll that changes nothing changes nothing on screen
        look.tooltip = [vscode.l10n.t('Connected to {0}.', server), this.listedCost(), clickTo]
          .filter(Boolean)
          .join(' ');
        break;
      case 'error': {
        const unauthorized = store.lastError?.kind === 'unauthorized';
        look.text = unauthorized
          ? `$(key) ${label}: ${vscode.l10n.t('unauthorized')}`
          : `$(debug-disconnect) ${label}: ${vscode.l10n.t('offline')}`;
        if (store.stale && !unauthorized) look.text += ` (${counts})`;
        look.tooltip = `${store.lastError?.message ?? ''} ${clickTo}`.trim();
        look.warning = true;
        break;
      }
    }
    return look;
  }

  /** What the server says the listed conversations cost together (their agents' LLM calls), if anything. */
  private listedCost(): string | undefined {
    let total: number | undefined;
    for (const conversation of this.store.conversations) {
      const usage = statsFromMetrics(conversation.metrics)?.main;
      if (usage) total = (total ?? 0) + usage.cost;
    }
    return total === undefined
      ? undefined
      : vscode.l10n.t('The conversations listed cost {0} together.', formatCost(total));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
