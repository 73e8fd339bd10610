// Where the API key may go (issue 9, items 7 and 8): only to the server the user chose, and not
// unencrypted to another machine unless the user agreed.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { setSetting, sleep, useFreshExtension, useTestServerSettings } from './extensionApi';
import { eventually } from '../shared/eventually';

/** An address of this machine that is not loopback, so http:// to it counts as "another host". */
function nonLoopbackAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((nic) => nic && !nic.internal && nic.family === 'IPv4')?.address;
}

/** A server that answers every request with an empty page and records the API key headers it got. */
async function recordingServer(host: string): Promise<{ url: string; keys: string[]; close(): void }> {
  const keys: string[] = [];
  const httpServer = http.createServer((request, response) => {
    keys.push(String(request.headers['x-session-api-key'] ?? ''));
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ items: [], next_page_id: null }));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, host, resolve));
  const { port } = httpServer.address() as AddressInfo;
  return { url: `http://${host}:${port}`, keys, close: () => httpServer.close() };
}

describe('trust: where the API key goes (issue 9, items 7 and 8)', () => {
  const t = useFreshExtension();

  after(async () => {
    await useTestServerSettings(t.api);
  });

  it("7: a folder's .vscode/settings.json cannot point the extension at another server", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a folder open');
    const userUrl = t.api.connection.config.serverUrl;
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const settings = { 'openhands.serverUrl': 'http://workspace-server.invalid:1', 'openhands.pageSize': 7 };
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(settings)));
    try {
      // the file was read: its window-scoped setting applies
      await eventually(
        () => vscode.workspace.getConfiguration('openhands').get('pageSize'),
        (pageSize) => pageSize === 7,
      );
      await sleep(200);
      assert.equal(vscode.workspace.getConfiguration('openhands').get('serverUrl'), userUrl);
      assert.equal(t.api.connection.config.serverUrl, userUrl);
      assert.equal(t.api.connection.client?.serverUrl, userUrl);
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, '.vscode'), { recursive: true });
      await eventually(
        () => vscode.workspace.getConfiguration('openhands').get('pageSize'),
        (pageSize) => pageSize !== 7,
      );
    }
  });

  it('8: no API key goes over plain http:// to another host until the user agrees', async function () {
    const address = nonLoopbackAddress();
    if (!address) this.skip(); // a machine with loopback only has no "other host" to test with
    const remote = await recordingServer(address);
    const key = 'plain-http-key-8';
    try {
      await t.api.apiKeys.set(remote.url, key);
      await setSetting('serverUrl', remote.url);
      await t.api.connection.rebuild();
      assert.ok(t.api.connection.client === undefined, 'no client, so nothing is sent');
      assert.match(t.api.connection.problem ?? '', /is not sent: it would travel unencrypted \(http:\/\/\)/);
      await t.api.store.refresh();
      assert.equal(t.api.store.state, 'unconfigured');
      assert.match(t.api.statusBar.text, /OpenHands: settings/);
      assert.deepEqual(remote.keys, [], 'nothing reached the server');

      // what "Send over HTTP" records: from then on the key goes there
      await t.api.connection.plainHttp.allow(remote.url);
      await t.api.connection.rebuild();
      assert.equal(t.api.connection.problem, undefined);
      await t.api.store.refresh();
      assert.equal(t.api.store.state, 'ready');
      assert.ok(remote.keys.length > 0 && remote.keys.every((sent) => sent === key));
    } finally {
      await t.api.connection.plainHttp.revoke(remote.url);
      await t.api.apiKeys.clear(remote.url);
      remote.close();
    }
  });

  it('8: http:// to this machine (loopback) sends the key without asking', async () => {
    const local = await recordingServer('127.0.0.1');
    try {
      await t.api.apiKeys.set(local.url, 'loopback-key-8');
      await setSetting('serverUrl', local.url);
      await t.api.connection.rebuild();
      assert.equal(t.api.connection.problem, undefined);
      await t.api.store.refresh();
      assert.ok(local.keys.includes('loopback-key-8'));
    } finally {
      await t.api.apiKeys.clear(local.url);
      local.close();
    }
  });
});
