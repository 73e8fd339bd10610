// The agent-server double for the conversation-feed suites: one seeded server per describe block,
// reset before each test; the app client that tells a conversation's endpoint; every feed a test
// follows disposed after it.
import assert from 'node:assert/strict';
import { agentEndpointOf, OpenHandsClient, type AgentEndpoint, type EventFeed } from '../../../../src/api';
import type { TestServer } from '../../../server';
import { startFastServer } from '../../testServer/helpers';

export interface FeedFixture {
  readonly server: TestServer;
  readonly app: OpenHandsClient;
  /** Keeps `feed` to dispose after the test; returns it. */
  track(feed: EventFeed): EventFeed;
  /** A seeded conversation in a running sandbox (in that execution status, when given). */
  runningConversationId(status?: string): string;
  /** Where its agent server is, as the app server says. */
  endpointOf(conversationId: string): Promise<AgentEndpoint>;
  /** The ids of the events the double stores, in storage order. */
  stored(conversationId: string): string[];
  /** The ids of the events a feed holds, in its order. */
  held(feed: EventFeed): string[];
}

export function useFeedServer(): FeedFixture {
  let server: TestServer | undefined;
  let app: OpenHandsClient | undefined;
  const feeds: EventFeed[] = [];
  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 3, conversations: 10, seed: 5 },
      timings: { agentStepMs: 5, wsAuthTimeoutMs: 500 },
    });
    app = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 5000 });
  });
  after(() => server?.close());
  beforeEach(() => server?.reset());
  afterEach(() => {
    for (const feed of feeds.splice(0)) feed.dispose();
  });
  const running = (): { server: TestServer; app: OpenHandsClient } => {
    if (!server || !app) throw new Error('the agent-server double is used before it started');
    return { server, app };
  };
  return {
    get server() {
      return running().server;
    },
    get app() {
      return running().app;
    },
    track(feed) {
      feeds.push(feed);
      return feed;
    },
    runningConversationId(status) {
      const double = running().server;
      const summary = double.agent
        .conversations()
        .find(
          (c) =>
            double.state.sandboxes.find((s) => s.id === c.sandbox_id)?.status === 'RUNNING' &&
            (!status || c.execution_status === status),
        );
      assert.ok(summary, `the seed has a conversation ${status ?? ''} in a running sandbox`);
      return summary.id;
    },
    async endpointOf(conversationId) {
      const [conversation] = await running().app.getConversations([conversationId]);
      const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
      assert.ok(endpoint, 'a running conversation has an endpoint');
      return endpoint;
    },
    stored: (conversationId) =>
      running()
        .server.agent.events(conversationId)
        .map((event) => event.id),
    held: (feed) => feed.events.events.map((event) => event.id),
  };
}
