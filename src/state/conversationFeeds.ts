/**
 * One live feed per open conversation, shared by every view that shows it (the panel now, the
 * watcher of the next issue), closed when the last one lets go. What a closed feed held is kept
 * while VS Code runs (the last few conversations), so reopening one, or one whose sandbox was
 * paused meanwhile, shows what it last had instead of an empty page.
 */
import * as vscode from 'vscode';
import {
  AgentServerClient,
  agentEndpointOf,
  EventFeed,
  type AgentEndpoint,
  type AgentEvent,
  type AppConversation,
  type EventLog,
  type FeedTarget,
  messageText,
  normalizeUuid,
} from '../api';
import type { Log } from '../core/log';
import { AgentLocator } from './agentLocator';
import { askedWords, rememberAsked } from './askedWords';
import { noteModelFailure } from './modelFailures';
import type { Connection } from './connection';
import { SteeringError } from './steeringError';
import type { OpenHandsStore } from './store';

export interface FeedLease extends vscode.Disposable {
  readonly feed: EventFeed;
  /** The app server's view of the conversation, as last read (title, sandbox status, model). */
  readonly conversation: AppConversation | undefined;
}

interface OpenFeed {
  feed: EventFeed;
  leases: number;
  subscription: { dispose(): void };
}

/** New events of an open feed (live, or read on a reconnect), in order. */
export interface AppendedEvents {
  conversationId: string;
  events: readonly AgentEvent[];
}

/** How many closed conversations' events are kept for a reopen. */
const KEPT_CLOSED = 8;
/** And what they may weigh together on the heap: two full logs (each is capped at 64 MB), however many they are. */
const KEPT_CLOSED_BYTES = 128 * 1024 * 1024;

export class ConversationFeeds implements vscode.Disposable {
  private readonly open = new Map<string, OpenFeed>();
  /** Closed feeds' events, oldest first (a Map keeps insertion order). */
  private readonly kept = new Map<string, EventLog>();
  /** The app server's view of each open conversation, as last read. */
  private readonly conversations = new Map<string, AppConversation>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** A conversation's app-server view changed (fired with its id). */
  readonly onDidChangeConversation = this.changed.event;
  private readonly appended = new vscode.EventEmitter<AppendedEvents>();
  /** Newer events of any open feed (what the agent did next), for those that follow its work. */
  readonly onDidAppendEvents = this.appended.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Where each conversation's agent server is, for the feeds, steering and the changes. */
  readonly locator = new AgentLocator({
    appClient: () => this.connection.requireClient(),
    clientFor: (endpoint) => this.clientFor(endpoint),
    unreachable: (conversation) =>
      conversation
        ? new SteeringError(offlineReason(conversation), canResume(conversation))
        : new SteeringError(vscode.l10n.t('The OpenHands server does not know this conversation.')),
  });

  constructor(
    private readonly connection: Connection,
    private readonly store: OpenHandsStore,
    private readonly log: Log,
  ) {
    this.disposables.push(
      this.changed,
      this.appended,
      // another server or key: what closed feeds held may belong to another server; open ones ask
      // where their conversation is again
      connection.onDidChange(() => {
        this.kept.clear();
        this.locator.addresses.clear();
        for (const open of this.open.values()) open.feed.wake();
      }),
      // a sandbox that came back: its offline feeds start again without waiting for the user; one
      // that stopped: its feeds say so now rather than when the silent socket times out
      store.onDidChange((change) => {
        // a conversation changed in place (renamed): an open panel names it so at once
        for (const conversation of change.rows?.conversations ?? []) {
          const id = normalizeUuid(conversation.id);
          if (!this.open.has(id) || this.conversations.get(id) === conversation) continue;
          this.conversations.set(id, conversation);
          this.changed.fire(id);
        }
        this.followSandboxes();
        this.locator.addresses.forgetStopped(
          (sandboxId, id) =>
            this.store.findSandbox(sandboxId)?.status ?? this.store.findConversation(id)?.sandbox_status,
        );
      }),
    );
  }

  /** The feed of a conversation, started if needed; dispose the lease when done with it. */
  acquire(conversationId: string): FeedLease {
    const id = normalizeUuid(conversationId);
    let open = this.open.get(id);
    if (!open) {
      const kept = this.kept.get(id);
      this.kept.delete(id);
      const known = this.store.findConversation(id);
      if (known) this.conversations.set(id, known);
      const feed = new EventFeed({
        resolve: (signal) => this.resolve(id, signal),
        clientFor: (endpoint) => this.clientFor(endpoint),
        // an event read whole goes where steering last found the server, and finds it again when it moved
        reach: (call, client) =>
          this.locator.withAgent(id, call, { client: this.locator.remembered(id) ?? client }),
        tls: this.connection.tls,
        events: kept,
        log: (message) => this.log.info(message),
      });
      const events = feed.onEvents((change) => {
        learnAsked(id, change.prepended, change.appended);
        if (change.appended.length > 0) this.appended.fire({ conversationId: id, events: change.appended });
      });
      // the rows say "model failed" while the newest run ended so
      const states = feed.onState(() => noteModelFailure(id, feed.current.modelFailure));
      const subscription = { dispose: () => (events.dispose(), states.dispose()) };
      open = { feed, leases: 0, subscription };
      this.open.set(id, open);
      open.feed.start();
    }
    open.leases++;
    const current = open;
    const conversations = this.conversations;
    let released = false;
    return {
      feed: current.feed,
      get conversation() {
        return conversations.get(id);
      },
      dispose: () => {
        if (released) return;
        released = true;
        this.release(id, current);
      },
    };
  }

  /** A REST client of an agent server, with the extension's timeout, TLS and log. */
  clientFor(endpoint: AgentEndpoint): AgentServerClient {
    return new AgentServerClient({
      endpoint,
      timeoutMs: this.connection.config.requestTimeoutMs,
      tls: this.connection.tls,
      pool: this.connection.pool,
      logBodies: () => this.log.httpLevel === 'bodies',
      onLog: (entry) => this.log.request(entry),
    });
  }

  /** The feed of a conversation, when one is open (no lease: it may close at any time). */
  openFeed(conversationId: string): EventFeed | undefined {
    return this.open.get(normalizeUuid(conversationId))?.feed;
  }

  /** How many feeds are open (tests: one per open conversation, none after the panels close). */
  get openCount(): number {
    return this.open.size;
  }

  private release(id: string, open: OpenFeed): void {
    if (--open.leases > 0 || this.open.get(id) !== open) return;
    this.open.delete(id);
    this.conversations.delete(id);
    open.subscription.dispose();
    open.feed.dispose();
    this.kept.set(id, open.feed.events);
    while (this.kept.size > KEPT_CLOSED || this.keptBytes() > KEPT_CLOSED_BYTES) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
  }

  private keptBytes(): number {
    let bytes = 0;
    for (const events of this.kept.values()) bytes += events.bytes;
    return bytes;
  }

  /** Where the agent server of a conversation is now; asked on every (re)connect. */
  private async resolve(id: string, signal: AbortSignal): Promise<FeedTarget> {
    const conversation = await this.locator.ask(id, signal);
    if (conversation && this.open.has(id)) {
      this.conversations.set(id, conversation);
      this.changed.fire(id);
    }
    if (!conversation) {
      return {
        endpoint: undefined,
        reason: vscode.l10n.t('The OpenHands server does not know this conversation.'),
      };
    }
    const endpoint = agentEndpointOf(conversation);
    if (conversation.sandbox_status === 'RUNNING' && endpoint) return { endpoint };
    return { endpoint: undefined, reason: offlineReason(conversation) };
  }

  private followSandboxes(): void {
    for (const [id, open] of this.open) {
      const conversation = this.store.findConversation(id);
      const sandbox = conversation ? this.store.findSandbox(conversation.sandbox_id) : undefined;
      const status = sandbox?.status ?? conversation?.sandbox_status;
      if (status === undefined) continue;
      const feed = open.feed.current.status;
      if (feed === 'offline' && status === 'RUNNING') open.feed.wake();
      else if (feed === 'live' && (status === 'PAUSED' || status === 'MISSING' || status === 'ERROR'))
        open.feed.recheck();
    }
  }

  dispose(): void {
    for (const open of this.open.values()) open.feed.dispose();
    this.open.clear();
    this.kept.clear();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

export function offlineReason(conversation: AppConversation): string {
  switch (conversation.sandbox_status) {
    case 'PAUSED':
      return vscode.l10n.t('The sandbox is paused.');
    case 'STARTING':
      return vscode.l10n.t('The sandbox is starting.');
    case 'ERROR':
      return vscode.l10n.t('The sandbox failed.');
    case 'MISSING':
      return vscode.l10n.t('The sandbox is gone.');
    default:
      return vscode.l10n.t("This conversation's sandbox cannot be reached.");
  }
}

/**
 * What the user asked first, from a feed's events, for a conversation the server has not titled: an
 * older page's user message is earlier than any seen; a newer one counts only while none is known.
 */
function learnAsked(id: string, older: readonly AgentEvent[], newer: readonly AgentEvent[]): void {
  const first = (events: readonly AgentEvent[]) =>
    events.find((event) => event.kind === 'MessageEvent' && event.source === 'user' && messageText(event));
  const asked = first(older) ?? (askedWords(id) === undefined ? first(newer) : undefined);
  if (asked) rememberAsked(id, messageText(asked));
}

/** Whether resuming the sandbox would let the conversation be reached. */
function canResume(conversation: AppConversation): boolean {
  const status = conversation.sandbox_status;
  return status === 'PAUSED' || status === 'MISSING' || status === 'ERROR';
}
