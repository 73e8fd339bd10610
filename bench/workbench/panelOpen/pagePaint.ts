// What the driver reads in the workbench's page: when an element painted in any of its frames (a
// webview's page is a cross-origin frame in a frame), and the page's own timings. Polled, so late
// by up to one poll (about 10–30 ms), the same for the empty webview and the panel.
import type { Frame, Page } from 'playwright-core';

const POLL_MS = 10;

/** The next frame's time (epoch ms) when `selector` matches now in `frame`, else 0; `top` scrolls `.transcript` up first. */
async function paintedIn(frame: Frame, selector: string, top: boolean): Promise<number> {
  return frame
    .evaluate(
      ({ selector, top }) => {
        if (top) {
          const scroller = document.querySelector('.transcript');
          if (scroller) scroller.scrollTop = 0;
        }
        return document.querySelector(selector)
          ? new Promise<number>((resolve) =>
              requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now())),
            )
          : 0;
      },
      { selector, top },
    )
    .catch(() => 0); // a frame navigating or gone
}

/** Waits until some frame paints `selector`; returns that frame and when (epoch ms, the page's clock). */
export async function waitForPaint(
  page: Page,
  selector: string,
  timeoutMs: number,
  options: { frame?: Frame; top?: boolean; pollMs?: number } = {},
): Promise<{ frame: Frame; at: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of options.frame ? [options.frame] : page.frames()) {
      const at = await paintedIn(frame, selector, options.top ?? false);
      if (at) return { frame, at };
    }
    if (Date.now() > deadline) throw new Error(`${selector} not painted within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? POLL_MS));
  }
}

/** The page's opening marks, its navigation and its scripts' and stylesheets' arrival (epoch ms). */
export function pageTimings(frame: Frame, prefix: string): Promise<Record<string, number>> {
  return frame.evaluate((prefix) => {
    const origin = performance.timeOrigin;
    const timings: Record<string, number> = { navigationStart: origin };
    for (const mark of performance.getEntriesByType('mark'))
      if (mark.name.startsWith(prefix)) timings[mark.name.slice(prefix.length)] = origin + mark.startTime;
    const navigation = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined;
    if (navigation) {
      timings['htmlLoaded'] = origin + navigation.responseEnd;
      timings['domContentLoaded'] = origin + navigation.domContentLoadedEventEnd;
    }
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const file = entry.name.split(/[?#]/)[0]?.split('/').pop() ?? entry.name;
      timings[`loaded ${file}`] = origin + entry.responseEnd;
    }
    return timings;
  }, prefix);
}
