// The conversation feed when its socket goes silent but stays open (a half-open connection: the
// sandbox cut off, nobody closed the TCP connection), against the agent-server double over real HTTP
// and WebSocket: the feed says it is reconnecting and why, and reads back what it missed, once, in order.
import assert from 'node:assert/strict';
import { AgentServerClient, EventFeed, type FeedState } from '../../../../src/api';
import { userMessage } from '../../../shared/agentEvents';
import { eventuallyDefined } from '../../../shared/eventually';
import { useFeedServer } from './feedFixture';

const PING_INTERVAL_MS = 50;
const PONG_TIMEOUT_MS = 100;

describe('EventFeed: a silent socket', function () {
  this.timeout(20_000);
  const double = useFeedServer();
  const { stored, held } = double;

  it('is given up by the keepalive; the feed reconnects and reads what it missed once, in order', async () => {
    const id = double.runningConversationId();
    const endpoint = await double.endpointOf(id);
    const feed = double.track(
      new EventFeed({
        resolve: async () => ({ endpoint }),
        clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 5000 }),
        pingIntervalMs: PING_INTERVAL_MS,
        pongTimeoutMs: PONG_TIMEOUT_MS,
        initialBackoffMs: 20,
        maxBackoffMs: 50,
      }),
    );
    const states: FeedState[] = [];
    feed.onState((state) => states.push(state));
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.status === 'live' && feed.current.historyComplete ? true : undefined,
    );
    double.server.agent.append(id, [userMessage('before the silence')]);
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined));

    assert.equal(double.server.agent.silence(id), 1);
    // published to the silenced socket, which never delivers them: only the read back can
    double.server.agent.append(id, [userMessage('while silent 1'), userMessage('while silent 2')]);
    const dropped = await eventuallyDefined(
      async () => states.find((state) => state.status === 'reconnecting' && state.silentMs !== undefined),
      5000,
    );
    assert.equal(dropped.failure, 'timeout');
    assert.ok(
      (dropped.silentMs ?? 0) >= PING_INTERVAL_MS + PONG_TIMEOUT_MS,
      `given up after ${dropped.silentMs} ms`,
    );
    assert.match(dropped.detail ?? '', /went silent/);
    assert.ok(!(dropped.detail ?? '').includes(endpoint.sessionApiKey ?? '<none>'), 'the key leaked');

    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined), 5000);
    await eventuallyDefined(async () => (held(feed).length === stored(id).length ? true : undefined), 5000);
    assert.deepEqual(held(feed), stored(id), 'every event once, in storage order');
    assert.equal(feed.current.silentMs, undefined, 'live again: no silence to tell');
    assert.equal(double.server.agent.socketCount(id), 1, 'one socket again');
  });
});
