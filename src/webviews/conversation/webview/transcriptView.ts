/**
 * The transcript as a virtual list: only the rows near the viewport are in the DOM, between two
 * spacers that stand for the rest. A row's height is estimated (`estimate.ts`) until it has been
 * rendered, then measured (at once, and by a ResizeObserver when it changes: a fold opened, a font
 * loaded) and kept per row id and version.
 *
 * Where the reader is: at the end, the list follows new rows ("stuck"); scrolled up, the row at the
 * top of the viewport is the anchor, and it stays where it is on screen whatever happens around it:
 * rows added at the end, older rows inserted at the start, rows above measured at last.
 */
import { html, render } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Row } from '../shared/rows';
import { estimateHeight, rowVersion } from './estimate';
import { rowContent, type RowActions } from './rowViews';
import {
  anchorAt,
  clampScrollTop,
  frame,
  isAtBottom,
  maxScrollTop,
  Offsets,
  scrollTopForAnchor,
  visibleRange,
  type Frame,
  type Range,
} from './virtualList';

/** Room above the first row and below the last (in the spacers). */
const PAD_TOP = 8;
const PAD_BOTTOM = 20;
/** Within this of the end counts as at the end. */
const BOTTOM_SLACK = 32;
/** Measure-and-render passes per frame at most (each pass corrects heights that were estimated). */
const MAX_PASSES = 4;
/** Rendered beyond the viewport, above and below: a screen, at least this much. */
const MIN_OVERSCAN = 400;
/** While the reader flings (more than a screen per frame, so every row is new each frame). */
const FLING_OVERSCAN = 120;
/** A fling is over when no scroll event came for this long: the full overscan is rendered then. */
const FLING_END_MS = 150;

export interface ViewPosition {
  stuck: boolean;
  /** The row at the top of the viewport and how far into it (when not stuck). */
  top?: { id: string; delta: number };
  /** Rows added at the end since the reader scrolled away from it. */
  newRows: number;
}

export interface TranscriptElements {
  scroller: HTMLElement;
  topSpacer: HTMLElement;
  list: HTMLElement;
  bottomSpacer: HTMLElement;
}

interface Measured {
  version: string;
  height: number;
}

export class TranscriptView {
  private rows: readonly Row[] = [];
  /** The rows the offsets (and the DOM) were built from: `rows` may have changed since. */
  private laidOut: readonly Row[] = [];
  /** The height of each row of `rows` (measured or estimated), valid while `heightsValid`. */
  private heights = new Float64Array(0);
  private heightsValid = false;
  private readonly indexById = new Map<string, number>();
  private indexValid = true;
  private readonly offsets = new Offsets();
  private readonly measured = new Map<string, Measured>();
  private estimates = new WeakMap<Row, number>();
  private readonly versions = new WeakMap<Row, string>();
  private readonly observer: ResizeObserver;
  /** The row elements in the DOM, watched for size changes. */
  private observed = new Set<Element>();
  private width = -1;
  private stuck = true;
  private anchor: { id: string; delta: number } | undefined;
  /** An anchor to go back to once its row arrives (after a reload or a reset). */
  private pendingAnchor: { id: string; delta: number } | undefined;
  private newRows = 0;
  private frameRequest = 0;
  private range: Range = { start: 0, end: 0 };
  /** The scrollTop as last set here or seen in a scroll event: a different one is the reader's doing. */
  private knownScrollTop = 0;
  /** Scrolling more than a screen per frame: render the viewport and little more until it stops. */
  private flinging = false;
  private flingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The position last reported. */
  private notified: ViewPosition = { stuck: true, newRows: 0 };

  constructor(
    private readonly el: TranscriptElements,
    private readonly actions: RowActions,
    private readonly onPosition: (position: ViewPosition) => void,
  ) {
    this.observer = new ResizeObserver((entries) => this.resized(entries));
    el.scroller.addEventListener('scroll', () => this.scrolled(), { passive: true });
    // the scroller's own size (the panel resized): rows wrap differently
    this.observer.observe(el.scroller);
  }

  get position(): ViewPosition {
    return {
      stuck: this.stuck,
      ...(this.stuck || !this.anchor ? {} : { top: { ...this.anchor } }),
      newRows: this.newRows,
    };
  }

  /** The rows changed; `appended` of them are new at the end (counted as new while scrolled up). */
  setRows(rows: readonly Row[], appended: number): void {
    this.rows = rows;
    this.indexValid = false;
    this.heightsValid = false;
    this.schedule();
    if (!this.stuck && appended > 0) {
      this.newRows += appended;
      this.notify();
    }
  }

  /** The host starts over: the rows follow. Where the reader was is kept and found again. */
  reset(): void {
    if (!this.stuck && this.anchor) this.pendingAnchor = this.anchor;
    this.newRows = 0;
  }

  /** Where the reader was before a reload. */
  restore(position: { stuck: boolean; top?: { id: string; delta: number } }): void {
    this.stuck = position.stuck || !position.top;
    if (!this.stuck && position.top) this.pendingAnchor = { ...position.top };
    this.schedule();
  }

  /** Brings a row to the top of the viewport (the reader stops following new rows). */
  scrollToRow(id: string): void {
    this.restore({ stuck: false, top: { id, delta: 0 } });
    this.newRows = 0;
    this.notify();
  }

  /** Back to the end, following new rows again. */
  scrollToBottom(): void {
    this.stuck = true;
    this.newRows = 0;
    this.pendingAnchor = undefined;
    this.renderNow();
    this.notify();
  }

  /** Render now rather than at the next frame (first paint). */
  flush(): void {
    if (this.frameRequest) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.renderNow();
  }

  /** For the bench and tests: the rows in the DOM. */
  get renderedRange(): Range {
    return { ...this.range };
  }

  private schedule(): void {
    if (this.frameRequest) return;
    this.frameRequest = requestAnimationFrame(() => {
      this.frameRequest = 0;
      this.renderNow();
    });
  }

  private indexOf(id: string): number | undefined {
    if (!this.indexValid) {
      this.indexById.clear();
      for (let i = 0; i < this.rows.length; i++) this.indexById.set((this.rows[i] as Row).id, i);
      this.indexValid = true;
    }
    return this.indexById.get(id);
  }

  /** What a measurement of this row is good for: same id, same texts and state. */
  private versionOf(row: Row): string {
    let version = this.versions.get(row);
    if (version === undefined) {
      version = rowVersion(row);
      this.versions.set(row, version);
    }
    return version;
  }

  private heightOf(row: Row): number {
    const measured = this.measured.get(row.id);
    if (measured && measured.version === this.versionOf(row)) return measured.height;
    let estimate = this.estimates.get(row);
    if (estimate === undefined) {
      estimate = estimateHeight(row, this.width);
      this.estimates.set(row, estimate);
    }
    return estimate;
  }

  private rebuild(): void {
    const rows = this.rows;
    if (!this.heightsValid) {
      if (this.heights.length < rows.length)
        this.heights = new Float64Array(Math.max(rows.length, this.heights.length * 2));
      for (let i = 0; i < rows.length; i++) this.heights[i] = this.heightOf(rows[i] as Row);
      this.heightsValid = true;
    }
    const heights = this.heights;
    this.offsets.rebuild(rows.length, (i) => heights[i] ?? 0);
    this.laidOut = rows;
  }

  /** A row's real height, kept for its id and version. */
  private record(index: number, row: Row, height: number): boolean {
    if (Math.abs(height - this.heightOf(row)) <= 0.5) return false;
    this.measured.set(row.id, { version: this.versionOf(row), height });
    if (this.heightsValid && this.rows[index] === row) this.heights[index] = height;
    return true;
  }

  /** The scroller around the list: its height and the room above the first row and below the last. */
  private view(): Frame {
    return frame(this.el.scroller.clientHeight, PAD_TOP, PAD_BOTTOM);
  }

  /** Where the viewport should start (list coordinates): the end, the anchor, or where it is. */
  private target(view: Frame): number {
    if (this.pendingAnchor) {
      const index = this.indexOf(this.pendingAnchor.id);
      if (index !== undefined) {
        this.anchor = this.pendingAnchor;
        this.pendingAnchor = undefined;
        this.stuck = false;
      }
    }
    // waiting for the anchor's row (older rows still coming): the end meanwhile
    if (this.stuck || this.pendingAnchor) return maxScrollTop(this.offsets, view);
    const index = this.anchor ? this.indexOf(this.anchor.id) : undefined;
    if (this.anchor && index !== undefined)
      return scrollTopForAnchor(this.offsets, { index, delta: this.anchor.delta }, view);
    return clampScrollTop(this.offsets, this.knownScrollTop - PAD_TOP, view);
  }

  private renderNow(): void {
    const { scroller, list } = this.el;
    // scrolled since the last scroll event (its event is still to come): take it into account first
    if (Math.abs(scroller.scrollTop - this.knownScrollTop) >= 1) this.scrolled();
    const view = this.view();
    const width = list.clientWidth;
    if (width !== this.width) {
      // rows wrap differently: every height is a guess again (the visible ones are measured below)
      this.width = width;
      this.measured.clear();
      this.estimates = new WeakMap();
      this.heightsValid = false;
    }
    // render, measure what was rendered, and again while the real heights move the rows in view;
    // layout is read only in `measure` (and scrollTop set once, at the end)
    let top = 0;
    let settled = false;
    const overscan = this.flinging ? FLING_OVERSCAN : Math.max(view.viewport, MIN_OVERSCAN);
    for (let pass = 0; pass < MAX_PASSES && !settled; pass++) {
      this.rebuild();
      top = this.target(view);
      this.range = visibleRange(this.offsets, top, view.viewport, overscan);
      this.placeSpacers();
      const { start, end } = this.range;
      const count = this.rows.length;
      render(
        repeat(
          this.rows.slice(start, end),
          (row) => row.id,
          (row, i) =>
            html`<div
              class="row row-${row.kind}"
              role="listitem"
              data-row-id=${row.id}
              aria-posinset=${start + i + 1}
              aria-setsize=${count}
            >
              ${rowContent(row, this.actions)}
            </div>`,
        ),
        list,
      );
      settled = !this.measure();
    }
    if (!settled) {
      // still moving after the last pass: the spacers follow the last measurements
      this.rebuild();
      top = this.target(view);
      this.placeSpacers();
    }
    const scrollTop = top + PAD_TOP;
    if (Math.abs(scroller.scrollTop - scrollTop) >= 1) scroller.scrollTop = scrollTop;
    this.knownScrollTop = scroller.scrollTop;
    // an anchor honoured to the pixel stays exact (the scrollTop set was rounded); otherwise the
    // row now at the top becomes the anchor
    const honoured =
      this.anchor !== undefined &&
      this.indexOf(this.anchor.id) !== undefined &&
      Math.abs(this.knownScrollTop - scrollTop) < 1;
    if (!this.stuck && !honoured) this.anchorAt(this.knownScrollTop - PAD_TOP, view);
    if (this.stuck !== this.notified.stuck || this.newRows !== this.notified.newRows) this.notify();
  }

  private placeSpacers(): void {
    const { start, end } = this.range;
    this.el.topSpacer.style.height = `${PAD_TOP + this.offsets.top(start)}px`;
    this.el.bottomSpacer.style.height = `${this.offsets.total - this.offsets.top(end) + PAD_BOTTOM}px`;
  }

  /** The row at the top of the viewport becomes the anchor (`top` in list coordinates). */
  private anchorAt(top: number, view: Frame): void {
    const anchor = anchorAt(this.offsets, clampScrollTop(this.offsets, top, view));
    const row = anchor ? this.laidOut[anchor.index] : undefined;
    this.anchor = anchor && row ? { id: row.id, delta: anchor.delta } : undefined;
  }

  /** Reads the rendered rows' heights; true when one differs from what the offsets assumed. */
  private measure(): boolean {
    let changed = false;
    const shown = new Set<Element>();
    for (const child of Array.from(this.el.list.children)) {
      const element = child as HTMLElement;
      const id = element.dataset['rowId'];
      if (id === undefined) continue;
      shown.add(element);
      if (!this.observed.has(element)) this.observer.observe(element);
      const index = this.indexOf(id);
      const row = index === undefined ? undefined : this.rows[index];
      if (index !== undefined && row && this.record(index, row, element.getBoundingClientRect().height))
        changed = true;
    }
    // rows scrolled out of the DOM are no longer watched
    for (const element of this.observed) if (!shown.has(element)) this.observer.unobserve(element);
    this.observed = shown;
    return changed;
  }

  private resized(entries: ResizeObserverEntry[]): void {
    let changed = false;
    for (const entry of entries) {
      if (entry.target === this.el.scroller) {
        changed = true;
        continue;
      }
      const element = entry.target as HTMLElement;
      if (!element.isConnected) continue;
      const id = element.dataset['rowId'];
      const index = id === undefined ? undefined : this.indexOf(id);
      const row = index === undefined ? undefined : this.rows[index];
      const height = entry.borderBoxSize[0]?.blockSize ?? element.getBoundingClientRect().height;
      if (index !== undefined && row && this.record(index, row, height)) changed = true;
    }
    if (changed) this.schedule();
  }

  private scrolled(): void {
    const scroller = this.el.scroller;
    const scrollTop = scroller.scrollTop;
    // the event of a scrollTop set here, or of one already taken into account
    if (Math.abs(scrollTop - this.knownScrollTop) < 1) return;
    const view = this.view();
    if (Math.abs(scrollTop - this.knownScrollTop) > view.viewport) {
      this.flinging = true;
      if (this.flingTimer) clearTimeout(this.flingTimer);
      this.flingTimer = setTimeout(() => {
        this.flingTimer = undefined;
        this.flinging = false;
        this.schedule();
      }, FLING_END_MS);
    }
    this.knownScrollTop = scrollTop;
    const wasStuck = this.stuck;
    this.stuck = isAtBottom(this.offsets, scrollTop - PAD_TOP, view, BOTTOM_SLACK);
    // the reader moved: an anchor still waiting for its row no longer applies
    this.pendingAnchor = undefined;
    if (this.stuck) {
      this.newRows = 0;
      this.anchor = undefined;
    } else this.anchorAt(scrollTop - PAD_TOP, view);
    this.schedule();
    if (wasStuck !== this.stuck || !this.stuck) this.notify();
  }

  private notify(): void {
    const position = this.position;
    this.notified = position;
    this.onPosition(position);
  }
}
