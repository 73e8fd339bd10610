import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RememberedServer } from '../../src/core/servers';
import { testServer } from '../../src/state/serverTest';
import { certificateAuthority, selfSignedCertificate, startTestServer, type TestServer } from '../server';
import { closePanels, firstRunningConversation, openLive } from './conversations';
import { setSetting, useFreshExtension, useTestServerSettings } from './extensionApi';
import { eventually } from '../shared/eventually';

describe('connection: an https:// server with its own certificate', () => {
  const t = useFreshExtension();
  let httpsServer: TestServer;
  let dir: string;
  let caFile: string;

  before(async () => {
    const certificate = selfSignedCertificate();
    httpsServer = await startTestServer({
      tls: certificate,
      seed: { sandboxes: 3, conversations: 4, seed: 5 },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'openhands-ca-'));
    caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, certificate.cert);
  });

  after(async () => {
    await useTestServerSettings(t.api);
    await httpsServer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function connect(settings: Record<string, unknown>): Promise<void> {
    await setSetting('serverUrl', httpsServer.url);
    for (const [key, value] of Object.entries(settings)) await setSetting(key, value);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
  }

  it('an untrusted certificate is an error that says so', async () => {
    await connect({ 'tls.caFile': undefined, 'tls.insecure': undefined });
    assert.equal(t.api.store.state, 'error');
    assert.equal(t.api.store.lastError?.kind, 'network');
    assert.match(t.api.store.lastError?.message ?? '', /TLS certificate .* is not trusted/);
    assert.match(t.api.statusBar.text, /offline/);
  });

  it('openhands.tls.caFile trusts the server: its sandboxes are listed', async () => {
    await connect({ 'tls.caFile': caFile, 'tls.insecure': undefined });
    assert.equal(t.api.store.state, 'ready');
    assert.deepEqual(
      t.api.store.sandboxes.map((s) => s.id).sort(),
      httpsServer.state.sandboxes.map((s) => s.id).sort(),
    );
  });

  it('an unreadable CA file is a settings problem, shown instead of a request', async () => {
    httpsServer.requests.length = 0;
    await connect({ 'tls.caFile': path.join(dir, 'missing.pem'), 'tls.insecure': undefined });
    assert.equal(t.api.connection.client, undefined);
    assert.match(t.api.connection.problem ?? '', /CA file .* cannot be read: .*ENOENT/);
    assert.equal(t.api.store.state, 'unconfigured');
    assert.match(t.api.statusBar.text, /settings/);
    assert.equal(t.api.sandboxesView.message, undefined, 'the configProblem welcome view shows');
    assert.equal(httpsServer.requests.length, 0, 'nothing was requested');
  });

  it('a file without a PEM certificate is reported too', async () => {
    const notPem = path.join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    await connect({ 'tls.caFile': notPem, 'tls.insecure': undefined });
    assert.match(t.api.connection.problem ?? '', /holds no PEM certificate/);
  });

  it('openhands.tls.insecure accepts the certificate without a CA', async () => {
    await connect({ 'tls.caFile': undefined, 'tls.insecure': true });
    assert.equal(t.api.store.state, 'ready');
    assert.equal(t.api.store.sandboxes.length, httpsServer.state.sandboxes.length);
  });
});

/** This machine's own non-loopback IPv4 address: VS Code's proxy support leaves only localhost alone. */
function lanAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((nic) => nic && !nic.internal && nic.family === 'IPv4')?.address;
  if (!address)
    throw new Error(
      'This machine has no non-loopback IPv4 address: these tests need one, since VS Code sends requests to 127.0.0.1 and localhost without its proxy support.',
    );
  return address;
}

describe('TLS on a real host address, with VS Code proxy support on (issue 34, item 6)', function () {
  this.timeout(60_000);
  const t = useFreshExtension();
  const address = lanAddress();
  const ca = certificateAuthority('OpenHands company CA');
  const selfSigned = selfSignedCertificate([address]);
  let selfSignedServer: TestServer;
  let caSignedServer: TestServer;
  let dir: string;
  let caFile: string;

  before(async () => {
    const seed = { sandboxes: 3, conversations: 4, seed: 5 };
    selfSignedServer = await startTestServer({ host: address, tls: selfSigned, seed });
    caSignedServer = await startTestServer({ host: address, tls: ca.issue([address]), seed });
    dir = mkdtempSync(path.join(tmpdir(), 'openhands-ca-'));
    caFile = path.join(dir, 'company-ca.pem');
    writeFileSync(caFile, ca.cert);
  });

  afterEach(async () => {
    await closePanels(t.api);
  });

  after(async () => {
    await useTestServerSettings(t.api);
    await Promise.all([selfSignedServer.close(), caSignedServer.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the connect flow saves (`openhands.servers`, then `openhands.serverUrl`), then a refresh. */
  async function connectAs(server: RememberedServer): Promise<void> {
    await setSetting('servers', [server]);
    await setSetting('serverUrl', server.url);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
  }

  /** A conversation of the server shown, its panel opened: live once the event socket is and its history read. */
  async function followsAConversation(): Promise<void> {
    const conversation = await firstRunningConversation(t.api);
    const snapshot = await openLive(t.api, conversation.id);
    assert.equal(snapshot?.header.feed, 'live');
  }

  it('the servers are on a real host address, and proxy support is at its default', () => {
    assert.ok(selfSignedServer.url.startsWith(`https://${address}:`), selfSignedServer.url);
    assert.notEqual(address, '127.0.0.1');
    const proxySupport = vscode.workspace.getConfiguration('http').inspect<string>('proxySupport');
    assert.equal(proxySupport?.defaultValue, 'override');
    assert.equal(proxySupport?.globalValue, undefined);
    assert.equal(proxySupport?.workspaceValue, undefined);
  });

  it('"Trust any certificate from this server": the connection test passes, the lists load and a conversation follows live', async () => {
    const url = selfSignedServer.url;
    const test = await testServer(
      { url, authHeader: 'X-Session-API-Key', insecure: true },
      { log: t.api.log, timeoutMs: 10_000 },
    );
    assert.equal(test.outcome, 'ok', test.outcome === 'tls-settings' ? test.problem : test.error?.message);
    await connectAs({ name: 'Self-signed', url, authHeader: 'X-Session-API-Key', insecure: true });
    assert.equal(t.api.store.state, 'ready', t.api.store.lastError?.message);
    assert.deepEqual(
      t.api.store.sandboxes.map((s) => s.id).sort(),
      selfSignedServer.state.sandboxes.map((s) => s.id).sort(),
    );
    await followsAConversation();
  });

  it('a company CA file: the connection test passes, the lists load and a conversation follows live', async () => {
    const url = caSignedServer.url;
    const test = await testServer(
      { url, authHeader: 'X-Session-API-Key', caFile },
      { log: t.api.log, timeoutMs: 10_000 },
    );
    assert.equal(test.outcome, 'ok', test.outcome === 'tls-settings' ? test.problem : test.error?.message);
    await connectAs({ name: 'Company', url, authHeader: 'X-Session-API-Key', caFile });
    assert.equal(t.api.store.state, 'ready', t.api.store.lastError?.message);
    assert.equal(t.api.store.sandboxes.length, caSignedServer.state.sandboxes.length);
    await followsAConversation();
  });

  it('the server’s own certificate as its CA file works too', async () => {
    const ownCa = path.join(dir, 'own.pem');
    writeFileSync(ownCa, selfSigned.cert);
    await connectAs({
      name: 'Own CA',
      url: selfSignedServer.url,
      authHeader: 'X-Session-API-Key',
      caFile: ownCa,
    });
    assert.equal(t.api.store.state, 'ready', t.api.store.lastError?.message);
    await followsAConversation();
  });

  it('an untrusted certificate is refused with plain words; the log names the certificate and why', async () => {
    const file = vscode.Uri.joinPath(t.api.logUri, 'OpenHands.log').fsPath;
    const before = (await readFile(file, 'utf8').catch(() => '')).length;
    const url = selfSignedServer.url;
    const test = await testServer(
      { url, authHeader: 'X-Session-API-Key' },
      { log: t.api.log, timeoutMs: 10_000 },
    );
    assert.equal(test.outcome, 'untrusted-certificate');
    await connectAs({ name: 'Untrusted', url, authHeader: 'X-Session-API-Key' });
    assert.equal(t.api.store.state, 'error');
    assert.equal(
      t.api.store.lastError?.message,
      `The TLS certificate of the OpenHands server at ${url} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT). Trust its CA, or, for a server you control, accept it explicitly.`,
    );
    const fingerprint = new X509Certificate(selfSigned.cert).fingerprint256;
    const written = await eventually(
      async () => (await readFile(file, 'utf8')).slice(before),
      (text) => text.includes(fingerprint),
      4000,
    );
    const line = written.split('\n').find((entry) => entry.includes(fingerprint)) ?? '';
    assert.match(
      line,
      /its TLS certificate was refused: DEPTH_ZERO_SELF_SIGNED_CERT \(self-signed certificate\); subject CN=OpenHands test server; issuer CN=OpenHands test server;/,
    );
    assert.ok(line.includes(`names IP Address:${address}`), line);
  });
});
