import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertificate, startTestServer, type TestServer } from '../server';
import { setSetting, useFreshExtension, useTestServerSettings } from './extensionApi';

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
