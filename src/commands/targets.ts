import * as vscode from 'vscode';
import type { AppConversation, SandboxInfo } from '../api';
import type { Connection } from '../state/connection';
import { conversationTitle, shortSpec } from '../state/names';
import type { OpenHandsNode } from '../views/nodes';
import { sandboxStatusStyle } from '../views/statusStyle';
import type { OpenHandsStore } from '../state/store';

/** What a command may be handed: a tree row, an id string (keybindings, links, other extensions), or nothing. */
export type CommandTarget = OpenHandsNode | string | undefined;

/**
 * Resolves a sandbox argument. An id is looked up in the views' data and then on the server, and
 * acted on without prompting; with no argument a quick pick offers the sandboxes `eligible` allows.
 */
export async function resolveSandbox(
  target: CommandTarget,
  store: OpenHandsStore,
  connection: Connection,
  pick: { title: string; eligible: (sandbox: SandboxInfo) => boolean; none: string },
): Promise<SandboxInfo | undefined> {
  if (typeof target === 'object' && target.kind === 'sandbox') return target.sandbox;
  if (typeof target === 'object' && target.kind === 'conversation')
    return sandboxById(target.conversation.sandbox_id, store, connection);
  if (typeof target === 'string') return sandboxById(target, store, connection);
  if (store.sandboxes.length === 0) await store.refresh();
  const candidates = store.sandboxes.filter(pick.eligible);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(pick.none);
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(
    candidates.map((sandbox) => ({
      label: store.sandboxName(sandbox.id),
      description: `${sandboxStatusStyle(sandbox.status).label} · ${shortSpec(sandbox.sandbox_spec_id)}`,
      detail: describeConversations(store.conversationsIn(sandbox.id)),
      sandbox,
    })),
    { title: pick.title, placeHolder: vscode.l10n.t('Choose a sandbox'), matchOnDescription: true },
  );
  return chosen?.sandbox;
}

async function sandboxById(
  id: string,
  store: OpenHandsStore,
  connection: Connection,
): Promise<SandboxInfo | undefined> {
  const known = store.findSandbox(id);
  if (known) return known;
  const [fetched] = await connection.requireClient().getSandboxes([id]);
  if (!fetched)
    throw new Error(vscode.l10n.t('No sandbox with id {0} on {1}.', id, connection.config.rawServerUrl));
  return fetched;
}

export async function resolveConversation(
  target: CommandTarget,
  store: OpenHandsStore,
  connection: Connection,
  title: string = vscode.l10n.t('Open Conversation'),
): Promise<AppConversation | undefined> {
  if (
    typeof target === 'object' &&
    (target.kind === 'conversation' || target.kind === 'changes' || target.kind === 'changedFile')
  )
    return target.conversation;
  if (typeof target === 'string') {
    const known = store.findConversation(target);
    if (known) return known;
    const [fetched] = await connection.requireClient().getConversations([target]);
    if (!fetched)
      throw new Error(
        vscode.l10n.t('No conversation with id {0} on {1}.', target, connection.config.rawServerUrl),
      );
    return fetched;
  }
  if (store.conversations.length === 0) await store.refresh();
  // the most recently active first
  const recent = [...store.conversations].sort((a, b) =>
    (b.updated_at ?? b.created_at ?? '').localeCompare(a.updated_at ?? a.created_at ?? ''),
  );
  const chosen = await vscode.window.showQuickPick(
    recent.map((conversation) => ({
      label: conversationTitle(conversation),
      description: conversation.selected_repository ?? undefined,
      detail: conversation.id,
      conversation,
    })),
    // a webview taking the focus back as the palette closes must not close the pick
    { title, matchOnDetail: true, ignoreFocusOut: true },
  );
  return chosen?.conversation;
}

export function describeConversations(conversations: AppConversation[]): string | undefined {
  if (conversations.length === 0) return undefined;
  const names = conversations.slice(0, 3).map((c) => `“${conversationTitle(c)}”`);
  const more = conversations.length > 3 ? vscode.l10n.t(' and {0} more', conversations.length - 3) : '';
  return names.join(', ') + more;
}
