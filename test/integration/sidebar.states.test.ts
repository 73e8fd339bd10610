import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { testServerUrl } from './env';
import { useFreshExtension, setSetting, useTestServerSettings } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

describe('sidebar: connection states, welcome views, stale data', () => {
  const t = useFreshExtension();

  after(async () => {
    await server.reset();
    await useTestServerSettings(t.api);
  });

  it('no server configured: unconfigured state and empty trees (the configure welcome view)', async () => {
    await setSetting('serverUrl', '');
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'unconfigured');
    assert.deepEqual(t.api.sandboxesProvider.getChildren(), []);
    assert.deepEqual(t.api.conversationsProvider.getChildren(), []);
    assert.equal(t.api.sandboxesView.message, undefined, 'no message, so the welcome view shows');
    assert.equal(t.api.connection.problem, undefined, 'empty is "no server", not a settings problem');
    assert.match(t.api.statusBar.text, /OpenHands/);
    assert.doesNotMatch(t.api.statusBar.text, /settings/);
  });

  it('an invalid server URL is explained and nothing is requested', async () => {
    await setSetting('serverUrl', 'localhost:3000');
    await t.api.connection.rebuild();
    assert.equal(t.api.connection.client, undefined);
    assert.match(t.api.connection.config.serverUrlProblem ?? '', /http:\/\/ or https:\/\//);
    assert.match(t.api.connection.problem ?? '', /server URL is not valid: .*http:\/\/ or https:\/\//);
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'unconfigured');
    assert.match(t.api.statusBar.text, /OpenHands: settings/);
  });

  it('server unreachable: error state with kind network, empty trees when nothing was loaded', async () => {
    await setSetting('serverUrl', 'http://127.0.0.1:9');
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'error');
    assert.equal(t.api.store.lastError?.kind, 'network');
    assert.equal(t.api.store.stale, false);
    assert.deepEqual(t.api.sandboxesProvider.getChildren(), []);
    assert.match(t.api.statusBar.text, /offline/);
  });

  it('unauthorized: error kind unauthorized (the set-API-key welcome view)', async () => {
    await server.addFault({ kind: 'status', status: 401, body: { detail: 'Unauthorized' } });
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    assert.equal(t.api.store.lastError?.kind, 'unauthorized');
    assert.deepEqual(t.api.sandboxesProvider.getChildren(), []);
    assert.match(t.api.statusBar.text, /unauthorized/);
  });

  it('nothing yet: ready with empty trees (the start/new welcome views)', async () => {
    await server.addFault({
      kind: 'status',
      status: 200,
      body: { items: [], next_page_id: null },
      match: { pathRegex: '/search$' },
    });
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'ready');
    assert.deepEqual(t.api.sandboxesProvider.getChildren(), []);
    assert.deepEqual(t.api.conversationsProvider.getChildren(), []);
  });

  it('last known, not empty: when the server goes away the last data stays, marked, with the reason', async () => {
    const count = t.api.store.sandboxes.length;
    assert.ok(count > 0);
    await server.addFault({ kind: 'reset' });
    await t.api.store.refresh();
    assert.equal(t.api.store.stale, true);
    assert.equal((await t.api.sandboxesProvider.getChildren()).length, count);
    const first = (await t.api.sandboxesProvider.getChildren())[0];
    assert.ok(first);
    assert.match(String(t.api.sandboxesProvider.getTreeItem(first).description), / · last known$/);
    assert.equal(t.api.store.lastError?.kind, 'network');
    assert.match(t.api.sandboxesView.message ?? '', /^⚠ Last known data, from [^.]+\. /);
    assert.ok(
      t.api.sandboxesView.message?.endsWith(
        'The server could not be reached: the connection failed or was closed. The log has the details.',
      ),
      `the message says why, in words a user knows: ${t.api.sandboxesView.message}`,
    );
    assert.doesNotMatch(t.api.sandboxesView.message ?? '', /\/api\/|ECONNRESET|GET /);
    assert.equal(
      t.api.sandboxesView.description,
      `local:${new URL(t.api.connection.config.serverUrl ?? '').port} · offline`,
      'which server, and that it is offline',
    );
    await server.clearFaults();
    await t.api.store.refresh();
    assert.equal(t.api.store.stale, false);
    assert.equal(t.api.sandboxesView.message, undefined);
  });

  it('API key: set stores it in SecretStorage for this server, is sent, and clear removes it', async () => {
    const url = testServerUrl();
    assert.equal(await vscode.commands.executeCommand('openhands.setApiKey', 'integration-key-1'), true);
    assert.equal(await t.api.apiKeys.get(url), 'integration-key-1');
    assert.equal(t.api.connection.hasApiKey, true);
    await server.clearRequests();
    await t.api.store.refresh();
    const sent = (await server.requests()).find((r) => r.path === '/api/v1/sandboxes/search');
    assert.equal(sent?.headers['x-session-api-key'], 'integration-key-1');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('openhands'));
    assert.ok(!settings.includes('integration-key-1'), 'the key is not a setting');
    assert.equal(await vscode.commands.executeCommand('openhands.clearApiKey'), true);
    assert.equal(await t.api.apiKeys.get(url), undefined);
    assert.equal(t.api.connection.hasApiKey, false);
  });

  it('configure server validates and stores the URL setting', async () => {
    assert.equal(await vscode.commands.executeCommand('openhands.configureServer', 'not a url'), false);
    assert.equal(
      await vscode.commands.executeCommand('openhands.configureServer', `${testServerUrl()}/`),
      true,
    );
    assert.equal(vscode.workspace.getConfiguration('openhands').get('serverUrl'), testServerUrl());
  });

  it('refresh, open settings and show log run from the palette', async () => {
    await server.clearRequests();
    await vscode.commands.executeCommand('openhands.refresh');
    const requests = await server.requests();
    assert.ok(
      requests.some((r) => r.path === '/api/v1/sandboxes/search'),
      'refresh asks the server',
    );
    assert.ok(requests.some((r) => r.path === '/api/v1/app-conversations/search'));
    await vscode.commands.executeCommand('openhands.openSettings');
    await vscode.commands.executeCommand('openhands.showLog');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('overlapping refreshes collapse into at most one follow-up', async () => {
    await server.clearRequests();
    await Promise.all(Array.from({ length: 10 }, () => t.api.store.refresh()));
    const searches = (await server.requests()).filter((r) => r.path === '/api/v1/sandboxes/search');
    assert.ok(
      searches.length >= 1 && searches.length <= 2,
      `${searches.length} sandbox searches for 10 refreshes`,
    );
  });

  it('polls only while a view is visible: zero requests while hidden', async () => {
    await setSetting('refresh.idleIntervalSeconds', 2);
    await t.api.connection.rebuild();
    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually(
      () => t.api.scheduler.anyViewVisible,
      (visible) => !visible,
    );
    await server.clearRequests();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(
      (await server.requests()).filter((r) => r.path.startsWith('/api/')).length,
      0,
      'no requests while hidden',
    );

    await vscode.commands.executeCommand('openhands.sandboxes.focus');
    await eventually(
      () => server.requests(),
      (requests) => requests.some((r) => r.path === '/api/v1/sandboxes/search'),
    );
    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually(
      () => t.api.scheduler.anyViewVisible,
      (visible) => !visible,
    );
  });
});
