// The views' chrome follows the store: the context keys the welcome views and menus read, the stale
// and filter messages (only over rows), which server the views show, and each sent once per change.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenHandsNode } from '../../../src/views/nodes';
import { ViewPresenter } from '../../../src/views/viewPresenter';
import { commands, windowRecord } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from '../state/extensionState';

describe('ViewPresenter', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 3, conversations: 6, seed: 5 } });
  let sandboxes: vscode.TreeView<OpenHandsNode>;
  let conversations: vscode.TreeView<OpenHandsNode>;
  let presenter: ViewPresenter;

  beforeEach(() => {
    const rows: vscode.TreeDataProvider<OpenHandsNode> = {
      getChildren: () => [],
      getTreeItem: (node) => new vscode.TreeItem(node.kind),
    };
    sandboxes = vscode.window.createTreeView('openhands.sandboxes', { treeDataProvider: rows });
    conversations = vscode.window.createTreeView('openhands.conversations', { treeDataProvider: rows });
    presenter = new ViewPresenter(t.store, t.connection, sandboxes, conversations);
  });
  afterEach(() => presenter.dispose());

  it('sets the context keys and names the server in both views', async () => {
    assert.equal(commands.context.get('openhands.state'), 'idle');
    assert.equal(commands.context.get('openhands.hasApiKey'), false);
    assert.equal(commands.context.get('openhands.configProblem'), false);
    await t.store.refresh();
    assert.equal(commands.context.get('openhands.state'), 'ready');
    // the test server is on 127.0.0.1: unnamed, it reads as local and its port
    const local = `local:${new URL(t.server.url).port}`;
    assert.equal(sandboxes.description, local);
    assert.equal(conversations.description, local);
    assert.equal(sandboxes.message, undefined);
  });

  it('says the rows are the last known, why, and since when, while the server is away', async () => {
    await t.store.refresh();
    t.server.faults.add({ kind: 'reset', match: { path: '/api/v1/sandboxes/search' } });
    await t.store.refresh();
    const since = t.store.lastSuccessAt?.toLocaleTimeString();
    const message = `⚠ Last known data, from ${since}. The server could not be reached: the connection failed or was closed. The log has the details.`;
    assert.equal(sandboxes.message, message);
    assert.equal(conversations.message, message);
    assert.equal(sandboxes.description, `local:${new URL(t.server.url).port} · offline`);
    assert.equal(commands.context.get('openhands.errorKind'), 'network');
  });

  it('says the conversations are filtered, and nothing over an empty list (the welcome view shows)', async () => {
    await t.store.setTitleFilter('no title has this');
    assert.equal(commands.context.get('openhands.conversationsFiltered'), true);
    assert.equal(conversations.message, undefined);
    const word = t.store.sandboxes.length
      ? (t.server.state.conversations.find((c) => c.title)?.title?.split(' ')[0] ?? '')
      : '';
    await t.store.setTitleFilter(word);
    assert.equal(conversations.message, `Filtered by title: “${word}”`);
    assert.equal(conversations.description, `local:${new URL(t.server.url).port} · filtered`);
  });

  it('sends the window only what differs from what it last sent', async () => {
    await t.store.refresh();
    const sent = commands.executed.length;
    const [view] = windowRecord.treeViews;
    assert.ok(view);
    const writes = { ...view.writes };
    presenter.update();
    await t.store.refresh({ full: true });
    presenter.update();
    assert.equal(commands.executed.length, sent);
    assert.deepEqual(view.writes, writes);
  });
});
