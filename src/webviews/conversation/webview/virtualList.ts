/**
 * The arithmetic of the virtual list: where each row starts (prefix sums of the rows' heights,
 * measured or estimated), which rows are near the viewport, and which row anchors the scroll
 * position so it can be kept when rows are added or measured. Pure (no DOM): unit-tested in Node.
 */

export class Offsets {
  /** `tops[i]` is where row i starts; `tops[count]` is the total height. */
  private tops = new Float64Array(1);
  private n = 0;

  get count(): number {
    return this.n;
  }

  get total(): number {
    return this.tops[this.n] ?? 0;
  }

  /** Heights of rows 0..count-1 (a negative or non-finite height counts as 0). */
  rebuild(count: number, heightOf: (index: number) => number): void {
    if (this.tops.length < count + 1) this.tops = new Float64Array(Math.max(count + 1, this.tops.length * 2));
    this.n = count;
    let y = 0;
    this.tops[0] = 0;
    for (let i = 0; i < count; i++) {
      const h = heightOf(i);
      y += Number.isFinite(h) && h > 0 ? h : 0;
      this.tops[i + 1] = y;
    }
  }

  /** Where row `index` starts (clamped: 0 before the first row, the total after the last). */
  top(index: number): number {
    if (index <= 0) return 0;
    if (index >= this.n) return this.total;
    return this.tops[index] ?? 0;
  }

  height(index: number): number {
    return this.top(index + 1) - this.top(index);
  }

  /** The row under `y` (the last one for y past the end, the first one before 0); -1 with no rows. */
  indexAt(y: number): number {
    if (this.n === 0) return -1;
    if (y <= 0) return 0;
    if (y >= this.total) return this.n - 1;
    // the last i with tops[i] <= y
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.tops[mid] ?? 0) <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

export interface Range {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

/** The rows that meet the viewport widened by `overscan` pixels above and below. */
export function visibleRange(offsets: Offsets, scrollTop: number, viewport: number, overscan: number): Range {
  if (offsets.count === 0) return { start: 0, end: 0 };
  const start = offsets.indexAt(Math.max(0, scrollTop - overscan));
  const bottom = scrollTop + Math.max(0, viewport) + overscan;
  let end = offsets.indexAt(bottom) + 1;
  // a row that starts exactly at the bottom edge is not needed
  if (end - 1 > start && offsets.top(end - 1) >= bottom) end--;
  return { start, end: Math.min(offsets.count, Math.max(end, start + 1)) };
}

/**
 * The scroller around the list, in the list's coordinates (0 is the first row's top): the
 * viewport's height and the room above the first row and below the last.
 */
export interface Frame {
  viewport: number;
  padTop: number;
  padBottom: number;
}

export function frame(viewport: number, padTop = 0, padBottom = 0): Frame {
  return { viewport: Math.max(0, viewport), padTop, padBottom };
}

/** The lowest the viewport's top goes (-padTop: the room above the first row). */
export function minScrollTop(view: Frame): number {
  return -view.padTop;
}

/** The highest the viewport's top goes: the end of the room below the last row at the bottom. */
export function maxScrollTop(offsets: Offsets, view: Frame): number {
  return Math.max(minScrollTop(view), offsets.total + view.padBottom - view.viewport);
}

export function clampScrollTop(offsets: Offsets, scrollTop: number, view: Frame): number {
  if (!Number.isFinite(scrollTop)) return minScrollTop(view);
  return Math.min(Math.max(minScrollTop(view), scrollTop), maxScrollTop(offsets, view));
}

/** Within `slack` pixels of the end: new rows should keep the end in view. */
export function isAtBottom(offsets: Offsets, scrollTop: number, view: Frame, slack: number): boolean {
  return scrollTop >= maxScrollTop(offsets, view) - slack;
}

/** The row at the top of the viewport and how far into it the viewport starts (negative above row 0). */
export interface Anchor {
  index: number;
  delta: number;
}

export function anchorAt(offsets: Offsets, scrollTop: number): Anchor | undefined {
  const index = offsets.indexAt(scrollTop);
  if (index < 0) return undefined;
  return { index, delta: scrollTop - offsets.top(index) };
}

/** The scrollTop that puts the anchor row back where it was on screen. */
export function scrollTopForAnchor(offsets: Offsets, anchor: Anchor, view: Frame): number {
  // the anchor row may have shrunk: never point past its end
  const delta = Math.min(anchor.delta, offsets.height(anchor.index));
  return clampScrollTop(offsets, offsets.top(anchor.index) + delta, view);
}
