/**
 * Which conversations need the user, and when one changes: the watch follows the conversations
 * started, opened or steered in VS Code (or, by the `notifications` setting, every running one)
 * through their live feeds while they work, and emits one transition each time one finishes, waits
 * for confirmation, fails or gets stuck. A feed is held only while its conversation works (running or
 * waiting for the user) and let go once it is done, so a quiet conversation costs nothing. The
 * store's polled statuses only say when to start following; transitions come from the feeds, which
 * say each change once. No UI: `views/conversationNotifier.ts` and the views read it.
 */
import * as vscode from 'vscode';
import {
  isRecord,
  messageText,
  normalizeUuid,
  scrubSecrets,
  type AgentEvent,
  type AppConversation,
} from '../api';
import { showable } from '../api/serverText';
import type { NotificationScope } from '../core/config';
import type { MementoManager } from '../core/mementoManager';
import type { ConversationFeeds, FeedLease } from './conversationFeeds';
import { conversationTitle } from './names';
import type { OpenHandsStore } from './store';

/** The statuses a user wants to hear about. */
export type AttentionStatus = 'finished' | 'waiting_for_confirmation' | 'error' | 'stuck';
const ATTENTION: ReadonlySet<string> = new Set<AttentionStatus>([
  'finished',
  'waiting_for_confirmation',
  'error',
  'stuck',
]);
/** While a conversation is in one of these, its feed is held. */
const WORKING: ReadonlySet<string> = new Set(['running', 'waiting_for_confirmation']);
const DONE: ReadonlySet<string> = new Set(['finished', 'error', 'stuck']);

export interface ConversationTransition {
  conversationId: string;
  title: string;
  status: AttentionStatus;
  /** The agent's last words (finished) or the error (error), scrubbed and short; absent otherwise. */
  detail: string | undefined;
}

interface Followed {
  lease: FeedLease;
  status: string | undefined;
  subscription: { dispose(): void };
  /** Takes the feed's word when the agent was expected to run and never said so. */
  releaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** The feed's status when the user made the agent run: old news until the feed reports another. */
  stale: string | undefined;
  /** The user made the agent run and it has not been seen running yet (a message passes through idle). */
  expectRun: boolean;
}

/** How long the agent may take to start after the user made it run before the watch takes the feed's word. */
const EXPECT_RUN_MS = 30_000;

export interface ConversationWatchDeps {
  store: OpenHandsStore;
  feeds: ConversationFeeds;
  mementos: MementoManager;
  scope(): NotificationScope;
  /** Secrets that must not reach a notification (the API key). */
  secrets(): readonly (string | undefined)[];
  expectRunMs?: number;
}

export class ConversationWatch implements vscode.Disposable {
  private readonly watched: Set<string>;
  private readonly followed = new Map<string, Followed>();
  /**
   * What a feed said last when it was let go, and what the polled list said then: the list lags
   * behind the feed, so until it says something else the feed's word stands (no badge for a
   * conversation the user has already answered, no second follow of one that is done).
   */
  private readonly settled = new Map<string, { status: string | undefined; listed: string | null }>();
  /** The conversations waiting for the user when `onDidChange` last fired. */
  private waitingShown = '';
  private readonly transitioned = new vscode.EventEmitter<ConversationTransition>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A watched conversation finished, waits for confirmation, failed or got stuck. */
  readonly onDidTransition = this.transitioned.event;
  /** What `statusOf` or `waiting` answer changed. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: ConversationWatchDeps) {
    this.watched = new Set(deps.mementos.watchedConversations());
    this.disposables.push(
      this.transitioned,
      this.changed,
      deps.store.onDidChange(() => this.reconcile()),
    );
  }

  /**
   * Watch this conversation from now on (started, opened or steered here) and follow it at once.
   * `working`: the user is about to make the agent run (a message, Continue, Approve), so the status
   * the feed holds now is about to be old news: the agent counts as running until the feed says more.
   */
  watch(conversationId: string, options: { working?: boolean } = {}): void {
    const id = normalizeUuid(conversationId);
    if (!this.watched.has(id)) {
      this.watched.add(id);
      void this.deps.mementos.setWatchedConversations([...this.watched]);
    }
    this.settled.delete(id);
    if (this.deps.scope() === 'off') return;
    this.follow(id, undefined, options.working ?? false);
  }

  isWatched(conversationId: string): boolean {
    return this.watched.has(normalizeUuid(conversationId));
  }

  /** Whether a feed is held for the conversation (tests; the cost of watching). */
  isFollowing(conversationId: string): boolean {
    return this.followed.has(normalizeUuid(conversationId));
  }

  get followingCount(): number {
    return this.followed.size;
  }

  /** The conversation's execution status as its live feed says, or as the server last said. */
  statusOf(conversation: AppConversation): string | null {
    const id = normalizeUuid(conversation.id);
    const live = this.followed.get(id)?.status;
    if (live) return live;
    const settled = this.settled.get(id);
    if (settled?.status && settled.listed === (conversation.execution_status ?? null)) return settled.status;
    return conversation.execution_status ?? null;
  }

  /** Conversations waiting for the user (confirmation), among those the store knows or the watch follows. */
  waiting(): string[] {
    const ids = new Set<string>();
    for (const conversation of this.deps.store.conversations)
      if (this.statusOf(conversation) === 'waiting_for_confirmation') ids.add(normalizeUuid(conversation.id));
    for (const [id, followed] of this.followed)
      if (followed.status === 'waiting_for_confirmation') ids.add(id);
    return [...ids];
  }

  /** Lets go of every feed and what they said (another server: its conversations are not these). */
  releaseAll(): void {
    for (const id of [...this.followed.keys()]) this.release(id);
    this.settled.clear();
    this.changedIfWaiting();
  }

  /** The scope setting changed, or the store did: take and let go of feeds to match. */
  reconcile(): void {
    const scope = this.deps.scope();
    if (scope === 'off') {
      for (const id of [...this.followed.keys()]) this.release(id);
      this.changed.fire();
      return;
    }
    for (const conversation of this.deps.store.conversations) {
      const id = normalizeUuid(conversation.id);
      if (this.followed.has(id)) continue;
      const settled = this.settled.get(id);
      if (settled && settled.listed !== (conversation.execution_status ?? null)) this.settled.delete(id);
      if (scope === 'watched' && !this.watched.has(id)) continue;
      const working =
        WORKING.has(conversation.execution_status ?? '') && conversation.sandbox_status === 'RUNNING';
      // on the list's word only when the list says something the feed did not
      if (working && !this.settled.has(id)) this.follow(id, conversation.execution_status ?? undefined);
    }
    this.changedIfWaiting();
  }

  /** The trees redraw on the store's change anyway: another redraw only when who waits changed. */
  private changedIfWaiting(): void {
    const waiting = this.waiting().sort().join(' ');
    if (waiting === this.waitingShown) return;
    this.waitingShown = waiting;
    this.changed.fire();
  }

  private follow(id: string, knownStatus: string | undefined, working = false): void {
    let followed = this.followed.get(id);
    if (!followed) {
      this.settled.delete(id);
      const lease = this.deps.feeds.acquire(id);
      const now = lease.feed.current.executionStatus;
      followed = {
        lease,
        // what the list said: when the feed already knows better (it finished meanwhile), that is news
        status: working ? 'running' : (knownStatus ?? now),
        subscription: lease.feed.onState((state) => this.statusChanged(id, state.executionStatus)),
        releaseTimer: undefined,
        stale: undefined,
        expectRun: false,
      };
      this.followed.set(id, followed);
      if (!working) {
        if (now !== undefined && now !== followed.status) return this.statusChanged(id, now);
        if (followed.status !== undefined) this.scheduleRelease(id, followed, followed.status);
        return;
      }
    } else if (working && !WORKING.has(followed.status ?? '')) {
      followed.status = 'running';
    }
    if (!working) return;
    followed.stale = followed.lease.feed.current.executionStatus;
    followed.expectRun = true;
    // the feed says how it goes from here; if it never says anything (the call failed), take its word
    // as it stands then, quietly
    this.clearTimer(followed);
    const current = followed;
    current.releaseTimer = setTimeout(() => {
      current.releaseTimer = undefined;
      this.adopt(id, current.lease.feed.current.executionStatus);
    }, this.deps.expectRunMs ?? EXPECT_RUN_MS);
  }

  /** Takes the feed's status as it is, without a notification, and lets go when nothing is under way. */
  private adopt(id: string, status: string | undefined): void {
    const followed = this.followed.get(id);
    if (!followed) return;
    followed.stale = undefined;
    followed.expectRun = false;
    if (status !== undefined && followed.status !== status) {
      followed.status = status;
      this.changed.fire();
    }
    this.scheduleRelease(id, followed, followed.status ?? 'unknown');
  }

  private clearTimer(followed: Followed): void {
    if (followed.releaseTimer) clearTimeout(followed.releaseTimer);
    followed.releaseTimer = undefined;
  }

  /**
   * The feed is held while the agent works (or is about to: `expectRun`), and let go as soon as it
   * does not (after the listeners ran: the feed's last events are still readable for a notification).
   */
  private scheduleRelease(id: string, followed: Followed, status: string): void {
    if (WORKING.has(status)) {
      followed.expectRun = false;
      this.clearTimer(followed);
      return;
    }
    if (followed.expectRun && !DONE.has(status)) return;
    this.clearTimer(followed);
    setTimeout(() => this.release(id), 0);
  }

  private statusChanged(id: string, status: string | undefined): void {
    const followed = this.followed.get(id);
    if (!followed || status === undefined) return;
    if (followed.stale !== undefined) {
      if (status === followed.stale) return;
      followed.stale = undefined;
    }
    const previous = followed.status;
    // the same status again (any other change of the feed's state): nothing to do
    if (status === previous) return;
    followed.status = status;
    if (previous !== undefined && ATTENTION.has(status)) this.emit(id, status as AttentionStatus, followed);
    this.changed.fire();
    this.scheduleRelease(id, followed, status);
  }

  private emit(id: string, status: AttentionStatus, followed: Followed): void {
    const conversation = followed.lease.conversation ?? this.deps.store.findConversation(id);
    const secrets = [...this.deps.secrets(), ...followed.lease.feed.events.sessionKeys].filter(
      (secret): secret is string => !!secret,
    );
    const clean = (text: string) => showable(scrubSecrets(text, secrets), 200);
    const title = conversation ? conversationTitle(conversation) : `Conversation ${id.slice(0, 5)}`;
    const detail = detailOf(status, followed.lease.feed.events.events);
    this.transitioned.fire({
      conversationId: id,
      title: clean(title),
      status,
      detail: detail ? clean(detail) : undefined,
    });
  }

  private release(id: string): void {
    const followed = this.followed.get(id);
    if (!followed) return;
    this.followed.delete(id);
    this.clearTimer(followed);
    followed.subscription.dispose();
    followed.lease.dispose();
    this.settled.set(id, {
      status: followed.status,
      listed: this.deps.store.findConversation(id)?.execution_status ?? null,
    });
    this.changed.fire();
  }

  dispose(): void {
    for (const id of [...this.followed.keys()]) this.release(id);
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** What a notification says beyond the status: the agent's last message, or the error. */
function detailOf(status: AttentionStatus, events: readonly AgentEvent[]): string | undefined {
  for (let index = events.length - 1, seen = 0; index >= 0 && seen < 50; index--, seen++) {
    const event = events[index];
    if (!event) continue;
    if (status === 'error' && event.kind === 'ConversationErrorEvent') return stringOf(event['detail']);
    if (status !== 'finished') continue;
    if (event.kind === 'ActionEvent') {
      const action = event['action'];
      if (isRecord(action) && action['kind'] === 'FinishAction') return stringOf(action['message']);
    }
    if (event.kind === 'MessageEvent' && event.source === 'agent') return messageText(event);
  }
  return undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
