// The panel's images over a real EventFeed: the log holds a screenshot's head only, the row carries a
// reference, and the page's `image` request gets the whole, checked, read once from the agent server.
import assert from 'node:assert/strict';
import type { AgentEndpoint, AgentEvent, EventFeed } from '../../../../../src/api';
import { IMAGE_HEAD_CHARS } from '../../../../../src/api/agentServer/eventLog';
import { ConversationController } from '../../../../../src/webviews/conversation/host/controller';
import { PanelImages } from '../../../../../src/webviews/conversation/host/panelImages';
import type { HostToWebview, ImageReply } from '../../../../../src/webviews/conversation/shared/protocol';
import { gifAnimation, pngBomb, webpClaiming } from '../../../../shared/imageBombs';
import { paddedPng, SVG_WITH_SCRIPT } from '../../../../shared/images';
import { actionEvent, executionStatus, observationEvent, withEnvelope } from '../../../../shared/agentEvents';
import {
  fakeAgentServer,
  feedOver,
  userMessages,
  type FakeAgentServer,
} from '../../../api/agentServer/fakeAgentServer';
import { eventuallyDefined } from '../../../../shared/eventually';
import { postingControllerDeps } from './controllerDeps';

const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';
const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: CONVERSATION_ID,
  sessionApiKey: 'sandbox-key-images-0001',
};

function screenshotRound(tag: string, screenshot: string): AgentEvent[] {
  const call = { tool: 'browser_get_state', callId: `call-${tag}` };
  const action = actionEvent(call, { kind: 'BrowserGetStateAction', include_screenshot: true });
  const observation = observationEvent(call, `act-${tag}`, {
    kind: 'BrowserObservation',
    content: [{ type: 'text', text: `Page ${tag}` }],
    is_error: false,
    screenshot_data: screenshot,
  });
  return [
    withEnvelope(action, `act-${tag}`, '2026-11-23T19:49:51.000001'),
    withEnvelope(observation, `obs-${tag}`, '2026-11-23T19:49:52.000001'),
  ];
}

/** A panel's host over `feed`, what it posts kept in `posted`, with nothing else wired. */
function controllerOf(feed: EventFeed, posted: HostToWebview[] = []): ConversationController {
  return new ConversationController(postingControllerDeps({ conversationId: CONVERSATION_ID, feed, posted }));
}

describe('conversation panel images', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const dispose of cleanup.splice(0)) dispose();
  });

  /** A controller over a feed of `agent`, once the feed holds its whole history of `events` events. */
  async function openPanel(agent: FakeAgentServer, events: number, posted: HostToWebview[] = []) {
    const feed = feedOver(agent, ENDPOINT);
    const controller = controllerOf(feed, posted);
    cleanup.push(
      () => controller.dispose(),
      () => feed.dispose(),
    );
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.historyComplete && feed.events.size === events ? true : undefined,
    );
    return { feed, controller };
  }

  it('holds a screenshot as its head, and gives the page the whole checked image, read once', async () => {
    const big = paddedPng(300_000);
    const cutShort = big.subarray(0, big.length - 40);
    const agent = fakeAgentServer([
      ...userMessages(1),
      ...screenshotRound('whole', big.toString('base64')),
      ...screenshotRound('cut', cutShort.toString('base64')),
      ...screenshotRound('svg', Buffer.from(SVG_WITH_SCRIPT).toString('base64')),
    ]);
    const reads: string[] = [];
    agent.beforeGetEvent = (id) => void reads.push(id);
    const posted: HostToWebview[] = [];
    const { feed, controller } = await openPanel(agent, 7, posted);

    // the log holds each screenshot's head: 300 KB of base64 is not kept three times over
    assert.ok(feed.events.bytes < 40_000, `the log holds ${feed.events.bytes} bytes`);
    const rows = controller.rows();
    const whole = rows.find((row) => row.id === 'act-whole');
    assert.ok(whole?.kind === 'action');
    assert.deepEqual(whole.images, [
      { event: 'obs-whole', index: 0, width: 320, height: 200, label: 'Screenshot: 320×200 PNG' },
    ]);
    assert.ok(!JSON.stringify(rows).includes(big.toString('base64').slice(0, IMAGE_HEAD_CHARS / 2)));

    const reply = async (event: string): Promise<ImageReply> => {
      posted.length = 0;
      controller.receive({ type: 'image', event, index: 0 });
      return eventuallyDefined(async () =>
        posted.find((message): message is ImageReply => message.type === 'image'),
      );
    };
    const shown = await reply('obs-whole');
    assert.equal(shown.image?.mime, 'image/png');
    assert.equal(shown.image?.base64, big.toString('base64'), 'the whole image, byte for byte');
    assert.deepEqual([shown.image?.width, shown.image?.height], [320, 200]);
    // scrolled back to: kept, not read again
    await reply('obs-whole');
    assert.deepEqual(reads, ['obs-whole']);

    // its head said PNG; the whole is cut short: refused, with why
    assert.deepEqual(await reply('obs-cut'), {
      type: 'image',
      event: 'obs-cut',
      index: 0,
      problem: 'a PNG image cut short',
    });
    // the SVG never got a reference, and asked for anyway it is refused
    const svgRow = rows.find((row) => row.id === 'act-svg');
    assert.ok(svgRow?.kind === 'action' && svgRow.images === undefined);
    assert.match((await reply('obs-svg')).problem ?? '', /SVG/);
    // an event the panel does not hold is not read from the server
    assert.match((await reply('not-held')).problem ?? '', /could not be read/);
    assert.ok(!reads.includes('not-held'));
  });

  it('shows the newest screenshot in the header while the agent browses, and not once it does something else', async () => {
    const navigate = withEnvelope(
      actionEvent(
        { tool: 'browser_navigate', callId: 'call-nav' },
        { kind: 'BrowserNavigateAction', url: 'http://127.0.0.1:8011/shop', new_tab: false },
      ),
      'act-nav',
    );
    const running = withEnvelope(executionStatus('running'), 'state-1', '2026-11-23T19:49:49.000001');
    const agent = fakeAgentServer([
      ...userMessages(1),
      running,
      navigate,
      ...screenshotRound('one', paddedPng(20_000).toString('base64')),
      ...screenshotRound('two', paddedPng(30_000).toString('base64')),
    ]);
    const { feed, controller } = await openPanel(agent, 7);
    await eventuallyDefined(async () => (feed.current.executionStatus === 'running' ? true : undefined));
    assert.deepEqual(controller.header().browser, {
      rowId: 'act-two',
      image: { event: 'obs-two', index: 0, width: 320, height: 200, label: 'Screenshot: 320×200 PNG' },
      url: 'http://127.0.0.1:8011/shop',
    });
    // the agent runs a command: it no longer browses
    const command = withEnvelope(
      actionEvent({ tool: 'terminal', callId: 'call-cmd' }, { kind: 'TerminalAction', command: 'ls' }),
      'act-cmd',
      '2026-11-23T19:49:59.000001',
    );
    agent.events.push(command);
    agent.sockets.at(-1)?.options.onEvent(command);
    await eventuallyDefined(async () => (feed.events.size === 8 ? true : undefined));
    assert.equal(controller.header().browser, null);
  });

  it('says in words why a picture too costly to draw, or broken, is not drawn (issue 34)', async () => {
    const agent = fakeAgentServer([
      ...userMessages(1),
      ...screenshotRound('png', pngBomb().toString('base64')),
      ...screenshotRound('gif', gifAnimation(10_000).toString('base64')),
      ...screenshotRound('webp', webpClaiming(16_384, 16_384).toString('base64')),
      ...screenshotRound('anim', gifAnimation(12).toString('base64')),
    ]);
    const posted: HostToWebview[] = [];
    const { controller } = await openPanel(agent, 9, posted);
    const row = (id: string) => controller.rows().find((candidate) => candidate.id === id);
    // the PNG's head has its sides: the row says at once why it is not drawn, and asks nothing
    const png = row('act-png');
    assert.ok(png?.kind === 'action' && png.images === undefined);
    assert.match(
      png.result ?? '',
      /The screenshot cannot be shown: at 16,384 × 16,384 px it would take 1 GB of memory to draw \(64 MB at most\)\./,
    );
    // the GIF's frames and the WebP's picture are known only whole: the page's request gets why
    const reply = async (event: string): Promise<ImageReply> => {
      posted.length = 0;
      controller.receive({ type: 'image', event, index: 0 });
      return eventuallyDefined(async () =>
        posted.find((message): message is ImageReply => message.type === 'image'),
      );
    };
    assert.equal(
      (await reply('obs-gif')).problem,
      'it is an animation of 10,000 frames of 256 × 256 px (1,000 at most)',
    );
    assert.equal(
      (await reply('obs-webp')).problem,
      'a broken WebP image (its header says 16384×16384, its picture 64×48)',
    );
    // a small animation is drawn, its frames told to the page (which counts them in its budget)
    const animation = await reply('obs-anim');
    assert.deepEqual(
      [animation.image?.width, animation.image?.height, animation.image?.frames],
      [256, 256, 12],
    );
  });

  it('says an image cannot be read while the sandbox cannot be asked, and reads it once it can', async () => {
    const big = paddedPng(100_000);
    const agent = fakeAgentServer([...userMessages(1), ...screenshotRound('p', big.toString('base64'))]);
    let reachable = false;
    agent.beforeGetEvent = () => {
      if (!reachable) throw new Error('connection refused');
    };
    const feed = feedOver(agent, ENDPOINT);
    cleanup.push(() => feed.dispose());
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.historyComplete && feed.events.size === 3 ? true : undefined,
    );
    const images = new PanelImages((id) => feed.wholeEvent(id));
    const first = await images.image('obs-p', 0);
    assert.ok(!first.ok && /could not be read from the sandbox/.test(first.reason));
    reachable = true;
    const second = await images.image('obs-p', 0);
    assert.ok(second.ok && second.image.bytes.equals(big));
  });

  it('keeps checked images up to its byte budget, least recently used out first', async () => {
    const events = new Map<string, AgentEvent>();
    for (const tag of ['a', 'b', 'c']) {
      const [, observation] = screenshotRound(tag, paddedPng(50_000).toString('base64'));
      if (observation) events.set(observation.id, observation);
    }
    let reads = 0;
    const images = new PanelImages(async (id) => {
      reads++;
      return events.get(id);
    }, 120_000);
    await images.image('obs-a', 0);
    await images.image('obs-b', 0);
    await images.image('obs-a', 0); // a used last: b goes first
    await images.image('obs-c', 0);
    assert.ok(images.bytes <= 120_000, `${images.bytes} bytes kept`);
    assert.equal(reads, 3);
    await images.image('obs-a', 0);
    assert.equal(reads, 3, 'a was kept');
    await images.image('obs-b', 0);
    assert.equal(reads, 4, 'b was dropped and read again');
  });
});
