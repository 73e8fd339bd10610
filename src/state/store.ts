import * as vscode from 'vscode';
import {
  ApiError,
  sameUuid,
  type AppConversation,
  type SandboxConversations,
  type SandboxInfo,
  type SandboxStatus,
  messageOf,
} from '../api';
import { onDidLearnAskedWords } from './askedWords';
import { onDidChangeModelFailure } from './modelFailures';
import type { Connection } from './connection';
import { sameJson } from './conversationMerge';
import type { CountMark } from './goneCheck';
import { newestUpdate, refreshLists, type LoadedLists } from './listRefresh';
import { newestConversation, sandboxName } from './names';

/** A lifecycle action in flight on one sandbox, shown before the server confirms it. */
export interface SandboxTransition {
  kind: 'pausing' | 'resuming' | 'starting' | 'deleting';
  /** The status the server must report for the transition to be over (`undefined`: gone). */
  target: SandboxStatus | undefined;
  startedAt: number;
}

/**
 * What one change of the store touched, so a view redraws only that. `rows` unset: anything may have
 * changed (rows added, removed or moved, the load state, staleness).
 */
export interface StoreChange {
  readonly rows?: {
    /** Conversations whose data changed in place (the new objects). */
    readonly conversations: readonly AppConversation[];
    /** Sandboxes whose data or transition changed in place. */
    readonly sandboxes: readonly SandboxInfo[];
  };
}

const EVERYTHING: StoreChange = {};

/** `idle`: a server is set and nothing was asked yet (no view has been visible since). */
export type LoadState = 'unconfigured' | 'idle' | 'loading' | 'ready' | 'error';

/**
 * What the views show: the last data the server gave us, whether it is stale, and the actions in
 * flight. Views render from here; only `refresh` and the lifecycle methods talk to the server.
 */
export class OpenHandsStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<StoreChange>();
  /** Fired only when something changed: a refresh that finds nothing new fires nothing. */
  readonly onDidChange = this.changed.event;

  sandboxes: SandboxInfo[] = [];
  conversations: AppConversation[] = [];
  /** `next_page_id` after the loaded conversations; null when all are loaded. */
  conversationsNextPage: string | null = null;
  titleFilter: string | undefined;
  state: LoadState = 'idle';
  lastError: ApiError | undefined;
  lastSuccessAt: Date | undefined;
  readonly transitions = new Map<string, SandboxTransition>();

  private inFlight: Promise<void> | undefined;
  private again = false;
  private fullWanted = false;
  /** The list version whose conversations were read in full: only then can a refresh read just what changed. */
  private fullyReadVersion = -1;
  /** The newest `updated_at` (ms) any reply carried: a refresh asks only for what changed since. */
  private updatedMark = 0;
  /** What the server counted at the last full read: the Refresh command holds its count against it. */
  private countMark: CountMark | undefined;
  private loadedConversationCount = 0;
  /** Changes whenever the conversation list starts over (another server or filter), so late pages are dropped. */
  private conversationListVersion = 0;
  /** Per-sandbox lists asked of the server since the last refresh (when the loaded list is partial). */
  private readonly sandboxConversations = new Map<string, Promise<SandboxConversations>>();
  /** The newest conversation each per-sandbox list brought (kept across refreshes, for the sandbox's name). */
  private readonly newestAsked = new Map<string, AppConversation>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly connection: Connection) {
    this.disposables.push(
      connection.onDidChange(() => {
        // a different server or key: the old data says nothing about the new one
        this.sandboxes = [];
        this.conversations = [];
        this.conversationsNextPage = null;
        this.loadedConversationCount = 0;
        this.conversationListVersion++;
        this.sandboxConversations.clear();
        this.newestAsked.clear();
        this.transitions.clear();
        this.lastError = undefined;
        this.lastSuccessAt = undefined;
        this.updatedMark = 0;
        this.countMark = undefined;
        this.state = connection.client ? 'idle' : 'unconfigured';
        this.changed.fire(EVERYTHING);
      }),
      // what the user asked names an untitled conversation (and its sandbox): redraw those rows
      onDidLearnAskedWords((id) => this.redrawConversation(id)),
      // a model failure learnt or gone: the row says it
      onDidChangeModelFailure((id) => this.redrawConversation(id)),
    );
  }

  /** A conversation's row (and its sandbox's) shows something new of it: redraw those rows. */
  private redrawConversation(id: string): void {
    const conversation = this.findConversation(id);
    if (!conversation) return;
    const sandbox = this.findSandbox(conversation.sandbox_id);
    this.changed.fire({ rows: { conversations: [conversation], sandboxes: sandbox ? [sandbox] : [] } });
  }

  /** Data from an earlier success is still shown while the server cannot be reached. */
  get stale(): boolean {
    return this.state === 'error' && this.lastSuccessAt !== undefined;
  }

  get busy(): boolean {
    return this.transitions.size > 0 || this.sandboxes.some((sandbox) => sandbox.status === 'STARTING');
  }

  /** Every conversation is loaded: no title filter, no page left. */
  get hasAllConversations(): boolean {
    return this.titleFilter === undefined && this.conversationsNextPage === null;
  }

  /** The loaded conversations in this sandbox; all of them only when `hasAllConversations`. */
  conversationsIn(sandboxId: string): AppConversation[] {
    return this.conversations.filter((conversation) => conversation.sandbox_id === sandboxId);
  }

  /**
   * All conversations in this sandbox: from the loaded list when it is complete, otherwise asked of
   * the server, at most once per refresh for each sandbox.
   */
  conversationsOfSandbox(sandboxId: string): Promise<SandboxConversations> {
    const client = this.connection.client;
    if (this.hasAllConversations || !client) {
      return Promise.resolve({ items: this.conversationsIn(sandboxId), complete: this.hasAllConversations });
    }
    let pending = this.sandboxConversations.get(sandboxId);
    if (!pending) {
      pending = client.listSandboxConversations(sandboxId);
      this.sandboxConversations.set(sandboxId, pending);
      // a failure is not remembered: the next look asks again
      const asked = pending;
      const version = this.conversationListVersion;
      asked.then(
        (result) => {
          if (this.sandboxConversations.get(sandboxId) !== asked || version !== this.conversationListVersion)
            return;
          // the sandbox's name follows its newest conversation, also one beyond the loaded page
          const before = this.newestIn(sandboxId)?.id;
          const newest = newestConversation(result.items);
          if (newest) this.newestAsked.set(sandboxId, newest);
          else if (result.complete) this.newestAsked.delete(sandboxId);
          if (this.newestIn(sandboxId)?.id !== before) this.changed.fire(EVERYTHING);
        },
        () => {
          if (this.sandboxConversations.get(sandboxId) === asked) this.sandboxConversations.delete(sandboxId);
        },
      );
    }
    return pending;
  }

  /** The newest conversation known to run in this sandbox: in the loaded list, or in its own list once asked. */
  newestIn(sandboxId: string): AppConversation | undefined {
    const known = this.conversationsIn(sandboxId);
    const asked = this.hasAllConversations ? undefined : this.newestAsked.get(sandboxId);
    return newestConversation(asked ? [...known, asked] : known);
  }

  /** What a sandbox is called wherever it is shown: its newest conversation's title, else a readable name. */
  sandboxName(sandboxId: string): string {
    return sandboxName(sandboxId, this.newestIn(sandboxId));
  }

  findSandbox(id: string): SandboxInfo | undefined {
    return this.sandboxes.find((sandbox) => sandbox.id === id);
  }

  findConversation(id: string): AppConversation | undefined {
    return this.conversations.find((conversation) => sameUuid(conversation.id, id));
  }

  /**
   * Brings the views up to date. After a full read, only what can have changed is asked: the
   * sandboxes, the newest page, the conversations updated since the last reply, and the loaded
   * conversations of a sandbox whose status changed. `full` (the Refresh command) also makes a
   * conversation deleted elsewhere go, which in a list longer than the newest page only the server's
   * count or a read of the whole list can tell: the count, and the whole list when it does not say
   * that nothing went (`goneCheck.ts`). Calls while one is running collapse into a single follow-up,
   * so a burst of triggers costs at most two rounds.
   */
  refresh(options: { full?: boolean } = {}): Promise<void> {
    if (options.full) this.fullWanted = true;
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      try {
        do {
          this.again = false;
          const full = this.fullyReadVersion !== this.conversationListVersion;
          const verify = this.fullWanted;
          this.fullWanted = false;
          await this.load(full, verify);
        } while (this.again);
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  async loadMoreConversations(): Promise<void> {
    const client = this.connection.client;
    if (!client || this.conversationsNextPage === null) return;
    const version = this.conversationListVersion;
    try {
      const page = await client.searchConversations({
        titleContains: this.titleFilter,
        pageId: this.conversationsNextPage,
        limit: this.connection.config.pageSize,
      });
      // the list started over meanwhile (another server or filter): this page belongs to neither
      if (version !== this.conversationListVersion) return;
      this.conversations = dedupe([...this.conversations, ...page.items]);
      this.conversationsNextPage = page.next_page_id;
      this.updatedMark = newestUpdate(this.updatedMark, page.items);
      this.loadedConversationCount = this.conversations.length;
      this.changed.fire(EVERYTHING);
    } catch (error) {
      if (version !== this.conversationListVersion) return;
      this.fail(error);
      throw error;
    }
  }

  async setTitleFilter(filter: string | undefined): Promise<void> {
    this.titleFilter = filter?.trim() || undefined;
    this.loadedConversationCount = 0;
    this.conversationListVersion++;
    this.conversations = [];
    this.conversationsNextPage = null;
    this.countMark = undefined;
    this.sandboxConversations.clear();
    this.changed.fire(EVERYTHING);
    await this.refresh();
  }

  /** Shows the transition at once; returns it, for `endTransition` and for its wait to know it is still its own. */
  beginTransition(sandboxId: string, transition: Omit<SandboxTransition, 'startedAt'>): SandboxTransition {
    const begun = { ...transition, startedAt: Date.now() };
    this.transitions.set(sandboxId, begun);
    this.fireSandboxRow(sandboxId);
    return begun;
  }

  /** Ends this transition; a newer one on the same sandbox (a resume after a pause) stays. */
  endTransition(sandboxId: string, transition: SandboxTransition): void {
    if (this.transitions.get(sandboxId) !== transition) return;
    this.transitions.delete(sandboxId);
    this.fireSandboxRow(sandboxId);
  }

  /** Puts a sandbox the server told us about (e.g. just started) into the list without a reload. */
  upsertSandbox(sandbox: SandboxInfo): void {
    const index = this.sandboxes.findIndex((existing) => existing.id === sandbox.id);
    if (index !== -1 && sameJson(this.sandboxes[index], sandbox)) return;
    if (index === -1) this.sandboxes = [sandbox, ...this.sandboxes];
    else this.sandboxes = this.sandboxes.map((existing, i) => (i === index ? sandbox : existing));
    if (index === -1) this.changed.fire(EVERYTHING);
    else this.fireSandboxRow(sandbox.id);
  }

  /**
   * Puts a conversation the server just answered (renamed) in place of the one held, without waiting
   * for a poll: its row, its sandbox's row and an open panel follow at once.
   */
  replaceConversation(conversation: AppConversation): void {
    const index = this.conversations.findIndex((existing) => sameUuid(existing.id, conversation.id));
    if (index === -1) return;
    // the server's reply to a PATCH carries what a list reply does; keep what only the list knew
    const merged = { ...this.conversations[index], ...conversation };
    this.conversations = this.conversations.map((existing, i) => (i === index ? merged : existing));
    this.redrawConversation(merged.id);
  }

  /** A conversation the server deleted: its row leaves now (a poll in flight reads again). */
  removeConversation(conversationId: string): void {
    const before = this.conversations.length;
    this.conversations = this.conversations.filter((existing) => !sameUuid(existing.id, conversationId));
    if (this.conversations.length === before) return;
    this.loadedConversationCount = Math.max(0, this.loadedConversationCount - 1);
    this.sandboxConversations.clear();
    this.changed.fire(EVERYTHING);
  }

  removeSandbox(sandboxId: string): void {
    this.sandboxes = this.sandboxes.filter((sandbox) => sandbox.id !== sandboxId);
    this.changed.fire(EVERYTHING);
  }

  /** `full`: the whole list is read; `verify`: what changed, and the whole list only when something may have gone. */
  private async load(full: boolean, verify: boolean): Promise<void> {
    const client = this.connection.client;
    if (!client) {
      this.setState('unconfigured');
      return;
    }
    if (this.state === 'idle') this.setState('loading');
    const version = this.conversationListVersion;
    const pageSize = this.connection.config.pageSize;
    const base = this.conversations;
    try {
      const { lists, changedRows } = await refreshLists(client, this.lists, {
        full,
        verify,
        titleFilter: this.titleFilter,
        pageSize,
        wanted: Math.max(pageSize, this.loadedConversationCount),
      });
      // the server, filter or list changed meanwhile: the answer belongs to none of them
      if (client !== this.connection.client || version !== this.conversationListVersion) return;
      // "Load more" added rows meanwhile: this answer lacks them, so ask again from the longer list
      if (this.conversations !== base) {
        this.again = true;
        return;
      }
      const wasShown = this.state === 'ready';
      const settled = this.settleTransitions(lists.sandboxes);
      const changed = lists.conversations !== this.conversations || lists.sandboxes !== this.sandboxes;
      this.sandboxes = lists.sandboxes as SandboxInfo[];
      this.conversations = lists.conversations as AppConversation[];
      this.conversationsNextPage = lists.next;
      this.updatedMark = lists.updatedMark;
      this.countMark = lists.countMark;
      this.loadedConversationCount = Math.max(this.loadedConversationCount, this.conversations.length);
      this.state = 'ready';
      this.lastError = undefined;
      this.lastSuccessAt = new Date();
      if (full) this.fullyReadVersion = version;
      if (changed) this.sandboxConversations.clear();
      if (!changedRows || !wasShown) {
        this.changed.fire(EVERYTHING);
        return;
      }
      const sandboxes = [...changedRows.sandboxes];
      for (const id of settled) {
        const sandbox = this.findSandbox(id);
        if (sandbox && !sandboxes.includes(sandbox)) sandboxes.push(sandbox);
      }
      if (changedRows.conversations.length || sandboxes.length)
        this.changed.fire({ rows: { conversations: changedRows.conversations, sandboxes } });
    } catch (error) {
      if (client !== this.connection.client || version !== this.conversationListVersion) return;
      this.fail(error);
    }
  }

  private get lists(): LoadedLists {
    return {
      sandboxes: this.sandboxes,
      conversations: this.conversations,
      next: this.conversationsNextPage,
      updatedMark: this.updatedMark,
      ...(this.countMark ? { countMark: this.countMark } : {}),
    };
  }

  private fireSandboxRow(sandboxId: string): void {
    const sandbox = this.findSandbox(sandboxId);
    this.changed.fire(sandbox ? { rows: { conversations: [], sandboxes: [sandbox] } } : EVERYTHING);
  }

  private setState(state: LoadState): void {
    if (this.state === state) return;
    this.state = state;
    this.changed.fire(EVERYTHING);
  }

  /** A transition ends when the server reports its target status (or, for deletes, the sandbox is gone). */
  private settleTransitions(sandboxes: readonly SandboxInfo[]): Set<string> {
    const settled = new Set<string>();
    for (const [id, transition] of this.transitions) {
      const sandbox = sandboxes.find((candidate) => candidate.id === id);
      const reached = transition.target === undefined ? !sandbox : sandbox?.status === transition.target;
      if (reached) {
        this.transitions.delete(id);
        settled.add(id);
      }
    }
    return settled;
  }

  private fail(error: unknown): void {
    this.lastError =
      error instanceof ApiError
        ? error
        : new ApiError({
            kind: 'invalid_response',
            message: messageOf(error),
          });
    this.state = 'error';
    this.changed.fire(EVERYTHING);
  }

  dispose(): void {
    this.changed.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

function dedupe(conversations: AppConversation[]): AppConversation[] {
  const seen = new Set<string>();
  return conversations.filter((conversation) => !seen.has(conversation.id) && seen.add(conversation.id));
}
