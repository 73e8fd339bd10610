// The conversation feed against a broken or hostile agent-server double, over real HTTP and
// WebSocket: sockets that go live and are closed again and again get an exponential schedule, not a
// storm; history that pages for ever stops and says so; a flood while the history is slow stays
// bounded in bytes and says so; a dropped full_state does not hold the feed at "connecting".
// Timings are the feed's own schedule scaled down 25 times (1 s → 40 ms, a minute → 2.4 s).
import assert from 'node:assert/strict';
import { AgentServerClient, EventFeed, type AgentEndpoint, type EventFeedOptions } from '../../../../src/api';
import type { EventInput } from '../../../server/agentServer/agentServer';
import type { SocketHostility } from '../../../server/agentServer/settings';
import { eventuallyDefined } from '../../../shared/eventually';
import { useFeedServer } from './feedFixture';

const SCALE = 25;
const MINUTE_MS = 60_000 / SCALE;
/** The real schedule, scaled: 1 s doubling to 30 s, healthy after 10 s. */
const SCALED: Partial<EventFeedOptions> = {
  initialBackoffMs: 1000 / SCALE,
  maxBackoffMs: 30_000 / SCALE,
  healthyAfterMs: 10_000 / SCALE,
};

describe('EventFeed against a hostile agent-server double', function () {
  this.timeout(30_000);
  const double = useFeedServer();
  const { stored, held } = double;

  async function runningConversation(): Promise<{ id: string; endpoint: AgentEndpoint }> {
    const id = double.runningConversationId();
    return { id, endpoint: await double.endpointOf(id) };
  }

  function follow(endpoint: AgentEndpoint, options: Partial<EventFeedOptions> = {}): EventFeed {
    const feed = new EventFeed({
      resolve: async () => ({ endpoint }),
      clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 5000 }),
      ...options,
    });
    double.track(feed).start();
    return feed;
  }

  const searches = (id: string) =>
    double.server.requests.filter((request) => request.path.endsWith(`${id}/events/search`)).length;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** `count` user messages of about `bytes` each. */
  const messages = (count: number, bytes: number): EventInput[] =>
    Array.from({ length: count }, (_, i) => ({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `${i} ${'x'.repeat(bytes)}` }] },
    }));

  describe('a socket that goes live and is closed again: reconnects per minute', () => {
    const patterns: [string, SocketHostility][] = [
      [
        '1011 keepalive ping timeout',
        { kind: 'close', code: 1011, reason: 'keepalive ping timeout', afterMs: 20 },
      ],
      ['1013 try again later', { kind: 'close', code: 1013, reason: 'Too many connections', afterMs: 20 }],
      ['a protocol error', { kind: 'protocol_error', afterMs: 20 }],
      ['closed at once every time', { kind: 'close', code: 1000, reason: '', afterMs: 0 }],
    ];
    for (const [name, hostility] of patterns) {
      it(`${name}: an exponential schedule up to the ceiling, not once a second`, async () => {
        const { id, endpoint } = await runningConversation();
        double.server.agent.setOptions({ wsHostility: hostility });
        const retries: number[] = [];
        const feed = follow(endpoint, SCALED);
        feed.onState((state) => {
          if (state.status === 'reconnecting' && state.retryAt !== undefined) retries.push(state.retryAt);
        });
        const readsBefore = searches(id);
        await sleep(MINUTE_MS);
        const reconnects = new Set(retries).size;
        // 1, 2, 4, 8, 16, 30 s (±25 %): at most 6 in the first minute; once a second would be 60
        assert.ok(reconnects >= 3, `${reconnects} reconnects: the server does close the socket`);
        assert.ok(reconnects <= 8, `${reconnects} reconnects in a minute`);
        assert.ok(searches(id) - readsBefore <= 9, `${searches(id) - readsBefore} history reads in a minute`);
      });
    }

    it('resets to the first step only after a connection stayed healthy', async () => {
      const { endpoint } = await runningConversation();
      double.server.agent.setOptions({
        wsHostility: { kind: 'close', code: 1011, reason: 'keepalive ping timeout', afterMs: 20 },
      });
      const feed = follow(endpoint, SCALED);
      const delays: number[] = [];
      feed.onState((state) => {
        if (state.status === 'reconnecting' && state.retryAt !== undefined)
          delays.push(state.retryAt - Date.now());
      });
      await eventuallyDefined(async () => (delays.length >= 4 ? true : undefined), 5000);
      assert.ok((delays[3] ?? 0) > 4 * (1000 / SCALE), `the fourth wait is ${delays[3]} ms`);
      // the server behaves: the next connection lasts, and its drop starts the schedule again
      double.server.agent.setOptions({ wsHostility: null });
      feed.wake();
      await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined), 5000);
      await sleep((10_000 / SCALE) * 1.5);
      delays.length = 0;
      double.server.agent.drop(endpoint.conversationId);
      await eventuallyDefined(async () => (delays.length >= 1 ? true : undefined), 5000);
      assert.ok((delays[0] ?? Infinity) <= 1.25 * (1000 / SCALE) + 5, `the first wait is ${delays[0]} ms`);
    });
  });

  describe('history that pages for ever', () => {
    it('older pages that are empty, each naming a fresh next page: stops and says the history is incomplete', async () => {
      const { id, endpoint } = await runningConversation();
      double.server.agent.seedEvents(id, 500);
      double.server.agent.setOptions({ pagingHostility: 'empty' });
      const feed = follow(endpoint);
      await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
      await sleep(1000);
      assert.ok(searches(id) <= 3, `${searches(id)} pages read`);
      assert.equal(feed.current.historyComplete, false);
      assert.match(feed.current.notice ?? '', /incomplete/i);
      assert.deepEqual(held(feed), stored(id).slice(-100), 'the newest page is shown');
    });

    it('older pages that repeat events already held: stops and says the history is incomplete', async () => {
      const { id, endpoint } = await runningConversation();
      double.server.agent.seedEvents(id, 500);
      double.server.agent.setOptions({ pagingHostility: 'repeat' });
      const feed = follow(endpoint);
      await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
      await sleep(1000);
      assert.ok(searches(id) <= 3, `${searches(id)} pages read`);
      assert.match(feed.current.notice ?? '', /incomplete/i);
      assert.deepEqual(held(feed), stored(id).slice(-100));
    });

    it('a reconnect whose older catch-up pages repeat the newest for ever: goes live with what it read, and says so', async () => {
      const { id, endpoint } = await runningConversation();
      const feed = follow(endpoint, { initialBackoffMs: 50, maxBackoffMs: 100 });
      await eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined));
      double.server.agent.drop(id, { refuseMs: 300 });
      await eventuallyDefined(async () => (feed.current.status === 'reconnecting' ? true : undefined));
      // more than a page stored meanwhile, and every older page repeats the newest
      double.server.agent.append(id, messages(150, 10));
      double.server.agent.setOptions({ pagingHostility: 'repeat' });
      const readsBefore = searches(id);
      await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined), 5000);
      await sleep(1000);
      assert.ok(searches(id) - readsBefore <= 3, `${searches(id) - readsBefore} pages read`);
      assert.match(feed.current.notice ?? '', /incomplete/i);
      assert.deepEqual(held(feed).slice(-100), stored(id).slice(-100), 'the newest page is shown, once');
    });

    it('an honest history longer than the paging ceiling: stops at the ceiling and says so', async () => {
      const { id, endpoint } = await runningConversation();
      double.server.agent.seedEvents(id, 2000);
      const feed = follow(endpoint, { maxHistoryPages: 5 });
      await eventuallyDefined(async () => (feed.current.notice ? true : undefined), 5000);
      await sleep(300);
      // the newest page, then five older ones
      assert.equal(searches(id), 6);
      assert.equal(feed.events.size, 600);
      assert.match(feed.current.notice ?? '', /incomplete/i);
    });
  });

  describe('memory under a flood', () => {
    it('a flood while the history is slow: the live buffer stays within its bytes, says so, and the events are read later', async () => {
      const { id, endpoint } = await runningConversation();
      const maxBufferedBytes = 256 * 1024;
      // the first read of history takes a while; the socket floods meanwhile
      double.server.faults.add({ kind: 'latency', ms: 1500, times: 1, match: { path: /\/events\/search$/ } });
      const feed = follow(endpoint, { maxBufferedBytes, initialBackoffMs: 50, maxBackoffMs: 100 });
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, feed.bufferedBytes)), 2);
      try {
        await eventuallyDefined(async () => (double.server.agent.socketCount(id) === 1 ? true : undefined));
        await sleep(100);
        double.server.agent.append(id, messages(200, 16 * 1024));
        await eventuallyDefined(
          async () => (/buffer/i.test(feed.current.detail ?? '') ? true : undefined),
          5000,
        );
        assert.equal(feed.current.status, 'reconnecting');
        assert.match(feed.current.detail ?? '', /256 KB/);
      } finally {
        clearInterval(sampler);
      }
      assert.ok(peak <= maxBufferedBytes, `${peak} bytes buffered`);
      // nothing is lost: the next connection reads them over REST
      await eventuallyDefined(
        async () =>
          feed.current.status === 'live' &&
          feed.current.historyComplete &&
          held(feed).length === stored(id).length
            ? true
            : undefined,
        8000,
      );
      assert.deepEqual(held(feed), stored(id));
    });

    it('a flood of small values while the history is slow: the live buffer weighs them as the heap holds them, not by their frames', async () => {
      const { id, endpoint } = await runningConversation();
      const maxBufferedBytes = 256 * 1024;
      double.server.faults.add({ kind: 'latency', ms: 1500, times: 1, match: { path: /\/events\/search$/ } });
      const feed = follow(endpoint, { maxBufferedBytes, initialBackoffMs: 50, maxBackoffMs: 100 });
      await eventuallyDefined(async () => (double.server.agent.socketCount(id) === 1 ? true : undefined));
      await sleep(100);
      // 20 frames of about 9 KB (180 KB, under the limit), each about 170 KB on the heap
      const emptyArrays = Array.from({ length: 20 }, () => ({
        kind: 'ObservationEvent',
        source: 'environment',
        observation: { kind: 'X', items: Array.from({ length: 3000 }, () => []) },
      }));
      double.server.agent.append(id, emptyArrays);
      await eventuallyDefined(
        async () => (/buffer/i.test(feed.current.detail ?? '') ? true : undefined),
        5000,
      );
      assert.match(feed.current.detail ?? '', /256 KB/);
      // nothing is lost: the next connection reads them over REST
      await eventuallyDefined(
        async () =>
          feed.current.status === 'live' && held(feed).length === stored(id).length ? true : undefined,
        8000,
      );
    });

    it('a flood past the event log budget: held bytes stay within it, and the panel is told', async () => {
      const { id, endpoint } = await runningConversation();
      const maxEventBytes = 1024 * 1024;
      const feed = follow(endpoint, { maxEventBytes });
      await eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined));
      double.server.agent.append(id, messages(200, 16 * 1024));
      await eventuallyDefined(async () => (feed.current.notice ? true : undefined), 5000);
      assert.ok(feed.events.bytes <= maxEventBytes, `${feed.events.bytes} bytes held`);
      assert.ok(feed.events.size < stored(id).length);
      assert.match(feed.current.notice ?? '', /1 MB/);
    });
  });

  it('a dropped full_state: live as soon as the key is taken, not at the 15 s deadline', async () => {
    const { id, endpoint } = await runningConversation();
    double.server.agent.setOptions({ wsDropFullState: true });
    const feed = follow(endpoint);
    const started = Date.now();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined), 6000);
    assert.ok(Date.now() - started < 5000, `live after ${Date.now() - started} ms`);
    assert.deepEqual(held(feed), stored(id));
    double.server.agent.append(id, messages(1, 10));
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined));
  });
});
