import * as vscode from 'vscode';
import {
  ApiError,
  collectAll,
  sameUuid,
  type AppConversation,
  type OpenHandsClient,
  type SandboxConversations,
  type SandboxInfo,
  type SandboxStatus,
  messageOf,
} from '../api';
import type { Connection } from './connection';
import { newestConversation, sandboxName } from './names';

/** A lifecycle action in flight on one sandbox, shown before the server confirms it. */
export interface SandboxTransition {
  kind: 'pausing' | 'resuming' | 'starting' | 'deleting';
  /** The status the server must report for the transition to be over (`undefined`: gone). */
  target: SandboxStatus | undefined;
  startedAt: number;
}

/** `idle`: a server is set and nothing was asked yet (no view has been visible since). */
export type LoadState = 'unconfigured' | 'idle' | 'loading' | 'ready' | 'error';

/**
 * What the views show: the last data the server gave us, whether it is stale, and the actions in
 * flight. Views render from here; only `refresh` and the lifecycle methods talk to the server.
 */
export class OpenHandsStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
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
        this.state = connection.client ? 'idle' : 'unconfigured';
        this.changed.fire();
      }),
    );
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
          if (this.newestIn(sandboxId)?.id !== before) this.changed.fire();
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
   * Reloads sandboxes and the loaded conversations. Calls while one is running collapse into a
   * single follow-up, so a burst of triggers costs at most two round trips.
   */
  refresh(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
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
      this.loadedConversationCount = this.conversations.length;
      this.changed.fire();
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
    this.changed.fire();
    await this.refresh();
  }

  /** Shows the transition at once; returns it, for `endTransition` and for its wait to know it is still its own. */
  beginTransition(sandboxId: string, transition: Omit<SandboxTransition, 'startedAt'>): SandboxTransition {
    const begun = { ...transition, startedAt: Date.now() };
    this.transitions.set(sandboxId, begun);
    this.changed.fire();
    return begun;
  }

  /** Ends this transition; a newer one on the same sandbox (a resume after a pause) stays. */
  endTransition(sandboxId: string, transition: SandboxTransition): void {
    if (this.transitions.get(sandboxId) !== transition) return;
    this.transitions.delete(sandboxId);
    this.changed.fire();
  }

  /** Puts a sandbox the server told us about (e.g. just started) into the list without a reload. */
  upsertSandbox(sandbox: SandboxInfo): void {
    const index = this.sandboxes.findIndex((existing) => existing.id === sandbox.id);
    if (index === -1) this.sandboxes = [sandbox, ...this.sandboxes];
    else this.sandboxes = this.sandboxes.map((existing, i) => (i === index ? sandbox : existing));
    this.changed.fire();
  }

  removeSandbox(sandboxId: string): void {
    this.sandboxes = this.sandboxes.filter((sandbox) => sandbox.id !== sandboxId);
    this.changed.fire();
  }

  private async load(): Promise<void> {
    const client = this.connection.client;
    if (!client) {
      this.state = 'unconfigured';
      this.changed.fire();
      return;
    }
    if (this.state === 'idle') {
      this.state = 'loading';
      this.changed.fire();
    }
    try {
      const [sandboxes, conversations] = await Promise.all([
        collectAll((pageId, signal) => client.searchSandboxes({ pageId, limit: 100 }, { signal }), {
          maxItems: 1000,
        }),
        this.loadConversations(client),
      ]);
      if (client !== this.connection.client) return; // the server changed meanwhile; drop the answer
      this.sandboxes = sandboxes;
      this.conversations = conversations.items;
      this.conversationsNextPage = conversations.next;
      this.sandboxConversations.clear();
      this.state = 'ready';
      this.lastError = undefined;
      this.lastSuccessAt = new Date();
      this.settleTransitions();
      this.changed.fire();
    } catch (error) {
      if (client !== this.connection.client) return;
      this.fail(error);
    }
  }

  /** As many conversations as the user had loaded (at least one page), newest first. */
  private async loadConversations(
    client: OpenHandsClient,
  ): Promise<{ items: AppConversation[]; next: string | null }> {
    const pageSize = this.connection.config.pageSize;
    const wanted = Math.max(pageSize, this.loadedConversationCount);
    const items: AppConversation[] = [];
    let pageId: string | undefined;
    let next: string | null = null;
    do {
      const page = await client.searchConversations({
        titleContains: this.titleFilter,
        pageId,
        limit: pageSize,
      });
      items.push(...page.items);
      next = page.next_page_id;
      pageId = next ?? undefined;
    } while (next !== null && items.length < wanted);
    return { items: dedupe(items), next };
  }

  /** A transition ends when the server reports its target status (or, for deletes, the sandbox is gone). */
  private settleTransitions(): void {
    for (const [id, transition] of this.transitions) {
      const sandbox = this.findSandbox(id);
      const reached = transition.target === undefined ? !sandbox : sandbox?.status === transition.target;
      if (reached) this.transitions.delete(id);
    }
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
    this.changed.fire();
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
