// The connection of the moment: a client only when the settings make one, a clear message when they
// do not, a new client (and "server changed") only when what makes the client changed, and no key sent
// over plain http:// to another machine until the user agrees.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { ServerSwitch } from '../../../src/state/connection';
import { eventually } from '../../shared/eventually';
import { prompts, settings } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from './extensionState';
import { REPOSITORY_ROOT } from '../../shared/repository';

/** The next event, as a promise. */
function next<T>(event: vscode.Event<T>): Promise<T> {
  return new Promise((resolve) => {
    const subscription = event((value) => {
      subscription.dispose();
      resolve(value);
    });
  });
}

/** Does what changes the server or key, and waits for the connection to say so. */
async function rebuiltAfter(
  connection: { onDidChange: vscode.Event<void> },
  change: () => unknown,
): Promise<void> {
  const changed = next(connection.onDidChange);
  await change();
  await changed;
}

const REPOSITORY = REPOSITORY_ROOT;

describe('Connection: the client of the moment', function () {
  this.timeout(20_000);
  const t = useExtensionState({
    seed: { sandboxes: 1, conversations: 1 },
    sessionApiKey: 'sk-test',
    apiKey: 'sk-test',
  });

  it('makes a client that sends the stored key in the configured header', async () => {
    assert.equal(t.connection.hasApiKey, true);
    assert.equal(t.connection.problem, undefined);
    await t.connection.requireClient().searchSandboxes();
    await rebuiltAfter(t.connection, () => settings.set({ 'openhands.authHeader': 'Authorization' }));
    await assert.rejects(t.connection.requireClient().searchSandboxes(), { kind: 'unauthorized' });
  });

  it('masks a secret it was told of (the Model page’s LLM key) in what the client says', async () => {
    const llmKey = 'sk-remembered-llm-key-31f9';
    t.server.faults.add({
      kind: 'status',
      status: 500,
      times: 2,
      match: { path: '/api/v1/sandboxes/search' },
      body: { detail: `the provider refused ${llmKey}` },
    });
    await assert.rejects(t.connection.requireClient().searchSandboxes(), (error: Error) =>
      error.message.includes(llmKey),
    );
    t.connection.rememberSecret(llmKey);
    await assert.rejects(t.connection.requireClient().searchSandboxes(), (error: Error) => {
      assert.ok(!error.message.includes(llmKey), error.message);
      assert.match(error.message, /the provider refused/);
      return true;
    });
  });

  it('says why there is no client: no server, or a URL that is not one', async () => {
    await rebuiltAfter(t.connection, () => settings.set({ 'openhands.serverUrl': '' }));
    assert.equal(t.connection.client, undefined);
    assert.throws(() => t.connection.requireClient(), {
      message: 'No OpenHands server is connected. Run Connect to OpenHands… first.',
    });
    await rebuiltAfter(t.connection, () => settings.set({ 'openhands.serverUrl': 'localhost:3000' }));
    assert.throws(() => t.connection.requireClient(), {
      message:
        /^The OpenHands server URL is not valid: The server URL must start with http:\/\/ or https:\/\//,
    });
  });

  it('keeps the client for settings that need none, and says only that the settings changed', async () => {
    const client = t.connection.client;
    let serverChanged = 0;
    t.connection.onDidChange(() => serverChanged++);
    settings.set({ 'openhands.pageSize': 10, 'openhands.httpLogLevel': 'bodies' });
    assert.equal(t.connection.config.pageSize, 10);
    assert.equal(t.connection.client, client);
    assert.equal(serverChanged, 0);
    await rebuiltAfter(t.connection, () => settings.set({ 'openhands.requestTimeoutSeconds': 5 }));
    assert.notEqual(t.connection.client, client);
  });

  it('tells which server it switched from and to, by name', async () => {
    settings.set({ 'openhands.servers': [{ name: 'Home', url: 'http://127.0.0.1:9' }] });
    const switched = next<ServerSwitch>(t.connection.onDidSwitchServer);
    settings.set({ 'openhands.serverUrl': 'http://127.0.0.1:9/' });
    assert.deepEqual(await switched, {
      from: { url: t.server.url, name: new URL(t.server.url).host },
      to: { url: 'http://127.0.0.1:9', name: 'Home' },
    });
  });

  it('follows the key when it changes in Secret Storage, also from another window', async () => {
    await rebuiltAfter(t.connection, () => t.storage.delete(`openhands.apiKey:${t.server.url}`));
    assert.equal(t.connection.hasApiKey, false);
    assert.equal(t.connection.apiKey, undefined);
    await rebuiltAfter(t.connection, () => t.secrets.apiKeys.set(t.server.url, 'sk-test'));
    assert.equal(t.connection.apiKey, 'sk-test');
  });

  it('sends no key over plain http:// to another machine until the user agrees', async () => {
    const remote = 'http://10.255.255.1:3000';
    await t.secrets.apiKeys.set(remote, 'sk-remote');
    prompts.answer('warning', 'Send over HTTP');
    await rebuiltAfter(t.connection, () => settings.set({ 'openhands.serverUrl': remote }));
    assert.equal(t.connection.client, undefined);
    assert.match(t.connection.problem ?? '', /is not sent: it would travel unencrypted/);
    // the notification's yes rebuilds the connection, now with a client
    await eventually(() => t.connection.client, Boolean, { description: 'a client after the yes' });
    assert.equal(t.connection.problem, undefined);
    assert.equal(prompts.of('warning').length, 1);
  });

  it('reports a CA file it cannot read, or one that holds no certificate, before anything is sent', async () => {
    await rebuiltAfter(t.connection, () =>
      settings.set({
        'openhands.serverUrl': 'https://openhands.example.com',
        'openhands.tls.caFile': path.join(REPOSITORY, 'no-such-ca.pem'),
      }),
    );
    assert.equal(t.connection.client, undefined);
    assert.match(t.connection.problem ?? '', /^The CA file .*no-such-ca\.pem cannot be read: /);
    await rebuiltAfter(t.connection, () =>
      settings.set({ 'openhands.tls.caFile': path.join(REPOSITORY, 'package.json') }),
    );
    assert.match(t.connection.problem ?? '', /holds no PEM certificate/);
  });
});
