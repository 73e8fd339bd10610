// The conversation feed against the agent-server double, over real HTTP and WebSocket: the whole
// history in storage order, live events once, a dropped socket recovered without gaps or duplicates,
// older agent servers (query auth), a paused sandbox, and 10,000 events with the newest page first.
import assert from 'node:assert/strict';
import { AgentServerClient, EventFeed, type AgentEndpoint, type FeedTarget } from '../../../../src/api';
import { agentMessage, executionStatus, statsUpdate, userMessage } from '../../../shared/agentEvents';
import { eventuallyDefined } from '../../../shared/eventually';
import { useFeedServer } from './feedFixture';

interface Followed {
  feed: EventFeed;
  endpoint: AgentEndpoint;
  logs: string[];
  /** Sizes of each batch as the feed reported it. */
  batches: { prepended: number; appended: number }[];
  /** The ids the feed held when it reported its first batch (older pages may follow at once). */
  heldAtFirstBatch: () => string[] | undefined;
}

describe('EventFeed against the agent-server double', function () {
  this.timeout(20_000);
  const double = useFeedServer();
  const { stored, held } = double;

  async function follow(conversationId: string, resolve?: () => Promise<FeedTarget>): Promise<Followed> {
    const endpoint = await double.endpointOf(conversationId);
    const logs: string[] = [];
    const batches: Followed['batches'] = [];
    const feed = new EventFeed({
      resolve: resolve ?? (async () => ({ endpoint })),
      clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 5000 }),
      initialBackoffMs: 50,
      maxBackoffMs: 200,
      log: (line) => logs.push(line),
    });
    let heldAtFirstBatch: string[] | undefined;
    feed.onEvents((change) => {
      heldAtFirstBatch ??= held(feed);
      batches.push({ prepended: change.prepended.length, appended: change.appended.length });
    });
    double.track(feed).start();
    return { feed, endpoint, logs, batches, heldAtFirstBatch: () => heldAtFirstBatch };
  }

  const whole = (feed: EventFeed) =>
    eventuallyDefined(
      async () => (feed.current.status === 'live' && feed.current.historyComplete ? true : undefined),
      5000,
    );

  it('reads the whole history in storage order and goes live on one socket', async () => {
    const id = double.runningConversationId();
    const { feed, logs } = await follow(id);
    await whole(feed);
    assert.deepEqual(held(feed), stored(id));
    assert.equal(double.server.agent.socketCount(id), 1);
    assert.ok(feed.current.executionStatus, 'the status from the snapshot');
    assert.deepEqual(logs, []);
    feed.dispose();
    await eventuallyDefined(async () => (double.server.agent.socketCount(id) === 0 ? true : undefined));
  });

  it('takes live events once, follows the status, and shows then drops the streaming reply', async () => {
    const id = double.runningConversationId();
    const { feed } = await follow(id);
    await whole(feed);
    double.server.agent.stream(id, ['Hel', 'lo']);
    await eventuallyDefined(async () => (feed.current.streaming?.text === 'Hello' ? true : undefined));
    double.server.agent.append(id, [
      executionStatus('running'),
      agentMessage('Hello'),
      executionStatus('finished'),
    ]);
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined));
    assert.deepEqual(held(feed), stored(id));
    assert.equal(feed.current.streaming, undefined, 'the final message replaces the streaming reply');
    assert.equal(feed.current.executionStatus, 'finished');
  });

  it('follows the cost and tokens of each stats update as it comes, asking nothing for them', async () => {
    const id = double.runningConversationId();
    const { feed } = await follow(id);
    await whole(feed);
    double.server.requests.length = 0;
    for (const [cost, prompt] of [
      [0.12, 40_000],
      [0.31, 95_000],
      [0.42, 200_000],
    ] as const) {
      double.server.agent.append(id, [
        statsUpdate({
          agent: { cost, prompt, completion: 900, contextWindow: 200_000, perTurn: prompt / 2 },
        }),
      ]);
      const usage = await eventuallyDefined(async () =>
        feed.current.usage?.main.cost === cost ? feed.current.usage : undefined,
      );
      assert.equal(usage.main.tokens.prompt, prompt);
    }
    assert.deepEqual(double.server.requests, [], 'no request for any of them');
  });

  it('the scripted agent reports each LLM call’s usage, and the app server lists it', async () => {
    const id = double.runningConversationId();
    const { feed } = await follow(id);
    await whole(feed);
    const before = feed.current.usage?.main.cost ?? 0;
    double.server.agent.append(id, [userMessage('Run one shell command, then finish.')]);
    double.server.agent.run(id);
    const usage = await eventuallyDefined(async () => {
      const now = feed.current.usage;
      return now && now.main.cost > before && feed.current.executionStatus === 'finished' ? now : undefined;
    }, 10_000);
    assert.ok(usage.main.tokens.prompt > 0 && usage.main.contextWindow > 0 && usage.main.lastTurnTokens > 0);
    const [listed] = await double.app.getConversations([id]);
    assert.equal(listed?.metrics?.accumulated_cost, usage.main.cost, 'the list says the agent’s cost');
    assert.equal(listed?.metrics?.accumulated_token_usage?.prompt_tokens, usage.main.tokens.prompt);
  });

  it('recovers from a dropped socket: reconnects, reads what it missed, no duplicates', async () => {
    const id = double.runningConversationId();
    const { feed } = await follow(id);
    await whole(feed);
    const states: string[] = [];
    feed.onState((state) => states.push(state.status));
    double.server.agent.drop(id, { refuseMs: 300 });
    await eventuallyDefined(async () => (feed.current.status === 'reconnecting' ? true : undefined));
    // stored while the feed cannot connect: only the backfill can bring these
    double.server.agent.append(id, [userMessage('while away 1'), userMessage('while away 2')]);
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined), 5000);
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined));
    assert.deepEqual(held(feed), stored(id), 'every event once, in storage order');
    assert.ok(states.includes('reconnecting'));
    assert.equal(double.server.agent.socketCount(id), 1, 'one socket again');
  });

  it('follows an older agent server: first-message auth refused, query auth used', async () => {
    double.server.agent.setOptions({ legacy: true });
    const id = double.runningConversationId();
    const { feed, logs } = await follow(id);
    await whole(feed);
    assert.deepEqual(held(feed), stored(id));
    assert.ok(
      logs.some((line) => /older query-parameter auth/.test(line)),
      logs.join('\n'),
    );
    double.server.agent.append(id, [{ kind: 'PauseEvent', source: 'user' }]);
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined));
  });

  it('says offline when there is nothing to follow, and starts when woken', async () => {
    const id = double.runningConversationId();
    const endpoint = await double.endpointOf(id);
    let paused = true;
    const { feed } = await follow(id, async () =>
      paused ? { endpoint: undefined, reason: 'The sandbox is paused.' } : { endpoint },
    );
    await eventuallyDefined(async () => (feed.current.status === 'offline' ? true : undefined));
    assert.equal(feed.current.detail, 'The sandbox is paused.');
    assert.equal(double.server.agent.socketCount(id), 0);
    paused = false;
    feed.wake();
    await whole(feed);
    assert.deepEqual(held(feed), stored(id));
  });

  it('stops trying after repeated refusals (a wrong key), without the key in what it says', async () => {
    const id = double.runningConversationId();
    const real = await double.endpointOf(id);
    const wrong: AgentEndpoint = { ...real, sessionApiKey: 'wrong-sandbox-key-123456' };
    const feed = new EventFeed({
      resolve: async () => ({ endpoint: wrong }),
      clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 2000 }),
      initialBackoffMs: 10,
      maxBackoffMs: 20,
      maxRefusals: 2,
    });
    double.track(feed).start();
    await eventuallyDefined(async () => (feed.current.status === 'failed' ? true : undefined), 5000);
    assert.match(feed.current.detail ?? '', /refused/);
    assert.ok(!(feed.current.detail ?? '').includes('wrong-sandbox-key-123456'));
  });

  it('cuts a huge string on the way in and reads the event whole again on request', async () => {
    const large = double.server.agent.conversations().find((c) => c.has_large_output);
    assert.ok(large, 'the seed has a conversation with a ~200 KB output');
    const sandbox = double.server.state.sandboxes.find((s) => s.id === large.sandbox_id);
    assert.ok(sandbox);
    sandbox.status = 'RUNNING';
    const { feed } = await follow(large.id);
    await whole(feed);
    const huge = double.server.agent.events(large.id).find((event) => JSON.stringify(event).length > 100_000);
    assert.ok(huge);
    assert.equal(feed.events.wasCut(huge.id), true);
    assert.ok(
      JSON.stringify(feed.events.events.find((event) => event.id === huge.id)).length < 80_000,
      'held cut',
    );
    const [again] = await feed.wholeEvents([huge.id]);
    assert.equal(JSON.stringify(again?.['observation']), JSON.stringify(huge['observation']), 'read whole');
  });

  it('10,000 events: the newest page comes first, then older pages, all in order', async () => {
    const id = double.runningConversationId();
    double.server.agent.seedEvents(id, 10_000);
    const { feed, batches, heldAtFirstBatch } = await follow(id);
    const started = Date.now();
    await eventuallyDefined(async () => (feed.events.size > 0 ? true : undefined));
    const firstPaintMs = Date.now() - started;
    assert.deepEqual(batches[0], { prepended: 0, appended: 100 }, 'the newest 100 first');
    // as the first batch left them: by the time the poll above sees it, older pages may have come too
    assert.deepEqual(heldAtFirstBatch(), stored(id).slice(-100));
    await whole(feed);
    assert.equal(feed.events.size, 10_000);
    assert.deepEqual(held(feed), stored(id));
    assert.ok(firstPaintMs < 2000, `the newest page took ${firstPaintMs} ms`);
  });
});
