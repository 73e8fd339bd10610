import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../api';
import type { Log } from '../core/log';
import type { ConversationNode, OpenHandsNode, SandboxNode } from './nodes';
import type { OpenHandsStore } from '../state/store';
import { conversationTreeItem, loadMoreTreeItem, sandboxTreeItem } from './treeItems';

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
  ) {
    this.subscriptions = [store.onDidChange(() => this.changed.fire())];
    if (live) this.subscriptions.push(live.onDidChange(() => this.changed.fire()));
  }

  protected conversationItem(node: ConversationNode): vscode.TreeItem {
    const status = this.live ? this.live.statusOf(node.conversation) : node.conversation.execution_status;
    return conversationTreeItem(node, this.store.stale, status);
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
  ) {
    super(store, live);
  }

  getChildren(element?: OpenHandsNode): OpenHandsNode[] | Promise<OpenHandsNode[]> {
    if (!element) return this.store.sandboxes.map((sandbox): SandboxNode => ({ kind: 'sandbox', sandbox }));
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
      return sandboxTreeItem(node, transition, count, this.store.stale);
    }
    if (node.kind === 'conversation') return this.conversationItem(node);
    return loadMoreTreeItem();
  }

  getParent(node: OpenHandsNode): OpenHandsNode | undefined {
    if (node.kind !== 'conversation' || !node.underSandbox) return undefined;
    const sandbox = this.store.findSandbox(node.underSandbox);
    return sandbox ? { kind: 'sandbox', sandbox } : undefined;
  }
}

/** Conversations newest first (the server's order), with a "Load more…" row while pages remain. */
export class ConversationTreeProvider extends StoreTreeProvider {
  constructor(store: OpenHandsStore, live?: LiveStatus) {
    super(store, live);
  }

  getChildren(element?: OpenHandsNode): OpenHandsNode[] {
    if (element) return [];
    const rows: OpenHandsNode[] = this.store.conversations.map((conversation) => ({
      kind: 'conversation',
      conversation,
    }));
    if (this.store.conversationsNextPage !== null && rows.length > 0) rows.push({ kind: 'loadMore' });
    return rows;
  }

  getTreeItem(node: OpenHandsNode): vscode.TreeItem {
    if (node.kind === 'conversation') return this.conversationItem(node);
    return loadMoreTreeItem();
  }

  getParent(): undefined {
    return undefined;
  }
}

function conversationNodes(conversations: readonly AppConversation[], sandboxId: string): ConversationNode[] {
  return conversations.map((conversation) => ({
    kind: 'conversation',
    conversation,
    underSandbox: sandboxId,
  }));
}
