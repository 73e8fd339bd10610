// The context keys that show Rename, Delete and Download Conversation only on a server that has their
// routes (OpenHands 1.11): read from the server's /openapi.json once per server, when its views first
// load. A server that hides the document shows them; each call then finds out for itself.
import * as vscode from 'vscode';
import type { ManageOffers } from '../api';
import type { Log } from '../core/log';
import type { Connection } from '../state/connection';
import type { OpenHandsStore } from '../state/store';

export const MANAGE_CONTEXT_KEYS = {
  rename: 'openhands.offers.renameConversation',
  delete: 'openhands.offers.deleteConversation',
  download: 'openhands.offers.downloadConversation',
} as const;

const NONE: ManageOffers = { rename: false, delete: false, download: false, queueMessage: false };
const UNKNOWN: ManageOffers = { rename: true, delete: true, download: true, queueMessage: true };

export class ManageOffersContext implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private unread = true;
  private generation = 0;
  private known: ManageOffers = NONE;
  /** The read under way, for a caller that needs the answer before the views loaded. */
  private reading: Promise<void> | undefined;

  constructor(
    private readonly connection: Connection,
    store: OpenHandsStore,
    private readonly log: Log,
  ) {
    this.subscriptions = [
      connection.onDidChange(() => {
        // another server: nothing is known of it until its views load
        this.generation++;
        this.unread = true;
        void this.set(NONE);
      }),
      store.onDidChange(() => {
        if (this.unread && store.state === 'ready') void this.refresh();
      }),
    ];
  }

  /** What the server of the moment offers, as the menus see it. */
  get offers(): ManageOffers {
    return this.known;
  }

  /** What the server offers, read now when nothing was read of it yet (New Conversation before the views loaded). */
  async read(): Promise<ManageOffers> {
    if (this.unread) await this.refresh();
    else await this.reading;
    return this.known;
  }

  refresh(): Promise<void> {
    this.reading = this.readOffers();
    return this.reading;
  }

  private async readOffers(): Promise<void> {
    const client = this.connection.client;
    if (!client) return;
    this.unread = false;
    const generation = this.generation;
    let offers: ManageOffers | undefined;
    try {
      offers = await client.manage.offers();
    } catch (error) {
      this.log.warn(`Could not read which conversation routes the server has: ${String(error)}`);
    }
    if (generation !== this.generation) return;
    await this.set(offers ?? UNKNOWN);
  }

  private async set(offers: ManageOffers): Promise<void> {
    this.known = offers;
    await Promise.all(
      (Object.keys(MANAGE_CONTEXT_KEYS) as (keyof typeof MANAGE_CONTEXT_KEYS)[]).map((name) =>
        vscode.commands.executeCommand('setContext', MANAGE_CONTEXT_KEYS[name], offers[name]),
      ),
    );
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }
}
