import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ConnectionPool, OpenHandsClient, AgentServerClient } from '../../../src/api';
import { selfSignedCertificate, startTestServer, type TestServer } from '../../server';

/** Waits (as long as the test may run) until the server has seen every socket close. */
async function allClosed(server: TestServer): Promise<void> {
  while (server.openConnections > 0) await nextTurn();
}

describe('ConnectionPool: keep-alive connections shared by the clients of a server', () => {
  for (const scheme of ['http', 'https'] as const) {
    describe(scheme, () => {
      const certificate = scheme === 'https' ? selfSignedCertificate() : undefined;
      const tls = certificate ? { ca: certificate.cert } : undefined;
      let server: TestServer;
      let pool: ConnectionPool;

      before(async () => {
        server = await startTestServer({ tls: certificate, seed: { sandboxes: 2, conversations: 3 } });
      });
      beforeEach(() => {
        server.reset();
        pool = new ConnectionPool(tls);
      });
      afterEach(() => pool.dispose());
      after(async () => {
        await server.close();
      });

      it('sends 40 requests of two clients (app and agent server) over one connection', async () => {
        const app = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, tls, pool });
        const conversation = (await app.searchConversations()).items[0];
        assert.ok(conversation);
        const agent = new AgentServerClient({
          endpoint: { baseUrl: server.url, conversationId: conversation.id, sessionApiKey: undefined },
          timeoutMs: 2000,
          tls,
          pool,
        });
        for (let i = 0; i < 20; i++) {
          await app.searchSandboxes({ limit: 1 });
          // an unknown conversation's 404 still comes back over the kept connection
          await agent.getConversation().catch(() => undefined);
        }
        assert.equal(server.requests.length, 41);
        assert.equal(server.acceptedConnections, 1);
        // said in the header too: VS Code's proxy support puts an agent without keepAlive in front
        // of ours, and Node would then send `Connection: close` (the integration suite counts it)
        assert.ok(server.requests.every((request) => request.headers.connection === 'keep-alive'));
      });

      it('closes its idle connections when closed, and makes no new ones to keep', async () => {
        const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, tls, pool });
        await client.searchSandboxes();
        assert.equal(server.openConnections, 1);
        pool.close();
        await allClosed(server);
        // a late call of the old client still works, on a connection closed once it is answered
        await client.searchSandboxes();
        await allClosed(server);
        assert.equal(server.acceptedConnections, 2);
      });

      it('lets a call in flight finish when closed, then closes its connection', async () => {
        server.faults.add({ kind: 'latency', ms: 100 });
        const client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, tls, pool });
        const reply = client.searchSandboxes();
        while (server.requests.length === 0) await nextTurn();
        pool.close();
        assert.equal((await reply).items.length, 2);
        await allClosed(server);
      });
    });
  }
});
