// The connection test behind Connect to OpenHands…: every verdict from a real server over real HTTP.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenHandsClient, probeServer, type AuthHeader } from '../../../src/api';
import { selfSignedCertificate, startTestServer, type TestServer } from '../../server';

function clientFor(url: string, apiKey?: string, authHeader?: AuthHeader, ca?: string): OpenHandsClient {
  return new OpenHandsClient({
    baseUrl: url,
    apiKey,
    authHeader,
    timeoutMs: 2000,
    tls: ca ? { ca } : undefined,
  });
}

/** A plain web server that is not OpenHands: every path answers the same HTML page (or `status`). */
async function webServer(status = 200): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(status, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>Intranet</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('probeServer: what Connect to OpenHands… finds', () => {
  describe('OpenHands without a session key', () => {
    let server: TestServer;
    before(async () => (server = await startTestServer({ seed: { sandboxes: 1, conversations: 1 } })));
    after(() => server.close());

    it('says ok, with the version the server states, and that no key was needed', async () => {
      const probe = await probeServer(clientFor(server.url), { keyUsed: false });
      assert.equal(probe.outcome, 'ok');
      assert.equal(probe.version, '1.11.0');
      assert.equal(probe.keyUsed, false);
      assert.equal(probe.error, undefined);
    });
  });

  describe('OpenHands with a session key', () => {
    let server: TestServer;
    before(async () => (server = await startTestServer({ sessionApiKey: 'right-key' })));
    after(() => server.close());

    it('needs a key when none is sent', async () => {
      const probe = await probeServer(clientFor(server.url), { keyUsed: false });
      assert.equal(probe.outcome, 'needs-key');
      assert.equal(probe.error?.kind, 'unauthorized');
    });

    it('rejects a wrong key, and the error does not carry it', async () => {
      const probe = await probeServer(clientFor(server.url, 'wrong-key-123'), { keyUsed: true });
      assert.equal(probe.outcome, 'key-rejected');
      assert.doesNotMatch(String(probe.error?.message), /wrong-key-123/);
    });

    it('accepts the right key in X-Session-API-Key, and not as a bearer token', async () => {
      assert.equal((await probeServer(clientFor(server.url, 'right-key'), { keyUsed: true })).outcome, 'ok');
      const bearer = await probeServer(clientFor(server.url, 'right-key', 'Authorization'), {
        keyUsed: true,
      });
      assert.equal(bearer.outcome, 'key-rejected');
    });
  });

  describe('a hosted server (bearer keys, like OpenHands Cloud)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ hostedAuth: { header: 'authorization-bearer', apiKey: 'cloud-key' } });
    });
    after(() => server.close());

    it('needs a key, and takes it as a bearer token', async () => {
      assert.equal((await probeServer(clientFor(server.url), { keyUsed: false })).outcome, 'needs-key');
      const probe = await probeServer(clientFor(server.url, 'cloud-key', 'Authorization'), { keyUsed: true });
      assert.equal(probe.outcome, 'ok');
    });
  });

  describe('servers that are not (this) OpenHands', () => {
    it('a web page everywhere: not OpenHands', async () => {
      const web = await webServer();
      try {
        const probe = await probeServer(clientFor(web.url), { keyUsed: false });
        assert.equal(probe.outcome, 'not-openhands');
        assert.equal(probe.version, undefined);
      } finally {
        await web.close();
      }
    });

    it('404 everywhere: not OpenHands', async () => {
      const web = await webServer(404);
      try {
        assert.equal((await probeServer(clientFor(web.url), { keyUsed: false })).outcome, 'not-openhands');
      } finally {
        await web.close();
      }
    });

    it('an OpenHands without the conversations API (its web app answers every path): too old, with its version', async () => {
      const server = http.createServer((request, response) => {
        const openapi = request.url === '/openapi.json';
        response.writeHead(200, { 'Content-Type': openapi ? 'application/json' : 'text/html' });
        response.end(
          openapi
            ? JSON.stringify({ info: { title: 'OpenHands', version: '0.38.0' } })
            : '<!doctype html><title>OpenHands</title>',
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const probe = await probeServer(clientFor(url), { keyUsed: false });
        assert.equal(probe.outcome, 'too-old');
        assert.equal(probe.version, '0.38.0');
        assert.equal(probe.saysOpenHands, true);
      } finally {
        server.close();
      }
    });

    it('another service whose API wants a key (Grafana, Jenkins): not OpenHands, and no key is asked', async () => {
      const server = http.createServer((request, response) => {
        const openapi = request.url === '/openapi.json';
        response.writeHead(openapi ? 200 : 401, { 'Content-Type': 'application/json' });
        response.end(
          openapi ? JSON.stringify({ info: { title: 'Grafana HTTP API', version: '11.0' } }) : '{}',
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const probe = await probeServer(clientFor(url), { keyUsed: false });
        assert.equal(probe.outcome, 'not-openhands');
        assert.equal(probe.saysOpenHands, false);
      } finally {
        server.close();
      }
    });

    it('nothing listening: unreachable', async () => {
      const web = await webServer();
      await web.close();
      const probe = await probeServer(clientFor(web.url), { keyUsed: false });
      assert.equal(probe.outcome, 'unreachable');
      assert.equal(probe.error?.kind, 'network');
    });

    it('a server that never answers: unreachable by the deadline', async () => {
      const silent = http.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        const client = new OpenHandsClient({ baseUrl: url, timeoutMs: 300 });
        const started = Date.now();
        const probe = await probeServer(client, { keyUsed: false });
        assert.equal(probe.outcome, 'unreachable');
        assert.equal(probe.error?.kind, 'timeout');
        assert.ok(Date.now() - started < 2000, 'settled by its deadline');
      } finally {
        silent.closeAllConnections();
        silent.close();
      }
    });
  });

  describe('https:// with a self-signed certificate', () => {
    const certificate = selfSignedCertificate();
    let server: TestServer;
    before(async () => (server = await startTestServer({ tls: certificate })));
    after(() => server.close());

    it('says the certificate is not trusted, and ok once its CA is given', async () => {
      assert.equal(
        (await probeServer(clientFor(server.url), { keyUsed: false })).outcome,
        'untrusted-certificate',
      );
      const trusted = await probeServer(clientFor(server.url, undefined, undefined, certificate.cert), {
        keyUsed: false,
      });
      assert.equal(trusted.outcome, 'ok');
    });
  });
});
