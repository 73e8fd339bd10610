import * as vscode from 'vscode';
import type { ApiErrorKind } from '../api';
import type { Connection } from '../state/connection';
import type { OpenHandsNode } from './nodes';
import { serverLabel } from './serverLabel';
import type { OpenHandsStore } from '../state/store';

/**
 * Keeps the views' chrome in step with the store: the context keys that pick the welcome view and
 * the menus, the "stale" and "filtered" messages, and the view descriptions.
 */
export class ViewPresenter implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  /** What was last sent to the window, by context key or view property: only changes are sent again. */
  private readonly sent = new Map<string, unknown>();

  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
    private readonly sandboxesView: vscode.TreeView<OpenHandsNode>,
    private readonly conversationsView: vscode.TreeView<OpenHandsNode>,
  ) {
    this.subscriptions = [
      store.onDidChange(() => this.update()),
      // a server renamed: the descriptions say which server the views show
      connection.onDidChangeConfig(() => this.update()),
    ];
    this.update();
  }

  update(): void {
    const { store } = this;
    this.setContext('openhands.state', store.state);
    this.setContext('openhands.errorKind', store.lastError?.kind ?? '');
    this.setContext('openhands.conversationsFiltered', store.titleFilter !== undefined);
    this.setContext('openhands.hasApiKey', this.connection.hasApiKey);
    this.setContext('openhands.configProblem', this.connection.problem !== undefined);

    // A message hides the welcome view, so set one only when rows are shown.
    const staleMessage = store.stale ? this.staleMessage() : undefined;
    this.ifChanged('sandboxes.message', store.sandboxes.length ? staleMessage : undefined, (message) => {
      this.sandboxesView.message = message;
    });
    const filterMessage = store.titleFilter
      ? vscode.l10n.t('Filtered by title: “{0}”', store.titleFilter)
      : undefined;
    const conversationsMessage = store.conversations.length
      ? [staleMessage, filterMessage].filter(Boolean).join(' — ') || undefined
      : undefined;
    this.ifChanged('conversations.message', conversationsMessage, (message) => {
      this.conversationsView.message = message;
    });
    // which server the views show, always in sight, first and short so it reads beside the actions
    const { serverUrl, serverName } = this.connection.config;
    const server = serverUrl ? serverLabel(serverName, serverUrl) : undefined;
    const filtered = store.titleFilter ? vscode.l10n.t('filtered') : undefined;
    this.ifChanged('conversations.description', describe(server, filtered), (description) => {
      this.conversationsView.description = description;
    });
    const offline = store.stale ? vscode.l10n.t('offline') : undefined;
    this.ifChanged('sandboxes.description', describe(server, offline), (description) => {
      this.sandboxesView.description = description;
    });
  }

  private setContext(key: string, value: string | boolean): void {
    this.ifChanged(key, value, () => void vscode.commands.executeCommand('setContext', key, value));
  }

  private ifChanged<T>(key: string, value: T, send: (value: T) => void): void {
    if (this.sent.has(key) && this.sent.get(key) === value) return;
    this.sent.set(key, value);
    send(value);
  }

  private staleMessage(): string {
    const when = this.store.lastSuccessAt?.toLocaleTimeString() ?? '';
    return vscode.l10n.t(
      '⚠ Last known data, from {0}. {1} The log has the details.',
      when,
      failureInWords(this.store.lastError?.kind),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function describe(...parts: (string | undefined)[]): string | undefined {
  return parts.filter(Boolean).join(' · ') || undefined;
}

/** Why the server did not answer, without its routes and error codes (those are in the log). */
function failureInWords(kind: ApiErrorKind | undefined): string {
  switch (kind) {
    case 'network':
      return vscode.l10n.t('The server could not be reached: the connection failed or was closed.');
    case 'timeout':
      return vscode.l10n.t('The server took too long to answer.');
    case 'unauthorized':
      return vscode.l10n.t('The server refused the API key.');
    case 'rate_limited':
      return vscode.l10n.t('The server is receiving too many requests.');
    case 'invalid_response':
      return vscode.l10n.t('The server answered, but not as OpenHands does.');
    default:
      return vscode.l10n.t('The server reported an error.');
  }
}
