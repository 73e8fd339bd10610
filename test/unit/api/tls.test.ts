import assert from 'node:assert/strict';
import { OpenHandsClient } from '../../../src/api';
import {
  selfSignedCertificate,
  startTestServer,
  type SelfSignedCertificate,
  type TestServer,
} from '../../server';

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
