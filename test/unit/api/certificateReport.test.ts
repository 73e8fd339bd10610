import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { AgentServerClient, OpenHandsClient, type RequestLogEntry, type TlsOptions } from '../../../src/api';
import { describeCertificateFailure, readServerCertificate } from '../../../src/api/certificateReport';
import { certificateAuthority, selfSignedCertificate, startTestServer, type TestServer } from '../../server';

const API_KEY = 'sk-certificate-test-key-0123456789';

describe('which certificate was refused, and why (the log)', () => {
  it('says the code, the reason, and the certificate: subject, issuer, validity, SHA-256, names', () => {
    const line = describeCertificateFailure('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', {
      subject: { CN: 'OpenHands test server', O: 'Acme' } as never,
      issuer: { CN: 'OpenHands test server' } as never,
      valid_from: 'Nov 28 03:49:11 2026 GMT',
      valid_to: 'Nov 30 03:49:11 2026 GMT',
      fingerprint256: 'AB:CD:EF',
      subjectaltname: 'IP Address:192.0.2.2',
    });
    assert.equal(
      line,
      'DEPTH_ZERO_SELF_SIGNED_CERT (self-signed certificate); subject CN=OpenHands test server, O=Acme; ' +
        'issuer CN=OpenHands test server; valid Nov 28 03:49:11 2026 GMT to Nov 30 03:49:11 2026 GMT; ' +
        'SHA-256 AB:CD:EF; names IP Address:192.0.2.2',
    );
  });

  it('words the code itself when the error gave none, and says so when the certificate could not be read', () => {
    assert.equal(
      describeCertificateFailure('CERT_HAS_EXPIRED', '', undefined),
      'CERT_HAS_EXPIRED (certificate has expired); the certificate could not be read again to say which one',
    );
  });

  it("a hostile certificate's text is cleaned and clipped: no line breaks, no endless names", () => {
    const line = describeCertificateFailure('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', {
      subject: { CN: 'evil\nINFO fake log line\u202e', OU: ['a', 'b'], ...manyFields(50) } as never,
      issuer: { CN: 'x'.repeat(10_000) } as never,
      valid_from: 'a',
      valid_to: 'b',
      fingerprint256: 'AB',
      subjectaltname: `DNS:${'y'.repeat(10_000)}`,
    });
    assert.doesNotMatch(line, /[\n\r\u202e]/);
    assert.match(line, /subject CN=evil INFO fake log line, OU=a \+ b, F0=v, F1=v, F2=v, F3=v; issuer/);
    assert.ok(line.length < 1000, `${line.length} characters`);
  });
});

describe('a refused certificate in the log, against real servers', () => {
  const ca = certificateAuthority();
  const servers: TestServer[] = [];

  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  async function serve(tls: { key: string; cert: string }): Promise<TestServer> {
    const server = await startTestServer({ tls, seed: { sandboxes: 1, conversations: 1 } });
    servers.push(server);
    return server;
  }

  /** Lists sandboxes, which must fail; returns the error and the one log entry of the call. */
  async function refused(url: string, tls?: TlsOptions) {
    const entries: RequestLogEntry[] = [];
    const client = new OpenHandsClient({
      baseUrl: url,
      apiKey: API_KEY,
      timeoutMs: 3000,
      tls,
      onLog: (entry) => entries.push(entry),
    });
    const error = await client.searchSandboxes().then(
      () => assert.fail('the certificate was accepted'),
      (thrown: unknown) => thrown as Error,
    );
    assert.equal(entries.length, 1);
    const entry = entries[0] as RequestLogEntry;
    assert.equal(entry.errorKind, 'network');
    // the message stays plain; the entry says more; neither holds the key
    assert.doesNotMatch(error.message, /SHA-256/);
    for (const text of [error.message, JSON.stringify(entry)]) assert.ok(!text.includes(API_KEY));
    return { error, certificate: entry.certificate ?? '' };
  }

  it('a self-signed certificate: DEPTH_ZERO_SELF_SIGNED_CERT, with its fingerprint', async () => {
    const own = selfSignedCertificate();
    const server = await serve(own);
    const { certificate } = await refused(server.url);
    const fingerprint = new X509Certificate(own.cert).fingerprint256;
    assert.match(certificate, /^DEPTH_ZERO_SELF_SIGNED_CERT \(self-signed certificate\); /);
    assert.match(certificate, /subject CN=OpenHands test server; issuer CN=OpenHands test server; valid /);
    assert.ok(certificate.includes(`SHA-256 ${fingerprint}`), certificate);
    assert.match(certificate, /names IP Address:127\.0\.0\.1, DNS:localhost$/);
  });

  it("a CA's certificate without the CA: its issuer is named", async () => {
    const server = await serve(ca.issue(['127.0.0.1']));
    const { certificate } = await refused(server.url);
    assert.match(certificate, /^UNABLE_TO_VERIFY_LEAF_SIGNATURE /);
    assert.match(certificate, /subject CN=OpenHands server; issuer CN=OpenHands test CA;/);
  });

  it('an expired certificate from a trusted CA: CERT_HAS_EXPIRED', async () => {
    const server = await serve(ca.issue(['127.0.0.1'], { expired: true }));
    const { certificate } = await refused(server.url, { ca: ca.cert });
    assert.match(certificate, /^CERT_HAS_EXPIRED \(certificate has expired\); subject CN=OpenHands server;/);
  });

  it('a certificate for another address: ERR_TLS_CERT_ALTNAME_INVALID, with the names it is for', async () => {
    const server = await serve(ca.issue(['192.0.2.200', 'openhands.example']));
    const { certificate } = await refused(server.url, { ca: ca.cert });
    assert.match(certificate, /^ERR_TLS_CERT_ALTNAME_INVALID \(.*127\.0\.0\.1.*\);/);
    assert.match(certificate, /names IP Address:192\.0\.2\.200, DNS:openhands\.example$/);
  });

  it('a conversation start (a streamed reply) and a file download (bytes) say the same', async () => {
    const own = selfSignedCertificate();
    const server = await serve(own);
    const fingerprint = new X509Certificate(own.cert).fingerprint256;
    const entries: RequestLogEntry[] = [];
    const onLog = (entry: RequestLogEntry) => entries.push(entry);
    const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 3000, onLog });
    await assert.rejects(client.createConversationStreaming({}), { kind: 'network' });
    const agent = new AgentServerClient({
      endpoint: { baseUrl: server.url, conversationId: 'a'.repeat(32), sessionApiKey: API_KEY },
      timeoutMs: 3000,
      onLog,
    });
    await assert.rejects(agent.downloadFile('/workspace/a.txt'), { kind: 'network' });
    assert.deepEqual(
      entries.map((entry) => entry.path),
      ['/api/v1/app-conversations/stream-start', '/api/file/download?path=%2Fworkspace%2Fa.txt'],
    );
    for (const entry of entries) {
      assert.match(entry.certificate ?? '', /^DEPTH_ZERO_SELF_SIGNED_CERT \(self-signed certificate\); /);
      assert.ok(entry.certificate?.includes(`SHA-256 ${fingerprint}`), entry.certificate);
    }
  });

  it('reading the certificate gives up by its deadline on a server that never completes a handshake', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      assert.equal(
        await readServerCertificate(`https://127.0.0.1:${port}`, undefined, { timeoutMs: 200 }),
        undefined,
      );
    } finally {
      silent.close();
    }
  });
});

function manyFields(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`F${i}`, 'v']));
}
