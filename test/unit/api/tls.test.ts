import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import * as https from 'node:https';
import { createRequire } from 'node:module';
import { ConnectionPool, OpenHandsClient } from '../../../src/api';
import {
  selfSignedCertificate,
  startTestServer,
  type SelfSignedCertificate,
  type TestServer,
} from '../../server';

const nodeRequire = createRequire(__filename);

describe('OpenHandsClient over HTTPS', () => {
  let certificate: SelfSignedCertificate;
  let server: TestServer;

  before(async () => {
    certificate = selfSignedCertificate();
    server = await startTestServer({ tls: certificate, seed: { sandboxes: 2, conversations: 3 } });
  });
  after(async () => {
    await server.close();
  });

  it('serves https://', () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('rejects an untrusted (self-signed) certificate with a clear network error', async () => {
    const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000 });
    await assert.rejects(client.searchSandboxes(), (error: Error & { kind?: string }) => {
      assert.equal(error.kind, 'network');
      assert.match(
        error.message,
        /TLS certificate of the OpenHands server at https:\/\/127\.0\.0\.1:\d+ is not trusted/,
      );
      assert.match(error.message, /SELF_SIGNED|UNABLE_TO_VERIFY/);
      return true;
    });
  });

  it('trusts the certificate given as a CA', async () => {
    const client = new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 2000,
      tls: { ca: certificate.cert },
    });
    const page = await client.searchSandboxes();
    assert.equal(page.items.length, 2);
  });

  it('accepts any certificate when told to', async () => {
    const client = new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 2000,
      tls: { rejectUnauthorized: false },
    });
    assert.equal((await client.searchConversations()).items.length, 3);
  });

  it("a CA that is not the server's does not make it trusted", async () => {
    const other = selfSignedCertificate();
    const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, tls: { ca: other.cert } });
    await assert.rejects(client.searchSandboxes(), { kind: 'network' });
  });
});

/**
 * What VS Code's proxy support (`@vscode/proxy-agent` 0.32, `http.proxySupport` "override", the default)
 * does to an https request for a host other than localhost/127.0.0.1: the request's agent is dropped,
 * the agent's `ca` is put on the request, and an agent of Node's own connects with the request's options
 * (it connects DIRECT, through `https.globalAgent`; a fresh agent here, so nothing is shared between tests).
 */
function swapAgentsAsVsCodeProxySupportDoes(): () => void {
  const httpsModule = nodeRequire('node:https') as typeof https;
  const original = httpsModule.request;
  const patched = (options: https.RequestOptions, onResponse?: (response: IncomingMessage) => void) => {
    const agent = options.agent;
    const agentCa = agent instanceof https.Agent && 'ca' in agent.options ? agent.options.ca : undefined;
    return original({ ...options, agent: new https.Agent(), ca: agentCa ?? options.ca }, onResponse);
  };
  httpsModule.request = patched as typeof https.request;
  return () => {
    httpsModule.request = original;
  };
}

describe('OpenHandsClient over HTTPS when VS Code swaps the agent (proxy support, a remote host)', () => {
  let certificate: SelfSignedCertificate;
  let server: TestServer;
  let restore: () => void;

  before(async () => {
    certificate = selfSignedCertificate();
    server = await startTestServer({ tls: certificate, seed: { sandboxes: 2, conversations: 3 } });
  });
  beforeEach(() => (restore = swapAgentsAsVsCodeProxySupportDoes()));
  afterEach(() => restore());
  after(async () => {
    await server.close();
  });

  it('"trust any certificate" still connects: the choice travels on each request, not only on the agent', async () => {
    const tls = { rejectUnauthorized: false };
    // as the Connection makes it: the pool's agent carries the same options
    const client = new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 2000,
      tls,
      pool: new ConnectionPool(tls),
    });
    assert.equal((await client.searchSandboxes()).items.length, 2);
  });

  it('a CA file still connects', async () => {
    const tls = { ca: certificate.cert };
    const client = new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 2000,
      tls,
      pool: new ConnectionPool(tls),
    });
    assert.equal((await client.searchConversations()).items.length, 3);
  });

  it('without either, the certificate is still refused', async () => {
    const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000 });
    await assert.rejects(client.searchSandboxes(), { kind: 'network', message: /is not trusted/ });
  });
});
