// Issue 23, items 1 and 2: Connect to OpenHands… tests a server before saving it, several servers are
// remembered with a key each, a switch never shows one server's data under another's name, and
// Forget Server removes what was kept for it.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertificate, startTestServer, type TestServer } from '../server';
import { testServerUrl } from './env';
import { setSetting, useFreshExtension, useTestServerSettings } from './extensionApi';
import { eventually } from '../shared/eventually';

interface ConnectResult {
  outcome: string;
  saved: boolean;
  message: string;
}

function connect(request: Record<string, unknown>): Thenable<ConnectResult> {
  return vscode.commands.executeCommand<ConnectResult>('openhands.connect', request);
}

function rememberedServers(): { name: string; url: string; authHeader?: string }[] {
  return vscode.workspace.getConfiguration('openhands').get('servers', []);
}

describe('servers: connect, remember, switch, forget (issue 23)', () => {
  const t = useFreshExtension();
  let keyed: TestServer;
  const KEY = 'team-key-4242';

  before(async () => {
    keyed = await startTestServer({ sessionApiKey: KEY, seed: { sandboxes: 2, conversations: 3, seed: 77 } });
  });

  after(async () => {
    await t.api.apiKeys.clear(keyed.url);
    await useTestServerSettings(t.api);
    await keyed.close();
  });

  it('no server set: nothing is asked, the status bar and the views offer Connect to OpenHands…', async () => {
    await setSetting('serverUrl', undefined);
    await t.api.connection.rebuild();
    assert.equal(t.api.connection.config.serverUrl, undefined, 'a fresh install points nowhere');
    assert.equal(t.api.store.state, 'unconfigured');
    assert.match(t.api.statusBar.tooltip, /Not connected.*Click to connect/);
    await assert.rejects(async () => t.api.connection.requireClient(), /Connect to OpenHands…/);
  });

  it('a server that needs a key: without it, or with a wrong one, nothing is saved and the message says what to do', async () => {
    const without = await connect({ url: keyed.url });
    assert.equal(without.outcome, 'needs-key');
    assert.equal(without.saved, false);
    assert.match(without.message, /needs an API key/);
    const wrong = await connect({ url: keyed.url, apiKey: 'not-the-key' });
    assert.equal(wrong.outcome, 'key-rejected');
    assert.match(wrong.message, /refused the API key/);
    assert.doesNotMatch(wrong.message, /not-the-key/);
    assert.equal(await t.api.apiKeys.get(keyed.url), undefined, 'a refused key is not kept');
    assert.deepEqual(rememberedServers(), []);
    assert.equal(
      t.api.connection.config.serverUrl,
      testServerUrl(),
      'the views still show the server before',
    );
  });

  it('the right key: saved with its name and the header that worked, the key in Secret Storage, the views show it', async () => {
    const result = await connect({ url: keyed.url, apiKey: KEY, name: 'Team' });
    assert.equal(result.outcome, 'ok');
    assert.equal(result.saved, true);
    assert.match(result.message, /Connected to Team: OpenHands 1\.11\.0, API key accepted/);
    assert.deepEqual(rememberedServers(), [
      { name: 'Team', url: keyed.url, authHeader: 'X-Session-API-Key' },
    ]);
    assert.equal(await t.api.apiKeys.get(keyed.url), KEY);
    assert.equal(t.api.connection.config.serverUrl, keyed.url);
    assert.equal(t.api.connection.config.serverName, 'Team');
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'ready');
    assert.equal(t.api.store.sandboxes.length, 2);
    assert.equal(t.api.conversationsView.description, 'Team', 'the view says which server it shows');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('openhands'));
    assert.doesNotMatch(settings, new RegExp(KEY), 'no key in the settings');
  });

  it('a server that is not OpenHands, or is not there: nothing saved, and the message names the fix', async () => {
    const page = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<!doctype html><title>Wiki</title>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    try {
      const notOpenHands = await connect({ url });
      assert.equal(notOpenHands.outcome, 'not-openhands');
      assert.match(notOpenHands.message, /not as OpenHands.*address you open OpenHands at/);
    } finally {
      page.close();
    }
    const gone = await connect({ url });
    assert.equal(gone.outcome, 'unreachable');
    assert.match(gone.message, /Nothing answered at .*Check the address/);
    assert.equal((await connect({ url: 'localhost:3000' })).outcome, 'invalid-url');
    assert.deepEqual(rememberedServers(), []);
  });

  it('switch to another server and back with a panel open: the panel closes saying why, no row of one shows under the other', async () => {
    // the seeded test server, remembered as "Local"; the keyed one as "Team"
    assert.equal((await connect({ url: testServerUrl(), name: 'Local' })).saved, true);
    await t.api.store.refresh();
    const localIds = t.api.store.conversations.map((c) => c.id);
    const running = t.api.store.conversations.find((c) => c.sandbox_status === 'RUNNING');
    assert.ok(running, 'the seeded server has a running conversation');
    await vscode.commands.executeCommand('openhands.openConversation', running.id);
    assert.deepEqual(t.api.conversationPanels?.openIds(), [running.id]);
    t.api.watch.watch(running.id, { working: true });
    assert.ok(t.api.watch.isFollowing(running.id));

    assert.equal((await connect({ url: keyed.url, apiKey: KEY, name: 'Team' })).saved, true);
    assert.deepEqual(t.api.conversationPanels?.openIds(), [], "the old server's panel closed");
    assert.equal(t.api.watch.followingCount, 0, 'nothing of the old server is followed');
    await t.api.store.refresh();
    const teamIds = t.api.store.conversations.map((c) => c.id);
    assert.equal(teamIds.length, 3);
    assert.ok(
      teamIds.every((id) => !localIds.includes(id)),
      "no conversation of Local under Team's name",
    );
    assert.match(
      t.api.statusBar.text,
      /Team: \d+ running/,
      'with two servers the status bar names the one shown',
    );

    assert.equal(await vscode.commands.executeCommand('openhands.switchServer', testServerUrl()), true);
    assert.equal(t.api.connection.config.serverName, 'Local');
    assert.equal(t.api.connection.apiKey, undefined, "Team's key is not sent to Local");
    await t.api.store.refresh();
    assert.deepEqual(
      t.api.store.conversations.map((c) => c.id).sort(),
      [...localIds].sort(),
      'back on Local, its own conversations',
    );
    assert.equal(await t.api.apiKeys.get(keyed.url), KEY, "Team's key is still kept for Team");
  });

  it('Forget Server removes the server, its key, its LLM key and its MCP secrets; forgetting the one shown moves to the next', async () => {
    await connect({ url: testServerUrl(), name: 'Local' });
    await connect({ url: keyed.url, apiKey: KEY, name: 'Team' });
    await t.api.mcpSecrets.set(keyed.url, JSON.stringify({ tokens: { github: 'ghp_forgetme' } }));
    await t.api.llmKeys.set(keyed.url, 'sk-llm-forgetme');
    assert.equal(t.api.connection.config.serverUrl, keyed.url);

    assert.equal(
      await vscode.commands.executeCommand('openhands.forgetServer', { url: keyed.url, confirmed: true }),
      true,
    );
    assert.equal(await t.api.apiKeys.get(keyed.url), undefined, 'its key is gone');
    assert.equal(await t.api.mcpSecrets.get(keyed.url), undefined, 'its MCP secrets are gone');
    assert.equal(await t.api.llmKeys.get(keyed.url), undefined, 'its LLM key is gone');
    assert.deepEqual(
      rememberedServers().map((s) => s.name),
      ['Local'],
    );
    assert.equal(
      t.api.connection.config.serverUrl,
      testServerUrl(),
      'the views moved to the next remembered server',
    );

    assert.equal(
      await vscode.commands.executeCommand('openhands.forgetServer', {
        url: testServerUrl(),
        confirmed: true,
      }),
      true,
    );
    assert.deepEqual(rememberedServers(), []);
    await eventually(
      () => t.api.store.state,
      (state) => state === 'unconfigured',
    );
  });

  it('a server with its own certificate: untrusted until its CA file is given, then remembered with it', async () => {
    const certificate = selfSignedCertificate();
    const https = await startTestServer({ tls: certificate, seed: { sandboxes: 1, conversations: 1 } });
    const dir = mkdtempSync(path.join(tmpdir(), 'openhands-connect-ca-'));
    const caFile = path.join(dir, 'company-ca.pem');
    writeFileSync(caFile, certificate.cert);
    try {
      const untrusted = await connect({ url: https.url });
      assert.equal(untrusted.outcome, 'untrusted-certificate');
      assert.match(untrusted.message, /not trusted on this machine.*CA file/);
      // the CA set for every server (openhands.tls.caFile) is what the test uses when the server has none
      await setSetting('tls.caFile', caFile);
      const bySetting = await connect({ url: https.url, name: 'By setting' });
      assert.equal(bySetting.saved, true, bySetting.message);
      await setSetting('tls.caFile', undefined);
      await setSetting('servers', undefined);
      const trusted = await connect({ url: https.url, caFile, name: 'Company' });
      assert.equal(trusted.saved, true, trusted.message);
      assert.deepEqual(rememberedServers(), [
        { name: 'Company', url: https.url, authHeader: 'X-Session-API-Key', caFile },
      ]);
      assert.equal(t.api.connection.config.tlsCaFile, caFile, "the server's own CA file, not the setting's");
      await t.api.store.refresh();
      assert.equal(t.api.store.state, 'ready');
    } finally {
      await useTestServerSettings(t.api);
      await https.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('openhands.statusBar.show hides the status bar item, and the name follows a rename at once', async () => {
    await connect({ url: testServerUrl(), name: 'Local' });
    await setSetting('servers', [{ name: 'Renamed', url: testServerUrl() }]);
    await eventually(
      () => t.api.connection.config.serverName,
      (name) => name === 'Renamed',
    );
    assert.match(String(t.api.sandboxesView.description), /Renamed/);
    await setSetting('statusBar.show', false);
    await eventually(
      () => t.api.connection.config.showStatusBar,
      (shown) => !shown,
    );
    await setSetting('statusBar.show', undefined);
  });
});
