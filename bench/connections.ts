// New TCP connections per request, and round trips per click on Pause in a panel, against the test
// server in this process (it counts the sockets it accepts and records every request).
import { AgentServerClient, agentEndpointOf, ConnectionPool, OpenHandsClient } from '../src/api';
import { AgentAddresses } from '../src/state/agentAddresses';
import { startTestServer } from '../test/server';

const REQUESTS = 200;
const CLICKS = 20;

export async function connectionsReport(): Promise<string[]> {
  const server = await startTestServer({ seed: { sandboxes: 8, conversations: 40, seed: 1 } });
  const pool = new ConnectionPool();
  try {
    const client = new OpenHandsClient({ baseUrl: server.url, pool });
    server.reset();
    for (let i = 0; i < REQUESTS; i++) await client.searchSandboxes({ limit: 5 });
    const perRequest = server.acceptedConnections / REQUESTS;

    // A click as ConversationSteering makes it: the agent server's address as the open panel's feed
    // read it (AgentAddresses), else asked of the app server first.
    const running = (await client.searchConversations({ limit: 100 })).items.find(
      (conversation) => conversation.sandbox_status === 'RUNNING' && agentEndpointOf(conversation),
    );
    if (!running) throw new Error('the seed has no conversation in a running sandbox');
    const addresses = new AgentAddresses();
    addresses.remember(running); // what the feed did when the panel opened
    server.requests.length = 0;
    for (let i = 0; i < CLICKS; i++) {
      const endpoint =
        addresses.get(running.id) ??
        agentEndpointOf((await client.getConversations([running.id]))[0] ?? running);
      if (!endpoint) throw new Error('no agent server');
      await new AgentServerClient({ endpoint, pool }).pause();
    }
    const perClick = server.requests.length / CLICKS;
    return [
      `Connections and round trips (test server in this process, ${REQUESTS} requests, ${CLICKS} clicks)`,
      `  new TCP connections per request (one ConnectionPool, server.acceptedConnections / requests): ${perRequest.toFixed(3)}`,
      `  round trips per click on Pause in an open panel (AgentAddresses as steering uses it; server.requests / clicks): ${perClick.toFixed(2)}`,
    ];
  } finally {
    pool.dispose();
    await server.close();
  }
}
