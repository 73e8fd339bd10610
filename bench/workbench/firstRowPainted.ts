// When the conversation panel first showed a row: the driver looks into every frame of the workbench
// page (the panel's webview is a cross-origin frame in a frame) until one holds a `.row`, then takes
// the time of the next animation frame, the one that paints it, by the page's clock in epoch ms.
// Polled, so late by up to one poll (about 10–30 ms).
import type { Page } from 'playwright-core';

/** The first frame's paint time (epoch ms) of a frame that shows a row now, or 0 when none does. */
async function rowPaintedAt(page: Page): Promise<number> {
  for (const frame of page.frames()) {
    const paintedAt = await frame
      .evaluate(() =>
        document.querySelector('.row')
          ? new Promise<number>((resolve) =>
              requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())),
            )
          : 0,
      )
      .catch(() => 0); // a frame navigating or gone
    if (paintedAt) return paintedAt;
  }
  return 0;
}

async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function firstRowPaintedAt(page: Page, timeoutMs: number): Promise<number> {
  return poll(async () => (await rowPaintedAt(page)) || undefined, timeoutMs, 'a conversation row painted');
}

/** Resolves once no frame shows a row (the panel closed). */
export function noRowShown(page: Page, timeoutMs: number): Promise<true> {
  return poll(async () => ((await rowPaintedAt(page)) ? undefined : true), timeoutMs, 'the panel closed');
}
