import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../api';
import type { Log } from '../core/log';
import type { ChangesNode, ConversationNode, LoadMoreNode, OpenHandsNode, SandboxNode } from './nodes';
import { lastRead, type ConversationChanges } from '../state/conversationChanges';
import type { OpenHandsStore, StoreChange } from '../state/store';
import { RowCache } from './rowCache';
import { conversationTooltip, conversationTreeItem, loadMoreTreeItem, sandboxTreeItem } from './treeItems';
import { changedFileTreeItem, changesShownKey, changesTreeItem, noticeTreeItem } from './changeTreeItems';

/** The agent's status of a conversation as the live watch knows it (fresher than the polled list). */
export interface LiveStatus {
  statusOf(conversation: AppConversation): string | null;
  onDidChange: vscode.Event<void>;
}

/**
 * Both views follow the store: a row whose data changed in place is redrawn alone (its object is
 * kept, see `RowCache`); rows that came, went or moved redraw the view. A watched conversation's
 * status and the changes lists redraw the view too.
 */
abstract class StoreTreeProvider implements vscode.TreeDataProvider<OpenHandsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OpenHandsNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    protected readonly store: OpenHandsStore,
    protected readonly live: LiveStatus | undefined,
    protected readonly changes: ConversationChanges | undefined,
  ) {
    this.subscriptions = [store.onDidChange((change) => this.storeChanged(change))];
    if (live) this.subscriptions.push(live.onDidChange(() => this.changed.fire(undefined)));
    if (changes) this.subscriptions.push(changes.onDidChange((id) => this.changesChanged(changes, id)));
  }

  /** What each conversation's Changes subtree showed when it was last redrawn (`changesShownKey`). */
  private readonly changesShown = new Map<string, string>();

  /** A conversation's changes were read: its row (and what is under it) is redrawn if it shows otherwise. */
  private changesChanged(changes: ConversationChanges, conversationId: string): void {
    const state = changes.state(conversationId);
    const key = changesShownKey(state);
    if (this.changesShown.get(conversationId) === key) return;
    if (state.kind === 'unread') this.changesShown.delete(conversationId);
    else this.changesShown.set(conversationId, key);
    const conversation = this.store.findConversation(conversationId);
    const rows = conversation ? this.rowsOf({ conversations: [conversation], sandboxes: [] }) : [];
    if (rows.length) this.changed.fire(rows);
  }

  private storeChanged(change: StoreChange): void {
    if (!change.rows) {
      this.changed.fire(undefined);
      return;
    }
    const rows = this.rowsOf(change.rows);
    if (rows.length) this.changed.fire(rows);
  }

  /** The rows shown for what changed in place (none when they are not shown). */
  protected abstract rowsOf(changed: NonNullable<StoreChange['rows']>): OpenHandsNode[];

  protected conversationItem(node: ConversationNode): vscode.TreeItem {
    const status = this.live ? this.live.statusOf(node.conversation) : node.conversation.execution_status;
    const item = conversationTreeItem(node, this.store.stale, status);
    if (this.changes) item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    return item;
  }

  /** Rows under a conversation ("Changes") and under its "Changes" (the files); undefined for others. */
  protected changeRows(element: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> | undefined {
    const changes = this.changes;
    if (!changes) return undefined;
    if (element.kind === 'conversation')
      return [{ kind: 'changes', conversation: element.conversation, underSandbox: element.underSandbox }];
    if (element.kind !== 'changes') return undefined;
    const state = changes.state(element.conversation.id);
    if (state.kind === 'unread' || (state.kind === 'loading' && !state.previous))
      return changes.ensure(element.conversation.id).then(() => changeChildren(changes, element));
    return changeChildren(changes, element);
  }

  protected itemOf(node: OpenHandsNode): vscode.TreeItem | undefined {
    switch (node.kind) {
      case 'conversation':
        return this.conversationItem(node);
      case 'changes':
        return changesTreeItem(node, this.changes?.state(node.conversation.id) ?? { kind: 'unread' });
      case 'changedFile':
        return changedFileTreeItem(node);
      case 'notice':
        return noticeTreeItem(node);
      default:
        return undefined;
    }
  }

  abstract getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]>;
  abstract getTreeItem(node: OpenHandsNode): vscode.TreeItem;

  /** A conversation's tooltip, when the pointer rests on its row. */
  resolveTreeItem(item: vscode.TreeItem, node: OpenHandsNode): vscode.TreeItem {
    if (node.kind === 'conversation' && item.tooltip === undefined)
      item.tooltip = conversationTooltip(node.conversation);
    return item;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

/** Sandboxes, each with the conversations that run in it as children. */
export class SandboxTreeProvider extends StoreTreeProvider {
  private readonly sandboxRows = new RowCache<SandboxNode>();
  /** Per sandbox shown, its conversation rows. */
  private readonly conversationRows = new Map<string, RowCache<ConversationNode>>();

  constructor(
    store: OpenHandsStore,
    private readonly log: Log,
    live?: LiveStatus,
    changes?: ConversationChanges,
  ) {
    super(store, live, changes);
  }

  getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> {
    if (!element) {
      const rows = this.sandboxRows.sync(
        this.store.sandboxes,
        (sandbox) => sandbox.id,
        (sandbox): SandboxNode => ({ kind: 'sandbox', sandbox }),
        (row, sandbox) => (row.sandbox = sandbox),
      );
      for (const id of this.conversationRows.keys())
        if (!this.sandboxRows.get(id)) this.conversationRows.delete(id);
      return rows;
    }
    const changeRows = this.changeRows(element);
    if (changeRows) return changeRows;
    if (element.kind !== 'sandbox') return [];
    const sandboxId = element.sandbox.id;
    // from the loaded list when it is complete, else asked of the server (one page loaded, or a title filter)
    return this.store.conversationsOfSandbox(sandboxId).then(
      (result) => this.conversationNodes(result.items, sandboxId),
      (error: unknown) => {
        this.log.warn(`Listing the conversations of sandbox ${sandboxId} failed: ${messageOf(error)}`);
        return this.conversationNodes(this.store.conversationsIn(sandboxId), sandboxId);
      },
    );
  }

  protected rowsOf(changed: NonNullable<StoreChange['rows']>): OpenHandsNode[] {
    const rows = new Set<OpenHandsNode>();
    for (const sandbox of changed.sandboxes) {
      const row = this.sandboxRows.get(sandbox.id);
      if (!row) continue;
      row.sandbox = sandbox;
      rows.add(row);
    }
    for (const conversation of changed.conversations) {
      const row = this.conversationRows.get(conversation.sandbox_id)?.get(conversation.id);
      if (row) {
        row.conversation = conversation;
        rows.add(row);
      }
      // the sandbox is named after its newest conversation
      const parent = this.sandboxRows.get(conversation.sandbox_id);
      if (parent) rows.add(parent);
    }
    return [...rows];
  }

  private conversationNodes(
    conversations: readonly AppConversation[],
    sandboxId: string,
  ): ConversationNode[] {
    let cache = this.conversationRows.get(sandboxId);
    if (!cache) this.conversationRows.set(sandboxId, (cache = new RowCache<ConversationNode>()));
    return cache.sync(
      conversations,
      (conversation) => conversation.id,
      (conversation): ConversationNode => ({ kind: 'conversation', conversation, underSandbox: sandboxId }),
      (row, conversation) => (row.conversation = conversation),
    );
  }

  getTreeItem(node: OpenHandsNode): vscode.TreeItem {
    if (node.kind === 'sandbox') {
      const transition = this.store.transitions.get(node.sandbox.id);
      // with a partial list the count is unknown until the sandbox is expanded
      const count = this.store.hasAllConversations
        ? this.store.conversationsIn(node.sandbox.id).length
        : undefined;
      return sandboxTreeItem(
        node,
        this.store.sandboxName(node.sandbox.id),
        transition,
        count,
        this.store.stale,
      );
    }
    return this.itemOf(node) ?? loadMoreTreeItem();
  }

  getParent(node: OpenHandsNode): OpenHandsNode | undefined {
    if (node.kind === 'changes')
      return { kind: 'conversation', conversation: node.conversation, underSandbox: node.underSandbox };
    if (node.kind === 'changedFile')
      return { kind: 'changes', conversation: node.conversation, underSandbox: node.underSandbox };
    if (node.kind !== 'conversation' || !node.underSandbox) return undefined;
    const row = this.sandboxRows.get(node.underSandbox);
    if (row) return row;
    const sandbox = this.store.findSandbox(node.underSandbox);
    return sandbox ? { kind: 'sandbox', sandbox } : undefined;
  }
}

/** Conversations newest first (the server's order), with a "Load more…" row while pages remain. */
export class ConversationTreeProvider extends StoreTreeProvider {
  private readonly rows = new RowCache<ConversationNode>();
  private readonly loadMore: LoadMoreNode = { kind: 'loadMore' };

  constructor(store: OpenHandsStore, live?: LiveStatus, changes?: ConversationChanges) {
    super(store, live, changes);
  }

  protected rowsOf(changed: NonNullable<StoreChange['rows']>): OpenHandsNode[] {
    const rows: OpenHandsNode[] = [];
    for (const conversation of changed.conversations) {
      const row = this.rows.get(conversation.id);
      if (!row) continue;
      row.conversation = conversation;
      rows.push(row);
    }
    return rows;
  }

  /** The rows (synchronous: the loaded list); under a row, its changes (read when first expanded). */
  getChildren(): OpenHandsNode[];
  getChildren(element: OpenHandsNode | undefined): OpenHandsNode[] | Promise<OpenHandsNode[]>;
  getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> {
    if (element) return this.changeRows(element) ?? [];
    const rows: OpenHandsNode[] = this.rows.sync(
      this.store.conversations,
      (conversation) => conversation.id,
      (conversation): ConversationNode => ({ kind: 'conversation', conversation }),
      (row, conversation) => (row.conversation = conversation),
    );
    if (this.store.conversationsNextPage !== null && rows.length > 0) rows.push(this.loadMore);
    return rows;
  }

  getTreeItem(node: OpenHandsNode): vscode.TreeItem {
    return this.itemOf(node) ?? loadMoreTreeItem();
  }

  getParent(node: OpenHandsNode): OpenHandsNode | undefined {
    if (node.kind === 'changes') return { kind: 'conversation', conversation: node.conversation };
    if (node.kind === 'changedFile') return { kind: 'changes', conversation: node.conversation };
    return undefined;
  }
}

/** The files of a conversation's change, or a line saying why there are none. */
function changeChildren(changes: ConversationChanges, node: ChangesNode): OpenHandsNode[] {
  const state = changes.state(node.conversation.id);
  const id = `${node.underSandbox ?? ''}/conversation/${node.conversation.id}/changes/notice`;
  const set = lastRead(state);
  const rows: OpenHandsNode[] = [];
  if (state.kind === 'failed')
    rows.push({ kind: 'notice', id, text: state.message, icon: state.offline ? 'debug-pause' : 'warning' });
  else if (set && set.files.length === 0)
    rows.push({ kind: 'notice', id, text: vscode.l10n.t('The agent has not changed any file yet.') });
  for (const change of set?.files ?? [])
    rows.push({
      kind: 'changedFile',
      conversation: node.conversation,
      change,
      version: set?.version ?? 0,
      underSandbox: node.underSandbox,
    });
  return rows;
}
