// A conversation whose events hold pictures, over real HTTP and WebSocket against the agent-server
// double. Scaled down so the tests run in seconds: pictures of 1 MB against a reply cap of 3 MB have
// the proportions of real ones (8 MB pictures against a cap of 20 to 32 MB): two fit a page, three
// do not): the whole history arrives in order and once; an event over the cap on its
// own arrives as the row that says what it was and why it is not shown; the same after a reconnect;
// and a live frame over the socket's cap is read over REST, once, without a reconnect loop.
import assert from 'node:assert/strict';
import {
  AgentServerClient,
  EventFeed,
  openEventSocket,
  type AgentEndpoint,
  type AgentEvent,
  type FeedStatus,
} from '../../../../src/api';
import { Transcript } from '../../../../src/webviews/conversation/host/rows/transcript';
import type { EventInput } from '../../../server/agentServer/agentServer';
import { agentMessage as note } from '../../../shared/agentEvents';
import { eventuallyDefined } from '../../../shared/eventually';
import { useFeedServer } from './feedFixture';

const MB = 1024 * 1024;
const REPLY_CAP = 3 * MB;
/** A picture as its event carries it: a PNG's signature and header, padded to 1 MB of base64. */
const PICTURE = pngBase64(MB);

describe('EventFeed with events of megabytes (pictures)', function () {
  this.timeout(60_000);
  const double = useFeedServer();
  const { stored, held } = double;

  interface Followed {
    feed: EventFeed;
    endpoint: AgentEndpoint;
    statuses: FeedStatus[];
    socketsOpened(): number;
  }

  async function follow(id: string, maxFrameBytes?: number, maxSkimBytes?: number): Promise<Followed> {
    const endpoint = await double.endpointOf(id);
    const statuses: FeedStatus[] = [];
    let opened = 0;
    const feed = new EventFeed({
      resolve: async () => ({ endpoint }),
      clientFor: (target) =>
        new AgentServerClient({
          endpoint: target,
          timeoutMs: 20_000,
          maxResponseBytes: REPLY_CAP,
          maxSkimBytes,
        }),
      openSocket: (options) => {
        opened++;
        return openEventSocket(options);
      },
      maxFrameBytes,
      initialBackoffMs: 50,
      maxBackoffMs: 200,
    });
    feed.onState((state) => {
      if (statuses.at(-1) !== state.status) statuses.push(state.status);
    });
    double.track(feed).start();
    return { feed, endpoint, statuses, socketsOpened: () => opened };
  }

  /** Waits until the feed is live and holds exactly what the double stores (in its order, once). */
  const holdsAll = (feed: EventFeed, id: string) =>
    eventuallyDefined(async () => {
      const done = feed.current.status === 'live' && feed.current.historyComplete;
      return done && held(feed).join() === stored(id).join() ? true : undefined;
    }, 30_000);

  it('reads a history whose pages are over the reply cap whole, in order, once', async () => {
    const id = double.runningConversationId();
    // 40 screenshots between messages (the conversation): 40 MB, a page of 100 is 13 times the cap
    double.server.agent.append(
      id,
      Array.from({ length: 40 }, (_, index) => [screenshot(index), note(`after ${index}`)]).flat(),
    );
    const { feed } = await follow(id);
    await holdsAll(feed, id);
    assert.equal(new Set(held(feed)).size, held(feed).length, 'no event twice');
    assert.equal(feed.current.notice, undefined);
    const screenshots = feed.events.events.filter((event) => event.kind === 'ObservationEvent');
    assert.ok(screenshots.length >= 40);
    assert.ok(
      feed.events.events.every((event) => event.kind !== 'openhands-vscode/OversizedEvent'),
      'every event fit a page of its own size',
    );
  });

  it('shows an event over the cap on its own as a row that says what it was and why it is not shown', async () => {
    const id = double.runningConversationId();
    const [, big] = double.server.agent.append(id, [
      screenshot(1),
      // four pictures in one message: 4 MB, over the 3 MB cap on its own
      {
        kind: 'MessageEvent',
        source: 'user',
        llm_message: {
          role: 'user',
          content: [
            { type: 'text', text: 'four pictures' },
            { type: 'image', image_urls: [1, 2, 3, 4].map(() => `data:image/png;base64,${PICTURE}`) },
          ],
        },
      },
      screenshot(2),
      note('the newest'),
    ]);
    assert.ok(big);
    const { feed } = await follow(id);
    await holdsAll(feed, id);
    assertNotShownRow(feed, big);
    // the events around it are whole: the screenshot after it reads back whole
    const after = await feed.wholeEvent(stored(id).at(-2) ?? '');
    assert.deepEqual(after?.['observation'], {
      kind: 'BrowserObservation',
      output: 'screenshot 2',
      screenshot_data: PICTURE,
    });
  });

  it('after a reconnect, pages back over large events the same way', async () => {
    const id = double.runningConversationId();
    const { feed, socketsOpened } = await follow(id);
    await holdsAll(feed, id);
    assert.equal(socketsOpened(), 1);
    // stored while no socket is open (same turn as the drop): read over REST on the next connection
    double.server.agent.drop(id);
    const [, big] = double.server.agent.append(id, [
      screenshot(3),
      {
        kind: 'ObservationEvent',
        source: 'environment',
        tool_name: 'browser',
        tool_call_id: 'call-big',
        action_id: 'no-such-action',
        observation: {
          kind: 'BrowserObservation',
          output: 'four screenshots',
          screenshot_data: PICTURE.repeat(4),
        },
      },
      screenshot(4),
      screenshot(5),
      note('after the reconnect'),
    ]);
    assert.ok(big);
    await holdsAll(feed, id);
    assert.equal(socketsOpened(), 2);
    const row = new Transcript().append(feed.events.events).end.find((candidate) => candidate.id === big.id);
    assert.ok(row?.kind === 'notice');
    assert.equal(row.title, "A tool's result (BrowserObservation) is too large to show here");
    assert.match(row.detail ?? '', /^It is about 4 MB, more than the 3 MB the extension reads in one reply/);
  });

  it('reads a live frame over the socket cap over REST, once, and goes on live without a loop', async () => {
    const id = double.runningConversationId();
    // frames up to 512 KB: a screenshot of 1 MB ends the socket (ws closes it with 1009)
    const { feed, statuses, socketsOpened } = await follow(id, MB / 2);
    await holdsAll(feed, id);
    const before = statuses.length;
    double.server.agent.append(id, [screenshot(6)]);
    await holdsAll(feed, id);
    assert.equal(socketsOpened(), 2, 'one reconnect for the frame');
    // and the feed is live again: the next event comes over the socket
    double.server.agent.append(id, [note('live again')]);
    await holdsAll(feed, id);
    assert.equal(socketsOpened(), 2);
    assert.equal(new Set(held(feed)).size, held(feed).length, 'no event twice');
    assert.ok(
      !statuses.slice(before).includes('reconnecting'),
      `went on without a failed reconnect: ${statuses.slice(before).join(', ')}`,
    );
  });

  it('stops the older history at an event larger than a skim may read, says so, and stays live', async () => {
    const id = double.runningConversationId();
    const [big] = double.server.agent.append(id, [
      {
        kind: 'ObservationEvent',
        source: 'environment',
        observation: { kind: 'BrowserObservation', output: 'huge', screenshot_data: PICTURE.repeat(4) },
      },
      screenshot(7),
      note('the newest'),
    ]);
    assert.ok(big);
    // a skim reads 3.5 MB at most: the 4 MB event cannot be stepped past
    const { feed, socketsOpened } = await follow(id, undefined, 3.5 * MB);
    const newer = stored(id).slice(-2);
    await eventuallyDefined(
      async () => (feed.current.notice && held(feed).join() === newer.join() ? true : undefined),
      30_000,
    );
    assert.equal(
      feed.current.notice,
      'One event of the history is larger than 4 MB, so the history older than it could not be read.',
    );
    assert.equal(feed.current.status, 'live');
    assert.equal(feed.current.historyComplete, false);
    assert.equal(socketsOpened(), 1, 'no reconnect');
  });

  function assertNotShownRow(feed: EventFeed, big: AgentEvent): void {
    const placeholder = feed.events.events.find((event) => event.id === big.id);
    assert.equal(placeholder?.kind, 'openhands-vscode/OversizedEvent');
    assert.equal(placeholder?.timestamp, big.timestamp);
    const row = new Transcript().append(feed.events.events).end.find((candidate) => candidate.id === big.id);
    assert.ok(row?.kind === 'notice', 'a notice row in its place');
    assert.equal(row.level, 'warning');
    assert.equal(row.timestamp, big.timestamp);
    assert.equal(row.title, 'Your message is too large to show here');
    assert.equal(
      row.detail,
      'It is about 4 MB, more than the 3 MB the extension reads in one reply, so its content was not loaded. ' +
        'Open in Browser, at the top of this panel, shows the conversation in OpenHands.',
    );
  }
});

function screenshot(index: number): EventInput {
  return {
    kind: 'ObservationEvent',
    source: 'environment',
    tool_name: 'browser',
    tool_call_id: `call-${index}`,
    action_id: `no-action-${index}`,
    observation: { kind: 'BrowserObservation', output: `screenshot ${index}`, screenshot_data: PICTURE },
  };
}

/** `chars` of base64: a PNG signature and IHDR chunk (1×1), then zero bytes. */
function pngBase64(chars: number): string {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  // 33 bytes: 44 characters of base64 with no padding, so the zeros after them stay valid base64
  return header.toString('base64') + 'A'.repeat(chars - 44);
}
