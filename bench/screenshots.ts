// A conversation of 500 browser screenshots (bench/screenshotConversation.ts), host and page in one
// run. Host: the feed and the panel's controller over real HTTP and WebSocket against the
// agent-server double, in a child process so this process's heap is the panel's alone: time to the
// first rows, what the event log holds, the images the panel keeps, the heap after GC vs the same
// rounds without screenshots. Page: the controller's messages in Chromium (the harness of
// test/unit/webviews/conversation/webview), the first paint's image requests answered by the controller, then the
// whole transcript scrolled top to bottom with every request answered: what the page holds after.
// Run by `npm run bench`, or alone: `npx tsx bench/screenshots.ts`.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CDPSession, Page } from 'playwright-core';
import {
  AgentServerClient,
  agentEndpointOf,
  EventFeed,
  OpenHandsClient,
  type AppConversation,
} from '../src/api';
import { ConversationController } from '../src/webviews/conversation/host/controller';
import { PANEL_IMAGE_BUDGET } from '../src/webviews/conversation/host/panelImages';
import type { HostToWebview } from '../src/webviews/conversation/shared/protocol';
import { PAGE_IMAGE_BUDGET } from '../src/webviews/conversation/webview/pageImages';
import {
  hasChromium,
  launchChromium,
  openHarness,
  type HarnessWindow,
} from '../test/unit/webviews/conversation/webview/harness';
import { idleSteering } from '../test/unit/webviews/conversation/host/steeringFake';
import { build, FIRST_PAINT_BUDGET_MS, firstPaint } from './conversationPaint';
import {
  ROUNDS,
  SCREENSHOT_BYTES,
  storeConversation,
  type StoredConversation,
} from './screenshotConversation';
import { startServerProcess } from './serverProcess';

const RUNS = 3;
const MB = 1024 * 1024;
/** How long the controller may take to answer the page's image requests before the bench gives up. */
const ANSWER_TIMEOUT_MS = 60_000;
/** A bound on the scroll (it takes about 450 steps): a list that never ends stops, and says so. */
const MAX_SCROLL_STEPS = 5000;

// `global.gc` without starting Node with --expose-gc: the heap is measured after a full collection
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

interface OpenPanel {
  controller: ConversationController;
  firstRowsMs: number;
  wholeMs: number;
  eventsHeld: number;
  logBytes: number;
  /** Where the controller's messages go from now on (nowhere at first: no page yet). */
  forward(to: (message: HostToWebview) => void): void;
  dispose(): void;
}

/** A panel's host half, as the extension opens one: the feed, and the controller fed by it. */
async function openPanel(conversation: AppConversation, events: number): Promise<OpenPanel> {
  const endpoint = agentEndpointOf(conversation);
  if (!endpoint) throw new Error('the bench conversation has no agent server');
  const feed = new EventFeed({
    resolve: async () => ({ endpoint }),
    clientFor: (target) => new AgentServerClient({ endpoint: target }),
  });
  let deliver: (message: HostToWebview) => void = () => undefined;
  let started = 0;
  let firstRowsMs = 0;
  const controller = new ConversationController({
    conversationId: conversation.id,
    feed,
    conversation: () => conversation,
    post: (message) => {
      if (!firstRowsMs && message.type === 'rows' && message.rows.length > 0)
        firstRowsMs = performance.now() - started;
      deliver(message);
    },
    secrets: () => [conversation.session_api_key ?? undefined],
    openLink: () => undefined,
    resumeSandbox: () => undefined,
    openInBrowser: () => undefined,
    showLog: () => undefined,
    warn: (message) => console.warn(message),
    steer: idleSteering(),
  });
  const whole = new Promise<number>((resolve) => {
    const watching = feed.onState((state) => {
      if (!state.historyComplete || feed.events.size < events) return;
      watching.dispose();
      resolve(performance.now() - started);
    });
  });
  started = performance.now();
  feed.start();
  const wholeMs = await whole;
  return {
    controller,
    firstRowsMs,
    wholeMs,
    eventsHeld: feed.events.size,
    logBytes: feed.events.bytes,
    forward: (to) => (deliver = to),
    dispose: () => {
      controller.dispose();
      feed.dispose();
    },
  };
}

interface Openings {
  firstRowsMs: number;
  wholeMs: number;
}

/** Median of `RUNS` openings, each disposed (`warmUp`: one more first, not counted). */
async function timeOpenings(
  conversation: AppConversation,
  events: number,
  warmUp: boolean,
): Promise<Openings> {
  if (warmUp) (await openPanel(conversation, events)).dispose();
  const runs: OpenPanel[] = [];
  for (let i = 0; i < RUNS; i++) {
    const panel = await openPanel(conversation, events);
    panel.dispose();
    runs.push(panel);
  }
  return { firstRowsMs: median(runs.map((r) => r.firstRowsMs)), wholeMs: median(runs.map((r) => r.wholeMs)) };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

interface HostHeap {
  heapUsed: number;
  /** ArrayBuffers and Buffers (the checked images' bytes live here, outside the JS heap). */
  arrayBuffers: number;
}

async function hostHeapAfterGc(): Promise<HostHeap> {
  // sockets closing and replies settling first; twice, for what the first pass only unlinked
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
}

function grown(after: HostHeap, before: HostHeap): HostHeap {
  return {
    heapUsed: after.heapUsed - before.heapUsed,
    arrayBuffers: after.arrayBuffers - before.arrayBuffers,
  };
}

/** A panel open on the conversation, and what this process's heap grew by while it is open. */
async function heapWithPanel(
  conversation: AppConversation,
  events: number,
): Promise<{ panel: OpenPanel; heap: HostHeap; before: HostHeap }> {
  const before = await hostHeapAfterGc();
  const panel = await openPanel(conversation, events);
  return { panel, heap: grown(await hostHeapAfterGc(), before), before };
}

/** Two conversations whose sandbox runs (their agent server answers). */
async function runningConversations(client: OpenHandsClient): Promise<[AppConversation, AppConversation]> {
  const listed = await client.searchConversations({ limit: 100 });
  const running = (await client.getConversations(listed.items.map((c) => c.id))).filter(
    (c): c is AppConversation => c?.sandbox_status === 'RUNNING' && agentEndpointOf(c) !== undefined,
  );
  const [first, second] = running;
  if (!first || !second) throw new Error('the seed has fewer than two conversations in running sandboxes');
  return [first, second];
}

interface PageHeld {
  blobUrls: number;
  blobBytes: number;
  /** `<img>` elements in the DOM (the rows near the viewport). */
  images: number;
}

/** What the bench adds to the page's window: what it holds now, from its live `blob:` URLs. */
interface HeldWindow extends HarnessWindow {
  __held(): PageHeld;
}

/**
 * Counts the page's live `blob:` URLs (createObjectURL and revokeObjectURL wrapped): the images
 * PageImages holds, as revoked ones are gone.
 */
async function countBlobs(page: Page): Promise<void> {
  await page.evaluate(() => {
    const live = new Map<string, number>();
    const create = URL.createObjectURL.bind(URL);
    const revoke = URL.revokeObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      const url = create(blob);
      live.set(url, blob instanceof Blob ? blob.size : 0);
      return url;
    };
    URL.revokeObjectURL = (url: string) => {
      live.delete(url);
      revoke(url);
    };
    (window as unknown as HeldWindow).__held = () => ({
      blobUrls: live.size,
      blobBytes: [...live.values()].reduce((sum, size) => sum + size, 0),
      images: document.querySelectorAll('img').length,
    });
  });
}

interface PageMemory extends PageHeld {
  jsHeap: number;
  domNodes: number;
}

/** The page's JS heap after a full collection (CDP), and what it holds. */
async function pageMemory(page: Page, cdp: CDPSession): Promise<PageMemory> {
  // the harness's record of what the page saved, and the messages firstPaint posted, are not the page's
  await page.evaluate(() => {
    (window as unknown as HarnessWindow).__harness.states.length = 0;
    delete (window as unknown as { __bench?: unknown }).__bench;
  });
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    jsHeap: metric('JSHeapUsedSize'),
    domNodes: metric('Nodes'),
    ...(await page.evaluate(() => (window as unknown as HeldWindow).__held())),
  };
}

/**
 * The webview's wiring between page and controller: the page's image requests go to the controller,
 * its answers (and anything else it posts) to the page.
 */
class PageLink {
  private answered = 0;
  private asked = 0;
  private readonly delivering: Promise<void>[] = [];

  constructor(
    private readonly page: Page,
    private readonly panel: OpenPanel,
  ) {
    panel.forward((message) => {
      if (message.type === 'image') this.answered++;
      this.delivering.push(page.evaluate((m) => window.postMessage(m, '*'), message));
    });
  }

  /** Image requests handed to the controller so far. */
  get requests(): number {
    return this.asked;
  }

  /** Hands the page's new image requests to the controller; resolves once the page has every answer. */
  async exchange(): Promise<number> {
    const posted = await this.page.evaluate(() =>
      (window as unknown as HarnessWindow).__harness.posted.splice(0),
    );
    const requests = posted.filter((message) => message.type === 'image');
    this.asked += requests.length;
    for (const request of requests) this.panel.controller.receive(request);
    const deadline = performance.now() + ANSWER_TIMEOUT_MS;
    while (this.answered < this.asked) {
      if (performance.now() > deadline) throw new Error('the controller did not answer every image request');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(this.delivering.splice(0));
    return requests.length;
  }
}

interface ScrollTrip {
  steps: number;
  reachedBottom: boolean;
  /** The most the page held at once, after a step's images came. */
  peak: PageHeld;
}

/** To the top, then down 0.9 screen a step to the bottom, each step's image requests answered. */
async function scrollThrough(page: Page, link: PageLink): Promise<ScrollTrip> {
  await page.evaluate(async () => {
    const scroller = document.querySelector('.transcript') as HTMLElement;
    // the list measures rows as they render: the top settles over a few frames
    for (let frame = 0; frame < 120; frame++) {
      scroller.scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (scroller.scrollTop === 0 && document.querySelector('[aria-posinset="1"]')) return;
    }
  });
  await link.exchange();
  const peak: PageHeld = { blobUrls: 0, blobBytes: 0, images: 0 };
  let steps = 0;
  let reachedBottom = false;
  while (!reachedBottom && steps < MAX_SCROLL_STEPS) {
    steps++;
    const step = await page.evaluate(async () => {
      // what the page holds with the last step's images drawn
      const before = (window as unknown as HeldWindow).__held();
      const scroller = document.querySelector('.transcript') as HTMLElement;
      scroller.scrollTop += 0.9 * scroller.clientHeight;
      // two frames: the list renders the rows now in view, their images ask
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return { before, atBottom: scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop < 2 };
    });
    reachedBottom = step.atBottom;
    peak.blobUrls = Math.max(peak.blobUrls, step.before.blobUrls);
    peak.blobBytes = Math.max(peak.blobBytes, step.before.blobBytes);
    peak.images = Math.max(peak.images, step.before.images);
    await link.exchange();
  }
  return { steps, reachedBottom, peak };
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const line = (label: string, figures: string) => `  ${label.padEnd(62)} ${figures}`;
const times = (numerator: number, denominator: number) =>
  `${(numerator / Math.max(Number.EPSILON, denominator)).toFixed(2)}x`;

interface PageFigures {
  paintedMs: number;
  rows: number;
  firstRequests: number;
  keptAfterFirst: number;
  hostAfterFirst: HostHeap;
  afterFirst: PageMemory;
  trip: ScrollTrip;
  requests: number;
  afterTrip: PageMemory;
  keptAfterTrip: number;
}

/** The page half, on the open panel: first paint, its image requests, then the whole scroll. */
async function measurePage(panel: OpenPanel, hostBefore: HostHeap): Promise<PageFigures | undefined> {
  if (!hasChromium()) return undefined;
  build();
  const browser = await launchChromium();
  try {
    const harness = await openHarness({ browser, theme: 'dark', width: 1000, height: 800 });
    const { page } = harness;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await countBlobs(page);
    // what a loaded page gets when it says `ready`: a reset, the newest rows, older chunks
    let messages: HostToWebview[] = [];
    panel.forward((message) => messages.push(message));
    panel.controller.receive({ type: 'ready' });
    const paint = await firstPaint(page, messages);
    messages = [];
    const link = new PageLink(page, panel);
    // the rows in view render and their images ask (a frame or two after the paint)
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    const firstRequests = await link.exchange();
    const keptAfterFirst = panel.controller.imageBytes;
    const hostAfterFirst = grown(await hostHeapAfterGc(), hostBefore);
    const afterFirst = await pageMemory(page, cdp);
    const trip = await scrollThrough(page, link);
    const afterTrip = await pageMemory(page, cdp);
    await harness.close();
    return {
      paintedMs: paint.paintedMs,
      rows: paint.rows,
      firstRequests,
      keptAfterFirst,
      hostAfterFirst,
      afterFirst,
      trip,
      requests: link.requests,
      afterTrip,
      keptAfterTrip: panel.controller.imageBytes,
    };
  } finally {
    await browser.close();
  }
}

/** The lines to print (the page's say why when Chromium is missing). */
export async function screenshotsReport(): Promise<string[]> {
  const server = await startServerProcess(['--conversations', '8', '--sandboxes', '2', '--random-seed', '3']);
  try {
    const client = new OpenHandsClient({ baseUrl: server.url });
    const [shotsConversation, plainConversation] = await runningConversations(client);
    const shots: StoredConversation = await storeConversation(server.url, shotsConversation.id, true);
    const plain: StoredConversation = await storeConversation(server.url, plainConversation.id, false);
    // the short one first warms the code both run
    const plainTimes = await timeOpenings(plainConversation, plain.events, true);
    const shotsTimes = await timeOpenings(shotsConversation, shots.events, false);
    const plainOpen = await heapWithPanel(plainConversation, plain.events);
    plainOpen.panel.dispose();
    const shotsOpen = await heapWithPanel(shotsConversation, shots.events);
    let pageFigures: PageFigures | undefined;
    try {
      pageFigures = await measurePage(shotsOpen.panel, shotsOpen.before);
    } finally {
      shotsOpen.panel.dispose();
    }
    const { panel } = shotsOpen;
    const lines = [
      `Conversation of ${ROUNDS} browser screenshots (${SCREENSHOT_BYTES / 1024} KB PNGs, ${shots.events.toLocaleString('en')} events), agent-server double in a child process`,
      line(
        `host: first rows vs whole history as rows, median of ${RUNS}`,
        `${times(shotsTimes.firstRowsMs, shotsTimes.wholeMs)}  (${shotsTimes.firstRowsMs.toFixed(1)} ms / ${shotsTimes.wholeMs.toFixed(1)} ms)`,
      ),
      line(
        'host: first rows, with screenshots vs the same rounds without',
        `${times(shotsTimes.firstRowsMs, plainTimes.firstRowsMs)}  (${shotsTimes.firstRowsMs.toFixed(1)} ms / ${plainTimes.firstRowsMs.toFixed(1)} ms)`,
      ),
      line(
        'host: event log held vs the raw events (JSON)',
        `${times(panel.logBytes, shots.rawChars)}  (${mb(panel.logBytes)} / ${mb(shots.rawChars)}, ${panel.eventsHeld} events)`,
      ),
      line(
        'host: heap after GC, panel open, with vs without screenshots',
        `${times(shotsOpen.heap.heapUsed, plainOpen.heap.heapUsed)}  (+${mb(shotsOpen.heap.heapUsed)} / +${mb(plainOpen.heap.heapUsed)}; buffers +${mb(shotsOpen.heap.arrayBuffers)} / +${mb(plainOpen.heap.arrayBuffers)})`,
      ),
    ];
    if (!pageFigures)
      return [
        ...lines,
        '  page: skipped (no Chromium at /usr/bin/chromium; install it to measure the page).',
      ];
    const p = pageFigures;
    const heldLine = (what: PageHeld) =>
      `${times(what.blobBytes, PAGE_IMAGE_BUDGET)}  (${mb(what.blobBytes)} / ${mb(PAGE_IMAGE_BUDGET)} budget; ${what.blobUrls} blob: URLs, ${what.images} <img> in the DOM)`;
    return [
      ...lines,
      line(
        `host: images kept after the first paint's ${p.firstRequests} requests`,
        `${times(p.keptAfterFirst, PANEL_IMAGE_BUDGET)}  (${mb(p.keptAfterFirst)} / ${mb(PANEL_IMAGE_BUDGET)} budget; heap +${mb(p.hostAfterFirst.heapUsed)} with Playwright's client, buffers +${mb(p.hostAfterFirst.arrayBuffers)})`,
      ),
      line(
        `host: images kept after all ${p.requests} requests of the scroll`,
        `${times(p.keptAfterTrip, PANEL_IMAGE_BUDGET)}  (${mb(p.keptAfterTrip)} / ${mb(PANEL_IMAGE_BUDGET)} budget)`,
      ),
      line(
        `page: first paint (${p.rows.toLocaleString('en')} rows), the frame showing the newest`,
        `${times(p.paintedMs, FIRST_PAINT_BUDGET_MS)}  (${p.paintedMs.toFixed(1)} ms / ${FIRST_PAINT_BUDGET_MS} ms budget)`,
      ),
      line('page: image requests on first paint', `${p.firstRequests} of ${ROUNDS} screenshots`),
      line(
        'page: JS heap after GC, scrolled top to bottom vs first paint',
        `${times(p.afterTrip.jsHeap, p.afterFirst.jsHeap)}  (${mb(p.afterTrip.jsHeap)} / ${mb(p.afterFirst.jsHeap)}, ${p.trip.steps} steps of 0.9 screen; DOM nodes ${p.afterTrip.domNodes} / ${p.afterFirst.domNodes})${p.trip.reachedBottom ? '' : '  (did NOT reach the bottom!)'}`,
      ),
      line('page: images held after the scroll vs the page budget', heldLine(p.afterTrip)),
      line('page: images held at most during the scroll', heldLine(p.trip.peak)),
    ];
  } finally {
    server.process.kill();
  }
}

if (require.main === module) {
  void screenshotsReport()
    .then((lines) => console.log(lines.join('\n')))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
