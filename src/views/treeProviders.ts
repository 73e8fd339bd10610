import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../api';
import type { Log } from '../core/log';
import type { ChangesNode, ConversationNode, OpenHandsNode, SandboxNode } from './nodes';
import type { ConversationChanges } from '../state/conversationChanges';
import type { OpenHandsStore } from '../state/store';
import { conversationTreeItem, loadMoreTreeItem, sandboxTreeItem } from './treeItems';
import { changedFileTreeItem, changesTreeItem, noticeTreeItem } from './changeTreeItems';

/** The agent's status of a conversation as the live watch knows it (fresher than the polled list). */
export interface LiveStatus {
  statusOf(conversation: AppConversation): string | null;
  onDidChange: vscode.Event<void>;
}

/** Both views redraw whenever the store or a watched conversation's status changes. */
abstract class StoreTreeProvider implements vscode.TreeDataProvider<OpenHandsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    protected readonly store: OpenHandsStore,
    protected readonly live: LiveStatus | undefined,
    protected readonly changes: ConversationChanges | undefined,
  ) {
    this.subscriptions = [store.onDidChange(() => this.changed.fire())];
    if (live) this.subscriptions.push(live.onDidChange(() => this.changed.fire()));
    if (changes) this.subscriptions.push(changes.onDidChange(() => this.changed.fire()));
  }

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

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

/** Sandboxes, each with the conversations that run in it as children. */
export class SandboxTreeProvider extends StoreTreeProvider {
  constructor(
    store: OpenHandsStore,
    private readonly log: Log,
    live?: LiveStatus,
    changes?: ConversationChanges,
  ) {
    super(store, live, changes);
  }

  getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> {
    if (!element) return this.store.sandboxes.map((sandbox): SandboxNode => ({ kind: 'sandbox', sandbox }));
    const changeRows = this.changeRows(element);
    if (changeRows) return changeRows;
    if (element.kind !== 'sandbox') return [];
    const sandboxId = element.sandbox.id;
    // from the loaded list when it is complete, else asked of the server (one page loaded, or a title filter)
    return this.store.conversationsOfSandbox(sandboxId).then(
      (result) => conversationNodes(result.items, sandboxId),
      (error: unknown) => {
        this.log.warn(`Listing the conversations of sandbox ${sandboxId} failed: ${messageOf(error)}`);
        return conversationNodes(this.store.conversationsIn(sandboxId), sandboxId);
      },
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
    const sandbox = this.store.findSandbox(node.underSandbox);
    return sandbox ? { kind: 'sandbox', sandbox } : undefined;
  }
}

/** Conversations newest first (the server's order), with a "Load more…" row while pages remain. */
export class ConversationTreeProvider extends StoreTreeProvider {
  constructor(store: OpenHandsStore, live?: LiveStatus, changes?: ConversationChanges) {
    super(store, live, changes);
  }

  /** The rows (synchronous: the loaded list); under a row, its changes (read when first expanded). */
  getChildren(): OpenHandsNode[];
  getChildren(element: OpenHandsNode | undefined): OpenHandsNode[] | Promise<OpenHandsNode[]>;
  getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> {
    if (element) return this.changeRows(element) ?? [];
    const rows: OpenHandsNode[] = this.store.conversations.map((conversation) => ({
      kind: 'conversation',
      conversation,
    }));
    if (this.store.conversationsNextPage !== null && rows.length > 0) rows.push({ kind: 'loadMore' });
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
  const set = state.kind === 'ready' ? state.set : state.kind === 'unread' ? undefined : state.previous;
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

function conversationNodes(conversations: readonly AppConversation[], sandboxId: string): ConversationNode[] {
  return conversations.map((conversation) => ({
    kind: 'conversation',
    conversation,
    underSandbox: sandboxId,
  }));
}
