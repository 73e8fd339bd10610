// The virtual list's arithmetic: where rows start, which rows are near the viewport, and the anchor
// that keeps the reader's place when rows are inserted above or measured; the height estimates.
import assert from 'node:assert/strict';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import {
  estimateHeight,
  plainLines,
  rowVersion,
  wrappedLines,
} from '../../../../../src/webviews/conversation/webview/estimate';
import {
  anchorAt,
  clampScrollTop,
  frame,
  isAtBottom,
  maxScrollTop,
  Offsets,
  scrollTopForAnchor,
  visibleRange,
} from '../../../../../src/webviews/conversation/webview/virtualList';
import { generateRows } from './fixtureRows';

function offsetsOf(heights: number[]): Offsets {
  const offsets = new Offsets();
  offsets.rebuild(heights.length, (i) => heights[i] ?? 0);
  return offsets;
}

describe('conversation page: the virtual list', () => {
  it('puts each row after the ones before it', () => {
    const offsets = offsetsOf([10, 20, 30]);
    assert.equal(offsets.count, 3);
    assert.equal(offsets.total, 60);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => offsets.top(i)),
      [0, 10, 30, 60],
    );
    assert.equal(offsets.height(1), 20);
    assert.equal(offsets.top(-5), 0);
    assert.equal(offsets.top(99), 60);
  });

  it('counts an odd height (negative, NaN, infinite) as zero', () => {
    const offsets = offsetsOf([10, -5, Number.NaN, Number.POSITIVE_INFINITY, 10]);
    assert.equal(offsets.total, 20);
  });

  it('finds the row under a point, clamped to the rows held', () => {
    const offsets = offsetsOf([10, 20, 30]);
    assert.equal(offsetsOf([]).indexAt(5), -1);
    assert.equal(offsets.indexAt(-100), 0);
    assert.equal(offsets.indexAt(0), 0);
    assert.equal(offsets.indexAt(9.9), 0);
    assert.equal(offsets.indexAt(10), 1);
    assert.equal(offsets.indexAt(29), 1);
    assert.equal(offsets.indexAt(30), 2);
    assert.equal(offsets.indexAt(1e9), 2);
  });

  it('grows its storage and rebuilds in place', () => {
    const offsets = new Offsets();
    offsets.rebuild(3, () => 1);
    offsets.rebuild(5000, () => 2);
    assert.equal(offsets.total, 10_000);
    offsets.rebuild(2, () => 7);
    assert.equal(offsets.total, 14);
    assert.equal(offsets.count, 2);
  });

  it('renders the rows that meet the viewport and the overscan on both sides', () => {
    const offsets = offsetsOf(Array.from({ length: 100 }, () => 50));
    assert.deepEqual(visibleRange(offsets, 1000, 500, 0), { start: 20, end: 30 });
    assert.deepEqual(visibleRange(offsets, 1000, 500, 500), { start: 10, end: 40 });
    assert.deepEqual(visibleRange(offsets, 1010, 500, 0), { start: 20, end: 31 }, 'a row cut at the bottom');
    assert.deepEqual(visibleRange(offsets, 0, 500, 500), { start: 0, end: 20 });
    assert.deepEqual(visibleRange(offsets, 4800, 500, 500), { start: 86, end: 100 });
    assert.deepEqual(visibleRange(offsetsOf([]), 0, 500, 500), { start: 0, end: 0 });
    assert.deepEqual(visibleRange(offsetsOf([5000]), 100, 500, 500), { start: 0, end: 1 }, 'one tall row');
  });

  it('clamps scrolling to the rows plus the room above and below', () => {
    const offsets = offsetsOf([100, 100, 100]);
    const view = frame(200, 8, 20);
    assert.equal(maxScrollTop(offsets, view), 120);
    assert.equal(clampScrollTop(offsets, 1e6, view), 120);
    assert.equal(clampScrollTop(offsets, -50, view), -8);
    assert.equal(clampScrollTop(offsets, Number.NaN, view), -8);
    assert.equal(maxScrollTop(offsetsOf([10]), view), -8, 'fewer rows than the viewport: no scrolling');
    assert.equal(isAtBottom(offsets, 100, view, 32), true);
    assert.equal(isAtBottom(offsets, 80, view, 32), false);
  });

  it('keeps the anchor row in place when older rows are inserted above it', () => {
    const heights = Array.from({ length: 50 }, (_, i) => 40 + (i % 7) * 10);
    const before = offsetsOf(heights);
    const view = frame(600);
    const scrollTop = 1234;
    const anchor = anchorAt(before, scrollTop);
    assert.ok(anchor);
    const inserted = Array.from({ length: 30 }, () => 75);
    const after = offsetsOf([...inserted, ...heights]);
    const moved = scrollTopForAnchor(
      after,
      { index: anchor.index + inserted.length, delta: anchor.delta },
      view,
    );
    assert.equal(moved, scrollTop + 30 * 75, 'scrollTop moves by exactly the inserted height');
    // rows added at the end move nothing
    const appended = offsetsOf([...heights, 500, 500]);
    assert.equal(scrollTopForAnchor(appended, anchor, view), scrollTop);
  });

  it('keeps the anchor row in place when rows above it are measured at last', () => {
    const estimated = offsetsOf([100, 100, 100, 100, 100]);
    const anchor = anchorAt(estimated, 320);
    assert.deepEqual(anchor, { index: 3, delta: 20 });
    const measured = offsetsOf([180, 60, 100, 100, 100]);
    assert.equal(scrollTopForAnchor(measured, anchor, frame(100)), 360);
    // the anchor row itself shrank below the delta: its end, not past it
    const shrunk = offsetsOf([100, 100, 100, 10, 100]);
    assert.equal(scrollTopForAnchor(shrunk, anchor, frame(100)), 310);
  });

  it('anchors above the first row too (the room at the top)', () => {
    const offsets = offsetsOf([100, 100]);
    assert.deepEqual(anchorAt(offsets, -8), { index: 0, delta: -8 });
    assert.equal(scrollTopForAnchor(offsets, { index: 0, delta: -8 }, frame(50, 8, 20)), -8);
    assert.equal(anchorAt(offsetsOf([]), 0), undefined);
  });
});

describe('conversation page: row height estimates', () => {
  const base = { id: 'x', timestamp: '' };

  it('counts wrapped lines and line breaks, up to a cap', () => {
    assert.equal(wrappedLines('', 10, 100), 1);
    assert.equal(wrappedLines('abcdefghij', 10, 100), 1);
    assert.equal(wrappedLines('abcdefghijk', 10, 100), 2);
    assert.equal(wrappedLines('a\n\nb', 10, 100), 3);
    assert.equal(wrappedLines('x'.repeat(1_000_000), 10, 50), 50);
    assert.equal(plainLines('a\nb\nc', 100), 3);
    assert.equal(plainLines('\n'.repeat(1_000_000), 18), 18);
  });

  it('grows with the text, within the blocks that scroll on their own', () => {
    const short: Row = { ...base, kind: 'message', role: 'agent', markdown: 'hi' };
    const long: Row = { ...base, kind: 'message', role: 'agent', markdown: 'word '.repeat(400) };
    assert.ok(estimateHeight(long, 800) > estimateHeight(short, 800));
    assert.ok(estimateHeight(long, 400) > estimateHeight(long, 800), 'a narrower column wraps more');
    const output = (lines: number): Row => ({
      ...base,
      kind: 'action',
      tool: 'terminal',
      summary: 's',
      risk: 'LOW',
      state: 'done',
      terminal: { command: 'x', output: 'line\n'.repeat(lines), exitCode: 0 },
    });
    assert.ok(estimateHeight(output(10), 800) > estimateHeight(output(2), 800));
    assert.equal(
      estimateHeight(output(500), 800),
      estimateHeight(output(50), 800),
      'the output block scrolls',
    );
  });

  it('gives every generated row a sane height, quickly', () => {
    const rows = generateRows(10_000, 3);
    const started = performance.now();
    for (const row of rows) {
      const h = estimateHeight(row, 900);
      assert.ok(Number.isFinite(h) && h >= 20 && h < 5000, `${row.kind} ${h}`);
    }
    assert.ok(performance.now() - started < 500, 'well under a frame per thousand rows');
    assert.ok(estimateHeight(rows[0] as Row, Number.NaN) > 0);
  });

  it('gives a row a new version when what changes its height changes', () => {
    const pending: Row = { ...base, kind: 'action', tool: 't', summary: 's', risk: 'LOW', state: 'pending' };
    const done: Row = { ...pending, state: 'done', result: 'ok' };
    assert.notEqual(rowVersion(pending), rowVersion(done));
    assert.equal(rowVersion(done), rowVersion({ ...done }));
    const streaming: Row = { ...base, kind: 'streaming', text: 'a' };
    assert.notEqual(rowVersion(streaming), rowVersion({ ...streaming, text: 'ab' }));
  });
});
