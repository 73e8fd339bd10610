import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenHandsExtensionApi } from '../../src/extension';
import type { AppConversation } from '../../src/api';
import { conversationTitle, readableSandboxName } from '../../src/state/names';
import type { OpenHandsNode } from '../../src/views/nodes';
import { setSetting, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { openHandsExtension } from './manifest';
import { server } from './serverControl';

function iconId(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

async function sandboxNodes(api: OpenHandsExtensionApi): Promise<OpenHandsNode[]> {
  return (await api.sandboxesProvider.getChildren()).filter((node) => node.kind === 'sandbox');
}

type ConversationRow = Pick<
  AppConversation,
  'id' | 'sandbox_id' | 'title' | 'created_at' | 'selected_repository' | 'selected_branch'
>;

/** What the sandbox row must read, from the server's conversations: its newest one's title, or a readable name. */
function expectedSandboxName(sandboxId: string, conversations: ConversationRow[]): string {
  const newest = conversations
    .filter((c) => c.sandbox_id === sandboxId)
    .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? ''))[0];
  return newest ? conversationTitle(newest as AppConversation) : readableSandboxName(sandboxId);
}

/** Every top-level conversation, read straight from the server (the ground truth). */
async function allConversations(serverUrl: string): Promise<ConversationRow[]> {
  const rows: ConversationRow[] = [];
  let pageId: string | null = null;
  do {
    const query: string = pageId ? `&page_id=${encodeURIComponent(pageId)}` : '';
    const page = (await (
      await fetch(`${serverUrl}/api/v1/app-conversations/search?limit=100${query}`)
    ).json()) as { items: ConversationRow[]; next_page_id: string | null };
    rows.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId);
  return rows;
}

describe('sidebar: tree data in a real VS Code', () => {
  const t = useFreshExtension();

  it('lists every sandbox of the server with a status icon, description and tooltip', async () => {
    const fromServer = (await (
      await fetch(`${t.api.connection.config.serverUrl}/api/v1/sandboxes/search`)
    ).json()) as {
      items: { id: string; status: string }[];
    };
    const nodes = await sandboxNodes(t.api);
    assert.equal(nodes.length, fromServer.items.length);
    for (const node of nodes) {
      if (node.kind !== 'sandbox') continue;
      const item = t.api.sandboxesProvider.getTreeItem(node);
      assert.equal(item.id, `sandbox/${node.sandbox.id}`);
      assert.ok(String(item.description).length > 0);
      assert.ok(item.tooltip instanceof vscode.MarkdownString);
      assert.match((item.tooltip as vscode.MarkdownString).value, new RegExp(node.sandbox.id));
      const icons: Record<string, string> = {
        RUNNING: 'vm-running',
        PAUSED: 'debug-pause',
        ERROR: 'error',
        STARTING: 'loading~spin',
        MISSING: 'question',
      };
      const expectedIcon = icons[node.sandbox.status];
      assert.equal(iconId(item), expectedIcon, `icon for ${node.sandbox.status}`);
      assert.match(item.contextValue ?? '', new RegExp(`^sandbox\\.${node.sandbox.status.toLowerCase()}`));
    }
  });

  it('names a sandbox by what runs in it: its newest conversation, its spec short; the id only in the tooltip', async () => {
    const serverUrl = t.api.connection.config.serverUrl;
    assert.ok(serverUrl);
    const everyone = await allConversations(serverUrl);
    const nodes = await sandboxNodes(t.api);
    assert.ok(nodes.some((n) => n.kind === 'sandbox' && everyone.some((c) => c.sandbox_id === n.sandbox.id)));
    for (const node of nodes) {
      if (node.kind !== 'sandbox') continue;
      const { id, sandbox_spec_id: spec } = node.sandbox;
      const item = t.api.sandboxesProvider.getTreeItem(node);
      const hosted = everyone.filter((c) => c.sandbox_id === id);
      assert.equal(item.label, expectedSandboxName(id, everyone), `the name of ${id}`);
      const description = String(item.description);
      // the image's last path part and its tag, whole: `agent-server:4e2ecd8-python`
      assert.ok(description.includes(` · ${spec.split('/').at(-1)}`), description);
      assert.ok(!description.includes(spec), `not the whole spec: ${description}`);
      assert.equal(description.includes('no conversation'), hosted.length === 0, description);
      const id8 = id.replace(/^oh-agent-server-/, '').slice(0, 8);
      for (const shown of [String(item.label), description, item.accessibilityInformation?.label ?? ''])
        assert.ok(!shown.includes(id8), `no id in "${shown}"`);
      assert.match((item.tooltip as vscode.MarkdownString).value, new RegExp(`Sandbox id: \`${id}\``));
    }
  });

  it('Copy Sandbox Id is on every sandbox row and copies the full id', async () => {
    const json = openHandsExtension().packageJSON as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    const entry = json.contributes.menus['view/item/context']?.find(
      (e) => e.command === 'openhands.copySandboxId',
    );
    assert.ok(entry?.when, 'Copy Sandbox Id is in the row menu');
    const clause = /viewItem =~ \/(.+?)\/(?: |$)/.exec(entry.when)?.[1];
    assert.ok(clause && /view == openhands\.sandboxes/.test(entry.when));
    const [node] = await sandboxNodes(t.api);
    assert.ok(node?.kind === 'sandbox');
    assert.match(t.api.sandboxesProvider.getTreeItem(node).contextValue ?? '', new RegExp(clause));
    assert.match('sandbox.busy', new RegExp(clause), 'also while an action runs');
    await vscode.env.clipboard.writeText('');
    assert.equal(await vscode.commands.executeCommand('openhands.copySandboxId', node), node.sandbox.id);
    assert.equal(await vscode.env.clipboard.readText(), node.sandbox.id);
  });

  it('a conversation row shows its repository and branch when it has them', async () => {
    const rows = t.api.conversationsProvider
      .getChildren()
      .filter((n): n is Extract<OpenHandsNode, { kind: 'conversation' }> => n.kind === 'conversation');
    const withBranch = rows.find((r) => r.conversation.selected_repository && r.conversation.selected_branch);
    const without = rows.find((r) => !r.conversation.selected_repository);
    assert.ok(withBranch && without, 'the seed has conversations with and without a repository');
    const { selected_repository: repository, selected_branch: branch } = withBranch.conversation;
    assert.match(
      String(t.api.conversationsProvider.getTreeItem(withBranch).description),
      // a segment of its own, between the status and what follows (the cost, when it has one; the sandbox)
      new RegExp(` · ${escapeRegExp(`${repository} (${branch})`)} · `),
    );
    assert.doesNotMatch(String(t.api.conversationsProvider.getTreeItem(without).description), /\(.*\)/);
  });

  it('shows the conversations of each sandbox as its children', async () => {
    const parent = (await sandboxNodes(t.api)).find(
      (node) => node.kind === 'sandbox' && t.api.store.conversationsIn(node.sandbox.id).length > 0,
    );
    assert.ok(parent && parent.kind === 'sandbox', 'a sandbox that hosts conversations');
    const children = await t.api.sandboxesProvider.getChildren(parent);
    assert.ok(children.length > 0);
    for (const child of children) {
      assert.equal(child.kind, 'conversation');
      if (child.kind === 'conversation') assert.equal(child.conversation.sandbox_id, parent.sandbox.id);
    }
    assert.equal(
      t.api.sandboxesProvider.getTreeItem(parent).collapsibleState,
      vscode.TreeItemCollapsibleState.Collapsed,
    );
  });

  it('lists conversations newest first with title, statuses and age', async () => {
    const rows = t.api.conversationsProvider
      .getChildren()
      .filter((n): n is Extract<OpenHandsNode, { kind: 'conversation' }> => n.kind === 'conversation');
    assert.ok(rows.length > 0);
    const updated = rows.map((row) => Date.parse(row.conversation.created_at ?? ''));
    assert.deepEqual(
      updated,
      [...updated].sort((a, b) => b - a),
    );
    const first = rows[0];
    assert.ok(first);
    const item = t.api.conversationsProvider.getTreeItem(first);
    assert.equal(item.label, first.conversation.title);
    assert.equal(item.id, `conversation/${first.conversation.id}`);
    assert.match(String(item.description), /ago|just now/);
  });

  it('gives a conversation row its tooltip on hover (resolveTreeItem), not with the row', async () => {
    const row = t.api.conversationsProvider.getChildren().find((n) => n.kind === 'conversation');
    assert.ok(row?.kind === 'conversation');
    const item = t.api.conversationsProvider.getTreeItem(row);
    assert.equal(item.tooltip, undefined, 'thousands of rows carry no markdown to convert');
    const resolved = t.api.conversationsProvider.resolveTreeItem(item, row);
    assert.ok(resolved.tooltip instanceof vscode.MarkdownString);
    assert.match(resolved.tooltip.value, new RegExp(`Id: \`${row.conversation.id}\``));
    assert.match(resolved.tooltip.value, /Created: .* · Updated: /);
  });

  it('keeps tree item ids stable across refreshes (selection and expansion survive)', async () => {
    const before = (await sandboxNodes(t.api)).map((node) => t.api.sandboxesProvider.getTreeItem(node).id);
    await t.api.store.refresh();
    const after = (await sandboxNodes(t.api)).map((node) => t.api.sandboxesProvider.getTreeItem(node).id);
    assert.deepEqual(after, before);
  });

  it('shows a sandbox status from a newer server with a neutral look instead of failing', async () => {
    await server.addFault({ kind: 'drift', match: { path: '/api/v1/sandboxes/search' } });
    await t.api.store.refresh();
    const drifted = (await sandboxNodes(t.api)).find(
      (node) => node.kind === 'sandbox' && node.sandbox.status === 'HIBERNATING',
    );
    assert.ok(drifted, 'the drifted status is shown');
    const item = t.api.sandboxesProvider.getTreeItem(drifted);
    assert.equal(item.contextValue?.startsWith('sandbox.unknown'), true);
    assert.equal(iconId(item), 'circle-outline');
    assert.match(String(item.description), /Hibernating/);
  });

  it('pages conversations with a "Load more…" row that follows next_page_id', async () => {
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    let rows = t.api.conversationsProvider.getChildren();
    assert.equal(rows.filter((r) => r.kind === 'conversation').length, 5);
    assert.equal(rows.at(-1)?.kind, 'loadMore');
    await vscode.commands.executeCommand('openhands.loadMoreConversations');
    rows = t.api.conversationsProvider.getChildren();
    assert.equal(rows.filter((r) => r.kind === 'conversation').length, 10);
    // a refresh keeps the ten loaded rows instead of falling back to one page
    await t.api.store.refresh();
    assert.equal(
      t.api.conversationsProvider.getChildren().filter((r) => r.kind === 'conversation').length,
      10,
    );
  });

  it('with only some conversations loaded (one page, a title filter), a sandbox still lists all of its own', async () => {
    const serverUrl = t.api.connection.config.serverUrl;
    assert.ok(serverUrl);
    const everyone = await allConversations(serverUrl);
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    assert.equal(t.api.store.hasAllConversations, false);
    const expected = (sandboxId: string) =>
      everyone
        .filter((c) => c.sandbox_id === sandboxId)
        .map((c) => c.id)
        .sort();
    const parent = (await sandboxNodes(t.api)).find(
      (node) =>
        node.kind === 'sandbox' &&
        expected(node.sandbox.id).length > t.api.store.conversationsIn(node.sandbox.id).length,
    );
    assert.ok(parent?.kind === 'sandbox', 'a sandbox with conversations beyond the loaded page');
    const item = t.api.sandboxesProvider.getTreeItem(parent);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.doesNotMatch((item.tooltip as vscode.MarkdownString).value, /Conversations:/, 'count unknown');

    const childIds = async () =>
      (await t.api.sandboxesProvider.getChildren(parent))
        .map((child) => (child.kind === 'conversation' ? child.conversation.id : child.kind))
        .sort();
    assert.deepEqual(await childIds(), expected(parent.sandbox.id));

    // asked once per refresh, not on every redraw
    await server.clearRequests();
    assert.deepEqual(await childIds(), expected(parent.sandbox.id));
    assert.equal((await server.requests()).length, 0);

    await vscode.commands.executeCommand('openhands.filterConversations', 'no title has this');
    assert.equal(t.api.store.conversations.length, 0);
    assert.deepEqual(await childIds(), expected(parent.sandbox.id));
    const asked = (await server.requests()).filter((r) => r.query.sandbox_id__eq?.[0] === parent.sandbox.id);
    assert.ok(asked.length > 0, 'the sandbox list came from the server');
  });

  it('with one page loaded, a sandbox is named by its newest conversation once its own list is read', async () => {
    const serverUrl = t.api.connection.config.serverUrl;
    assert.ok(serverUrl);
    const everyone = await allConversations(serverUrl);
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    const parent = (await sandboxNodes(t.api)).find(
      (node) =>
        node.kind === 'sandbox' &&
        t.api.store.conversationsIn(node.sandbox.id).length === 0 &&
        everyone.some((c) => c.sandbox_id === node.sandbox.id),
    );
    assert.ok(parent?.kind === 'sandbox', 'a sandbox whose conversations are all beyond the loaded page');
    // not known yet: the readable name, and no claim that it hosts none
    const before = t.api.sandboxesProvider.getTreeItem(parent);
    assert.equal(before.label, readableSandboxName(parent.sandbox.id));
    assert.doesNotMatch(String(before.description), /no conversation/);
    await t.api.sandboxesProvider.getChildren(parent); // expanding it reads its own list
    await eventually(
      () => t.api.sandboxesProvider.getTreeItem(parent).label,
      (label) => label === expectedSandboxName(parent.sandbox.id, everyone),
    );
  });

  it('filters conversations by title on the server and can clear the filter', async () => {
    const all = t.api.store.conversations.length;
    const word = t.api.store.conversations[0]?.title?.split(' ')[0] ?? 'Fix';
    await server.clearRequests();
    await vscode.commands.executeCommand('openhands.filterConversations', word);
    assert.equal(t.api.store.titleFilter, word);
    assert.ok(t.api.store.conversations.length > 0);
    // SQL LIKE: case-insensitive
    assert.ok(t.api.store.conversations.every((c) => c.title?.toLowerCase().includes(word.toLowerCase())));
    const requests = await server.requests();
    assert.ok(
      requests.some(
        (r) => r.path === '/api/v1/app-conversations/search' && r.query.title__contains?.[0] === word,
      ),
    );
    // the test server runs on 127.0.0.1: unnamed, the views call it local and its port
    const local = `local:${new URL(t.api.connection.config.serverUrl ?? '').port}`;
    assert.equal(t.api.conversationsView.description, `${local} · filtered`);
    assert.match(t.api.conversationsView.message ?? '', new RegExp(word));
    await vscode.commands.executeCommand('openhands.clearConversationFilter');
    assert.equal(t.api.store.titleFilter, undefined);
    assert.equal(t.api.store.conversations.length, all);
    assert.equal(t.api.conversationsView.description, local, 'the server name stays');
  });

  it('shows running and paused counts in the status bar', async () => {
    const running = t.api.store.sandboxes.filter((s) => s.status === 'RUNNING').length;
    const paused = t.api.store.sandboxes.filter((s) => s.status === 'PAUSED').length;
    assert.match(t.api.statusBar.text, new RegExp(`${running} running · ${paused} paused`));
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
