// The conversation panel's page in Chromium (the harness of test/unit/webviews/conversation/webview): how soon a
// 10,000-event transcript (about 6,000 rows, sent as the host sends it: a reset, the newest 300 rows,
// then older chunks of 1,000) paints its newest row, and how smooth scrolling it to the top is.
// Also saves screenshots of the page in light, dark and high contrast to
// .artifacts/screenshots/panel-harness/. Run by `npm run bench`, or alone: `npx tsx bench/conversationPaint.ts`.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostToWebview } from '../src/webviews/conversation/shared/protocol';
import {
  generateRows,
  header,
  resendMessages,
  showcaseRows,
} from '../test/unit/webviews/conversation/webview/fixtureRows';
import {
  hasBundle,
  hasChromium,
  launchChromium,
  openHarness,
  type HarnessWindow,
  type ThemeKind,
} from '../test/unit/webviews/conversation/webview/harness';

const ROOT = path.resolve(__dirname, '..');
const SCREENSHOTS = path.join(ROOT, '.artifacts', 'screenshots', 'panel-harness');
const EVENTS = 10_000;
/** The budget for the first paint of a large transcript, and for one frame while scrolling. */
export const FIRST_PAINT_BUDGET_MS = 500;
const LONG_FRAME_MS = 50;
const SCROLL_FRAMES = 240;

export interface PaintResult {
  rows: number;
  /** From the first `rows` message to the newest row in the DOM and in the viewport. */
  inDomMs: number;
  /** …and to the rendering of the frame that shows it (its animation frame callbacks, right before its paint). */
  paintedMs: number;
  /** …and to every chunk applied (the list knows every row). */
  wholeMs: number;
}

interface ScrollResult {
  frames: number;
  longestMs: number;
  over50: number;
  meanMs: number;
  /** The scroll ended where it should (the first row at the top, or the bottom). */
  reachedEnd: boolean;
}

interface BenchWindow extends HarnessWindow {
  __bench: { messages: HostToWebview[] };
}

/** Builds dist/webview (the bundle the harness serves); keeps the one there when the build fails. */
export function build(): void {
  try {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    if (!hasBundle()) throw error;
    console.warn('conversation panel bench: the build failed; measuring the bundle already in dist/webview.');
  }
}

/** Posts `[reset, newest rows, ...older chunks]` as the host does and times the newest row's paint. */
export async function firstPaint(page: Page, messages: HostToWebview[]): Promise<PaintResult> {
  await page.evaluate((all) => {
    (window as unknown as BenchWindow).__bench = { messages: all };
  }, messages);
  return page.evaluate(async () => {
    const all = (window as unknown as BenchWindow).__bench.messages;
    const [reset, newest, ...older] = all;
    if (!reset || newest?.type !== 'rows') throw new Error('no rows to send');
    window.postMessage(reset, '*');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lastId = newest.rows[newest.rows.length - 1]?.id ?? '';
    const total = all.reduce((sum, m) => sum + (m.type === 'rows' ? m.rows.length : 0), 0);
    const scroller = document.querySelector('.transcript') as HTMLElement;
    const list = document.querySelector('.rows') as HTMLElement;
    const visible = () => {
      const row = list.querySelector(`[data-row-id="${CSS.escape(lastId)}"]`);
      if (!row) return false;
      const r = row.getBoundingClientRect();
      const s = scroller.getBoundingClientRect();
      return r.height > 0 && r.bottom > s.top && r.top < s.bottom;
    };
    const whole = () => list.querySelector(`[aria-setsize="${total}"]`) !== null;
    const start = performance.now();
    const shown = new Promise<{ inDomMs: number; paintedMs: number }>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!visible()) return;
        observer.disconnect();
        const inDomMs = performance.now() - start;
        // the next frame's rendering (its animation frame callbacks run just before it paints)
        requestAnimationFrame(() => resolve({ inDomMs, paintedMs: performance.now() - start }));
      });
      observer.observe(list, { childList: true, subtree: true, attributes: true });
    });
    const complete = new Promise<number>((resolve) => {
      const check = () => (whole() ? resolve(performance.now() - start) : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    // as the host posts them: one after the other, each its own message event
    window.postMessage(newest, '*');
    for (const message of older) window.postMessage(message, '*');
    const { inDomMs, paintedMs } = await shown;
    const wholeMs = await complete;
    return { rows: total, inDomMs, paintedMs, wholeMs };
  });
}

/**
 * Scrolls from where the list is towards `to` over `frames` animation frames: the whole way
 * (`step` undefined: a fling, every frame shows new rows only) or `step` screens per frame.
 */
async function scroll(
  page: Page,
  to: 'top' | 'bottom',
  frames: number,
  step?: number,
): Promise<ScrollResult> {
  return page.evaluate(
    async ({ to, frames, step }) => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      const times: number[] = [];
      await new Promise<void>((resolve) => {
        let i = 0;
        let last = performance.now();
        const next = () => {
          const now = performance.now();
          if (i > 0) times.push(now - last);
          last = now;
          if (i >= frames) return resolve();
          i++;
          const end = to === 'top' ? 0 : scroller.scrollHeight - scroller.clientHeight;
          const move =
            step === undefined
              ? (end - scroller.scrollTop) / (frames - i + 1)
              : Math.sign(end - scroller.scrollTop) *
                Math.min(Math.abs(end - scroller.scrollTop), step * scroller.clientHeight);
          scroller.scrollTop = scroller.scrollTop + move;
          requestAnimationFrame(next);
        };
        requestAnimationFrame(next);
      });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200)));
      const reachedEnd =
        step !== undefined ||
        (to === 'top'
          ? document.querySelector('[data-row-id="r0"]') !== null && scroller.scrollTop === 0
          : Math.abs(scroller.scrollTop - (scroller.scrollHeight - scroller.clientHeight)) < 2);
      return {
        frames: times.length,
        longestMs: Math.max(...times),
        over50: times.filter((t) => t > 50).length,
        meanMs: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length),
        reachedEnd,
      };
    },
    { to, frames, step },
  );
}

async function screenshots(browser: Browser): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const saved: string[] = [];
  const rows = showcaseRows();
  const epoch = 1;
  const shots: { name: string; theme: ThemeKind; messages: HostToWebview[]; height?: number }[] = [];
  for (const theme of ['light', 'dark', 'hc'] as const) {
    shots.push({
      name: theme,
      theme,
      // tall enough for every row of the showcase
      height: 1560,
      messages: resendMessages(
        rows,
        epoch,
        header({
          feed: 'reconnecting',
          feedDetail: 'The event socket closed (1006)',
          retryInMs: 12_000,
          eventCount: 17,
        }),
      ),
    });
  }
  shots.push({
    name: 'dark-offline-empty',
    theme: 'dark',
    messages: resendMessages(
      [],
      epoch,
      header({
        executionStatus: 'paused',
        sandboxStatus: 'PAUSED',
        feed: 'offline',
        feedDetail: 'the sandbox is paused',
        canResume: true,
      }),
    ),
  });
  shots.push({
    name: 'light-live-finished',
    theme: 'light',
    messages: resendMessages(
      rows.filter((row) => row.kind !== 'streaming' && row.id !== 's10'),
      epoch,
      header({ executionStatus: 'finished', eventCount: 16 }),
    ),
  });
  // steering: the approval card, and after a reject with a message on its way
  const pendingControls = {
    confirmationPolicy: 'AlwaysConfirm',
    pendingActions: [
      {
        id: 'a-pending',
        tool: 'terminal',
        summary: 'Drop the test database and re-create it from the schema',
        detail:
          '{\n  "command": "dropdb app_test && createdb app_test && psql app_test < schema.sql",\n  "is_input": false\n}',
        risk: 'HIGH' as const,
      },
    ],
    outbox: [],
    busy: null,
    error: null,
    rejected: false,
  };
  for (const theme of ['light', 'dark'] as const) {
    shots.push({
      name: `${theme}-waiting-for-approval`,
      theme,
      messages: resendMessages(
        rows.filter((row) => row.kind !== 'streaming'),
        epoch,
        header({ executionStatus: 'waiting_for_confirmation', eventCount: 16, controls: pendingControls }),
      ),
    });
    shots.push({
      name: `${theme}-rejected-sending`,
      theme,
      messages: resendMessages(
        rows.filter((row) => row.kind !== 'streaming'),
        epoch,
        header({
          executionStatus: 'idle',
          eventCount: 17,
          controls: {
            ...pendingControls,
            pendingActions: [],
            rejected: true,
            outbox: [
              {
                id: 'out-1',
                text: 'Use the staging database instead.',
                images: 0,
                state: 'sending',
                reason: null,
              },
            ],
          },
        }),
      ),
    });
  }
  for (const shot of shots) {
    const harness = await openHarness({
      browser,
      theme: shot.theme,
      width: 1000,
      height: shot.height ?? 860,
    });
    try {
      for (const message of shot.messages) await harness.post(message);
      await harness.page.waitForTimeout(400);
      const file = path.join(SCREENSHOTS, `${shot.name}.png`);
      await harness.page.screenshot({ path: file });
      saved.push(path.relative(ROOT, file));
    } finally {
      await harness.close();
    }
  }
  // a long transcript, scrolled up with new rows arriving below
  const harness = await openHarness({ browser, theme: 'dark', width: 1000, height: 860 });
  try {
    const rowsOf = generateRows(600, 7);
    const first = resendMessages(rowsOf.slice(0, -5), epoch, header({ eventCount: 600 }));
    for (const message of first) await harness.post(message);
    await harness.page.waitForTimeout(200);
    await harness.page.evaluate(() => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      scroller.scrollTop = scroller.scrollTop - 1500;
    });
    await harness.page.waitForTimeout(200);
    // the next change after the reset (rev 0) and the chunks (revs 1…)
    await harness.post({ type: 'rows', epoch, rev: first.length, at: 'end', rows: rowsOf.slice(-5) });
    await harness.page.waitForTimeout(300);
    const file = path.join(SCREENSHOTS, 'dark-scrolled-up-new-rows.png');
    await harness.page.screenshot({ path: file });
    saved.push(path.relative(ROOT, file));
  } finally {
    await harness.close();
  }
  return saved;
}

function ratio(label: string, value: number, budget: number, unit = 'ms'): string {
  return `${label.padEnd(62)} ${(value / budget).toFixed(2)}x  (${value.toFixed(1)} ${unit} / ${budget} ${unit} budget)`;
}

/** Runs the page benchmarks; the lines to print (one saying why, when Chromium is missing). */
export async function conversationPaintReport(): Promise<string[]> {
  if (!hasChromium())
    return [
      'Conversation panel page: skipped (no Chromium at /usr/bin/chromium; install it to measure the page).',
    ];
  build();
  const browser = await launchChromium();
  try {
    const messages = resendMessages(generateRows(EVENTS, 1), Date.now(), header({ eventCount: EVENTS }));
    const harness = await openHarness({ browser, theme: 'dark', width: 1000, height: 800 });
    let paint: PaintResult;
    let screens: ScrollResult;
    let up: ScrollResult;
    let down: ScrollResult;
    let upAgain: ScrollResult;
    try {
      paint = await firstPaint(harness.page, messages);
      screens = await scroll(harness.page, 'top', SCROLL_FRAMES * 2, 0.9);
      await scroll(harness.page, 'bottom', 30);
      up = await scroll(harness.page, 'top', SCROLL_FRAMES);
      down = await scroll(harness.page, 'bottom', SCROLL_FRAMES);
      upAgain = await scroll(harness.page, 'top', SCROLL_FRAMES);
    } finally {
      await harness.close();
    }
    const shots = await screenshots(browser);
    const scrollLine = (label: string, s: ScrollResult) =>
      `${label.padEnd(62)} longest frame ${s.longestMs.toFixed(1)} ms, ${s.over50} of ${s.frames} frames over ${LONG_FRAME_MS} ms, mean ${s.meanMs.toFixed(1)} ms${s.reachedEnd ? '' : '  (did NOT reach the end!)'}`;
    return [
      `Conversation panel page (Chromium, ${EVENTS.toLocaleString('en-US')} events = ${paint.rows.toLocaleString('en-US')} rows, 1000x800)`,
      `  ${ratio('first paint: newest row in the DOM and visible', paint.inDomMs, FIRST_PAINT_BUDGET_MS)}`,
      `  ${ratio('first paint: the frame showing it painted', paint.paintedMs, FIRST_PAINT_BUDGET_MS)}`,
      `  ${'every older chunk applied'.padEnd(62)} ${paint.wholeMs.toFixed(1)} ms`,
      `  ${scrollLine(`scroll up 0.9 screen a frame, ${SCROLL_FRAMES * 2} frames (cold rows)`, screens)}`,
      `  ${ratio('  longest frame vs the 50 ms stall threshold', screens.longestMs, LONG_FRAME_MS)}`,
      `  ${scrollLine(`fling to the top over ${SCROLL_FRAMES} frames`, up)}`,
      `  ${ratio('  longest frame vs the 50 ms stall threshold', up.longestMs, LONG_FRAME_MS)}`,
      `  ${scrollLine('fling back to the bottom', down)}`,
      `  ${scrollLine('fling to the top again (rows rendered before)', upAgain)}`,
      `  ${`${'first vs second fling to the top, longest frame'.padEnd(62)} ${(up.longestMs / Math.max(0.01, upAgain.longestMs)).toFixed(2)}x`}`,
      `  screenshots: ${shots.join(', ')}`,
    ];
  } finally {
    await browser.close();
  }
}

if (require.main === module) {
  void conversationPaintReport()
    .then((lines) => console.log(lines.join('\n')))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
