// When the conversation panel first showed a row: the driver looks into every frame of the workbench
// page (the panel's webview is a cross-origin frame in a frame) until one holds a `.row`, then takes
// the time of the next animation frame, the one that paints it, by the page's clock in epoch ms.
// Polled, so late by up to one poll (about 10–30 ms).
import type { Page } from 'playwright-core';

export async function firstRowPaintedAt(page: Page, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
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
    if (Date.now() > deadline) throw new Error(`no conversation row painted within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
