// What pictures cost the conversation page's renderer (issue 34, item 2), in Chromium: the real host
// (ConversationController over an EventFeed of a fake agent server) and the real page, joined as VS Code
// joins them, given the bombs built in test/shared/imageBombs.ts. The renderer's memory is read from
// /proc (VmRSS before, VmHWM after: its peak) of the processes CDP names renderers. The bombs took
// it up by 1.4 GB, now under 150 MB; 16 pictures at the host's cap in view took it up by 520 MB, now
// under 300 MB (one drawn at a time within the page's 96 MB draw budget). And bytes the host passed
// that the browser cannot decode are said in words, not drawn as an empty frame.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AgentEndpoint, AgentEvent } from '../../../../../src/api';
import { ConversationController } from '../../../../../src/webviews/conversation/host/controller';
import type { HostToWebview } from '../../../../../src/webviews/conversation/shared/protocol';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import { fakeAgentServer, feedOver } from '../../../api/agentServer/fakeAgentServer';
import { postingControllerDeps } from '../host/controllerDeps';
import { eventuallyDefined } from '../../../../shared/eventually';
import { animatedWebp, apng, gifAnimation, pngBomb, webpClaiming } from '../../../../shared/imageBombs';
import { fixtureImage } from '../../../../shared/images';
import { header, resendMessages } from './fixtureRows';
import type { Harness } from './harness';
import { usePages } from './pageSuite';

const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';
const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: CONVERSATION_ID,
  sessionApiKey: 'sandbox-key-images-0034',
};
const MB = 1024 * 1024;

/** A message of the agent's carrying `images` (bytes and their declared type) as an ImageContent. */
function imageMessage(id: string, images: [Buffer, string][]): AgentEvent {
  return {
    id,
    timestamp: '2026-11-23T19:49:50.000001',
    source: 'user',
    kind: 'MessageEvent',
    llm_message: {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at these' },
        {
          type: 'image',
          image_urls: images.map(([bytes, mime]) => `data:${mime};base64,${bytes.toString('base64')}`),
        },
      ],
    },
  };
}

/** The renderers' resident memory now (`rss`) and at its highest so far (`peak`), summed, in bytes. */
async function rendererMemory(h: Harness): Promise<{ rss: number; peak: number }> {
  const cdp = await h.browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    let rss = 0;
    let peak = 0;
    for (const process of processInfo.filter((candidate) => candidate.type === 'renderer')) {
      const status = readFileSync(`/proc/${process.id}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      rss += kb('VmRSS') * 1024;
      peak += kb('VmHWM') * 1024;
    }
    return { rss, peak };
  } finally {
    await cdp.detach();
  }
}

describe('conversation page: what pictures cost the renderer (issue 34)', function () {
  this.timeout(120_000);
  const { page } = usePages();
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const dispose of cleanup.splice(0)) dispose();
  });

  /**
   * The page of a conversation holding `event`, with its host: what the page posts goes to the host,
   * what the host posts to the page, as VS Code carries them, until every picture is drawn or says why.
   * The renderers' memory is read before the page loads the conversation and once it is settled.
   */
  async function drawConversation(event: AgentEvent, pictures: number, height = 2400) {
    const agent = fakeAgentServer([event]);
    const feed = feedOver(agent, ENDPOINT);
    const posted: HostToWebview[] = [];
    const controller = new ConversationController(
      postingControllerDeps({ conversationId: CONVERSATION_ID, feed, posted }),
    );
    cleanup.push(
      () => controller.dispose(),
      () => feed.dispose(),
    );
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.historyComplete && feed.events.size === 1 ? true : undefined,
    );

    const h = await page({ height });
    const before = await rendererMemory(h);
    let fromPage = 0;
    let fromHost = 0;
    const relay = async () => {
      const pageMessages = await h.posted();
      for (const message of pageMessages.slice(fromPage)) controller.receive(message);
      fromPage = pageMessages.length;
      while (fromHost < posted.length) await h.post(posted[fromHost++]);
    };
    const shown = () =>
      h.page.evaluate(() =>
        [...document.querySelectorAll('.shot')].map((figure) => ({
          drawn: figure.querySelector('img')?.complete ? (figure.querySelector('img')?.naturalWidth ?? 0) : 0,
          said: figure.querySelector('.shot-failed, .shot-loading')?.textContent ?? '',
          // drawn, said why, or given up by the browser (complete with nothing to show)
          settled: Boolean(
            figure.querySelector('.shot-failed') ||
            figure.textContent?.includes('Not drawn') ||
            figure.querySelector('img')?.complete,
          ),
        })),
      );
    await eventuallyDefined(async () => {
      await relay();
      const figures = await shown();
      return figures.length >= pictures && figures.every((figure) => figure.settled) ? true : undefined;
    }, 60_000).catch(async (error: unknown) => {
      // what the page showed, to tell a slow page from a wrong one
      throw new Error(`${String(error)}: the page shows ${JSON.stringify(await shown())}`);
    });
    await h.page.evaluate(async () => {
      await Promise.allSettled([...document.querySelectorAll('img')].map((img) => img.decode()));
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      );
    });
    const after = await rendererMemory(h);
    const growth = after.peak - before.rss;
    console.log(
      `      renderer: ${Math.round(before.rss / MB)} MB before, ${Math.round(after.rss / MB)} MB after, peak ${Math.round(after.peak / MB)} MB (growth ${Math.round(growth / MB)} MB)`,
    );
    const figures = (await shown()).map(({ drawn, said }) => ({ drawn, said }));
    const text = (await h.page.locator(`[data-row-id="${event.id}"]`).textContent()) ?? '';
    return { growth, figures, text };
  }

  it('draws a screenshot and a small animation, says why each bomb is not drawn, and its renderer grows less than 150 MB', async () => {
    const { growth, figures, text } = await drawConversation(
      imageMessage('m-bombs', [
        [fixtureImage('page.png'), 'image/png'],
        [pngBomb(), 'image/png'],
        [gifAnimation(10_000), 'image/gif'],
        [webpClaiming(16_384, 16_384), 'image/webp'],
        [gifAnimation(12), 'image/gif'],
      ]),
      3,
    );
    assert.ok(growth < 150 * MB, `the renderer grew by ${Math.round(growth / MB)} MB`);
    // the PNG bomb's head has its sides, the small WebP is checked whole: the row says why at once, no box
    assert.match(
      text,
      /An image cannot be shown: at 16,384 × 16,384 px it would take 1 GB of memory to draw/,
    );
    assert.match(
      text,
      /An image cannot be shown: a broken WebP image \(its header says 16384×16384, its picture 64×48\)\./,
    );
    assert.deepEqual(figures, [
      { drawn: 320, said: '' },
      {
        drawn: 0,
        said: 'Cannot be shown: it is an animation of 10,000 frames of 256 × 256 px (1,000 at most).',
      },
      { drawn: 256, said: '' },
    ]);
  });

  it('draws 96 MB of pictures at once, whatever a row holds: 16 of 4,096 × 4,096 px, all in view, grow its renderer less than 300 MB', async () => {
    // each is at the host's cap (64 MB decoded), 16 is an event's most
    const side = pngBomb(4096, 4096);
    const { growth, figures } = await drawConversation(
      imageMessage(
        'm-many',
        Array.from({ length: 16 }, () => [side, 'image/png'] as [Buffer, string]),
      ),
      16,
      // every picture of the row in view: without the draw budget, each would be decoded (1 GB)
      6000,
    );
    // one picture drawn (64 MB; a second would pass 96) and what decoding it takes; the bug took over 500 MB
    assert.ok(growth < 300 * MB, `the renderer grew by ${Math.round(growth / MB)} MB`);
    const waiting = figures.filter((figure) =>
      figure.said.startsWith('Not drawn while other pictures are in view'),
    );
    assert.equal(figures.filter((figure) => figure.drawn === 4096).length, 1);
    assert.equal(waiting.length, 15);
    assert.equal(
      waiting[0]?.said,
      'Not drawn while other pictures are in view: together they would take more than 96 MB of memory. Scroll them out of view to draw this one.',
    );
  });

  it('says in words a picture the browser cannot decode, and draws an APNG and an animated WebP', async () => {
    const h = await page();
    const refs = ['webp', 'apng', 'anim'].map((kind) => ({
      event: 'm-odd',
      index: ['webp', 'apng', 'anim'].indexOf(kind),
      width: 64,
      height: 48,
      label: `Image: 64×48 ${kind}`,
    }));
    const row: Row = {
      id: 'm-odd',
      timestamp: '',
      kind: 'message',
      role: 'user',
      markdown: 'Odd ones',
      images: refs,
    };
    for (const message of resendMessages([row], 1_700_000_000_000, header())) await h.post(message);
    await h.page.waitForFunction(() => document.querySelectorAll('.shot').length === 3);
    // as if a host had passed them: the page must not trust that every checked file decodes
    const replies: [Buffer, 'image/webp' | 'image/png', number][] = [
      [webpClaiming(16_384, 16_384), 'image/webp', 1],
      [apng(3), 'image/png', 3],
      [animatedWebp(2), 'image/webp', 2],
    ];
    for (const [index, [bytes, mime, frames]] of replies.entries())
      await h.post({
        type: 'image',
        event: 'm-odd',
        index,
        image: { mime, base64: bytes.toString('base64'), width: 64, height: 48, frames },
      });
    // the undecodable one is replaced by words once its decode fails; the others are drawn
    await h.page.waitForFunction(() => {
      const figures = [...document.querySelectorAll('.shot')];
      return (
        figures[0]?.querySelector('.shot-failed') &&
        figures.slice(1).every((figure) => (figure.querySelector('img')?.naturalWidth ?? 0) > 0)
      );
    });
    const figures = await h.page.evaluate(() =>
      [...document.querySelectorAll('.shot')].map((figure) => ({
        drawn: figure.querySelector('img')?.naturalWidth ?? 0,
        said: figure.querySelector('.shot-failed')?.textContent ?? '',
      })),
    );
    assert.deepEqual(figures, [
      { drawn: 0, said: 'This picture could not be drawn (the page could not decode its WEBP bytes).' },
      { drawn: 64, said: '' },
      { drawn: 64, said: '' },
    ]);
  });
});
