// The conversation feed against an agent server in memory (each page and socket in the test's hands):
// a read of the history that fails or is cut short is taken up again; a hostile frame is logged safely.
import assert from 'node:assert/strict';
import { ApiError, EventFeed, type AgentEndpoint, type EventLog } from '../../../../src/api';
import { eventuallyDefined } from '../../../shared/eventually';
import { fakeAgentServer, userMessages, type FakeAgentServer } from './fakeAgentServer';

const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: '0123456789abcdef0123456789abcdef',
  sessionApiKey: 'sandbox-key-recovery-0123',
};

describe('EventFeed: history read again after a failure, hostile frames', () => {
  const feeds: EventFeed[] = [];
  afterEach(() => {
    for (const feed of feeds.splice(0)) feed.dispose();
  });

  function follow(agent: FakeAgentServer, events?: EventLog): EventFeed {
    const feed = new EventFeed({
      resolve: async () => ({ endpoint: ENDPOINT }),
      clientFor: (endpoint) => agent.clientFor(endpoint),
      openSocket: (options) => agent.openSocket(options),
      initialBackoffMs: 5,
      maxBackoffMs: 10,
      events,
    });
    feeds.push(feed);
    feed.start();
    return feed;
  }

  const ids = (feed: EventFeed) => feed.events.events.map((event) => event.id);
  const complete = (feed: EventFeed) =>
    eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined), 2000);

  it('carries on reading older pages on the next connection when one failed', async () => {
    const agent = fakeAgentServer(userMessages(250));
    let failed = false;
    agent.beforeSearch = (query) => {
      // the first older page fails once (a blip while the history is read)
      if (query.pageId === 'm150' && !failed) {
        failed = true;
        throw new ApiError({ kind: 'network', message: 'The agent server went away.' });
      }
    };
    const feed = follow(agent);
    await eventuallyDefined(async () => (failed && feed.current.status === 'live' ? true : undefined));
    assert.equal(feed.events.size, 100, 'the newest page is held');
    // the socket drops: the next connection must read the rest
    agent.sockets[0]?.end();
    await eventuallyDefined(async () => (agent.sockets.length === 2 ? true : undefined));
    await complete(feed);
    assert.deepEqual(
      ids(feed),
      agent.events.map((event) => event.id),
    );
  });

  it('reads the older history a closed feed had not reached when its events are reopened', async () => {
    const agent = fakeAgentServer(userMessages(250));
    // older pages never come while the first feed lives (it is closed mid-history)
    agent.beforeSearch = (query, signal) =>
      query.pageId === undefined
        ? undefined
        : new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    const first = follow(agent);
    await eventuallyDefined(async () => (first.current.status === 'live' ? true : undefined));
    assert.equal(first.events.size, 100);
    first.dispose();
    agent.beforeSearch = undefined;
    // the panel opened again: a new feed on what the closed one held
    const again = follow(agent, first.events);
    await complete(again);
    assert.deepEqual(
      ids(again),
      agent.events.map((event) => event.id),
    );
  });

  it('asked to recheck, it closes its socket and asks where the agent server is: offline when the sandbox stopped', async () => {
    const agent = fakeAgentServer(userMessages(3));
    let running = true;
    const feed = new EventFeed({
      resolve: async () =>
        running ? { endpoint: ENDPOINT } : { endpoint: undefined, reason: 'The sandbox is paused.' },
      clientFor: (endpoint) => agent.clientFor(endpoint),
      openSocket: (options) => agent.openSocket(options),
      initialBackoffMs: 60_000,
    });
    feeds.push(feed);
    feed.start();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
    // still running: a recheck comes back live at once, on a new socket, without a backoff
    feed.recheck();
    await eventuallyDefined(async () =>
      agent.sockets.length === 2 && feed.current.status === 'live' ? true : undefined,
    );
    assert.equal(agent.sockets[0]?.closed, true);
    running = false;
    feed.recheck();
    await eventuallyDefined(async () => (feed.current.status === 'offline' ? true : undefined));
    assert.equal(feed.current.detail, 'The sandbox is paused.');
    assert.equal(feed.events.size, 3, 'what it held stays');
    assert.equal(agent.sockets.at(-1)?.closed, true);
  });

  it("logs a server error frame's code without the sandbox key and cut short", async () => {
    const agent = fakeAgentServer(userMessages(1));
    const logs: string[] = [];
    const feed = new EventFeed({
      resolve: async () => ({ endpoint: ENDPOINT }),
      clientFor: (endpoint) => agent.clientFor(endpoint),
      openSocket: (options) => agent.openSocket(options),
      log: (line) => logs.push(line),
    });
    feeds.push(feed);
    feed.start();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
    agent.sockets[0]?.options.onEvent({
      id: 'err-1',
      timestamp: '',
      source: 'environment',
      kind: 'ServerErrorEvent',
      code: `AuthError: bad key ${ENDPOINT.sessionApiKey} ${'x'.repeat(100_000)}`,
      detail: 'no',
    });
    const line = logs.find((entry) => entry.includes('AuthError'));
    assert.ok(line, logs.join('\n'));
    assert.ok(!line.includes(ENDPOINT.sessionApiKey ?? ''), line.slice(0, 200));
    assert.ok(line.length < 1000, `a ${line.length}-character log line`);
  });
});
