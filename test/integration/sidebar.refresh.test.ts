import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenHandsNode } from '../../src/views/nodes';
import { setSetting, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

/** Every change event a provider fires while `work` runs: `undefined` for "the whole view". */
async function treeEvents(
  provider: { onDidChangeTreeData: vscode.Event<OpenHandsNode[] | undefined> },
  work: () => Promise<unknown>,
): Promise<(OpenHandsNode[] | undefined)[]> {
  const events: (OpenHandsNode[] | undefined)[] = [];
  const subscription = provider.onDidChangeTreeData((event) => events.push(event));
  try {
    await work();
  } finally {
    subscription.dispose();
  }
  return events;
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

describe('sidebar: a refresh redraws only what changed (issue 25)', () => {
  const t = useFreshExtension();

  // The seed holds a STARTING sandbox that comes up 300 ms after the reset. When the reset's own refresh
  // ran before it landed, the test's refresh also saw its conversations change (the 6 rows redrawn instead
  // of 2 seen once in CI): each test measures from a list with nothing still moving on the server.
  beforeEach(async () => {
    await eventually(
      async () => {
        await t.api.store.refresh();
        return t.api.store.sandboxes.filter((sandbox) => sandbox.status === 'STARTING').length;
      },
      (starting) => starting === 0,
    );
  });

  it('with nothing changed on the server, a refresh fires no tree event and leaves the status bar as it was', async () => {
    const text = t.api.statusBar.text;
    const tooltip = t.api.statusBar.tooltip;
    const events = await treeEvents(t.api.conversationsProvider, () => t.api.store.refresh());
    const sandboxEvents = await treeEvents(t.api.sandboxesProvider, () => t.api.store.refresh());
    assert.deepEqual(events, []);
    assert.deepEqual(sandboxEvents, []);
    assert.equal(t.api.statusBar.text, text);
    assert.equal(t.api.statusBar.tooltip, tooltip);
  });

  it('refreshes keep their connections open inside VS Code, whose proxy support wraps every request', async () => {
    await server.clearRequests();
    const before = await server.connections();
    for (let i = 0; i < 10; i++) await t.api.store.refresh();
    const opened = (await server.connections()) - before;
    const requests = (await server.requests()).length;
    assert.ok(requests >= 30, `${requests} requests`);
    // one for the extension, and this test's own control requests (fetch keeps its sockets too)
    assert.ok(opened <= 3, `${opened} connections opened for ${requests} requests`);
  });

  it('a conversation renamed and one whose agent finished show after a refresh; only their rows redraw and every row keeps its object', async () => {
    const rows = t.api.conversationsProvider.getChildren();
    const conversations = rows.flatMap((row) => (row.kind === 'conversation' ? [row] : []));
    const newest = conversations[0];
    // further down: the refresh finds it by its updated_at, as OpenHands bumps it on the agent's status
    const further = conversations
      .slice(5)
      .find(
        (row) =>
          row.conversation.sandbox_status === 'RUNNING' && row.conversation.execution_status !== 'error',
      );
    assert.ok(newest && further, 'the seed has a conversation in a running sandbox past the fifth row');
    await server.patchConversation(newest.conversation.id, { title: 'Renamed on the server' });
    await server.patchConversation(further.conversation.id, {
      execution_status: 'error',
      updated_at: new Date(Date.now() + 60_000).toISOString(),
    });

    const events = await treeEvents(t.api.conversationsProvider, () => t.api.store.refresh());

    assert.equal(events.length, 1, 'one event');
    const redrawn = events[0];
    assert.ok(redrawn, 'for the rows, not the whole view');
    assert.deepEqual(new Set(redrawn), new Set([newest, further]));
    assert.equal(label(t.api.conversationsProvider.getTreeItem(newest)), 'Renamed on the server');
    assert.match(String(t.api.conversationsProvider.getTreeItem(further).description), /^error/i);
    const again = t.api.conversationsProvider.getChildren();
    assert.equal(again.length, rows.length);
    again.forEach((row, index) => assert.equal(row, rows[index], `row ${index} is the object it was`));
  });

  it('a conversation deleted elsewhere stays until a full refresh (the Refresh command), then goes', async () => {
    // pages of 5, loaded to the end: the newest page alone no longer says what the whole list is
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    while (t.api.store.conversationsNextPage !== null) await t.api.store.loadMoreConversations();
    const before = t.api.store.conversations;
    const deleted = before[12];
    assert.ok(deleted);
    await server.deleteConversation(deleted.id);

    await t.api.store.refresh();
    assert.ok(t.api.store.findConversation(deleted.id), 'a refresh reads what changed, not what went');

    await vscode.commands.executeCommand('openhands.refresh');
    assert.equal(t.api.store.findConversation(deleted.id), undefined);
    const ids = t.api.conversationsProvider
      .getChildren()
      .flatMap((row) => (row.kind === 'conversation' ? [row.conversation.id] : []));
    assert.ok(!ids.includes(deleted.id));
    assert.equal(ids.length, before.length - 1);
  });

  it('the Refresh command with nothing deleted costs what the timed refresh does, and the count: no page read again (issue 35)', async () => {
    // pages of 5, loaded to the end: only the count can say that nothing went
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    while (t.api.store.conversationsNextPage !== null) await t.api.store.loadMoreConversations();
    const before = t.api.store.conversations;
    await server.clearRequests();

    const events = await treeEvents(t.api.conversationsProvider, async () => {
      await vscode.commands.executeCommand('openhands.refresh');
    });

    const lists = (await server.requests())
      .map((request) => request.path)
      .filter((path) => path.startsWith('/api/v1/app-conversations') || path === '/api/v1/sandboxes/search')
      .sort();
    assert.deepEqual(lists, [
      '/api/v1/app-conversations/count',
      '/api/v1/app-conversations/search',
      '/api/v1/app-conversations/search',
      '/api/v1/sandboxes/search',
    ]);
    assert.equal(t.api.store.conversations, before, 'the same list');
    assert.deepEqual(events, []);
  });
});
