// The page's copy of the transcript: rows applied by epoch and rev (a gap makes the page ask again),
// upserted by id (replaced in place, new ones at the end or before every row in the chunk's order).
import assert from 'node:assert/strict';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import { RowStore } from '../../../../../src/webviews/conversation/webview/rowStore';

function row(id: string, text = id): Row {
  return { id, timestamp: '2026-11-23T19:49:01.000001', kind: 'message', role: 'agent', markdown: text };
}

function text(store: RowStore, id: string): string | undefined {
  const held = store.get(id);
  return held?.kind === 'message' ? held.markdown : undefined;
}

function ids(store: RowStore): string[] {
  return store.rows.map((r) => r.id);
}

function started(epoch = 7): RowStore {
  const store = new RowStore();
  assert.equal(store.reset(epoch, 0).kind, 'applied');
  return store;
}

describe('conversation page: the row store', () => {
  it('holds nothing until a reset, and ignores rows before it', () => {
    const store = new RowStore();
    assert.deepEqual(store.held(), {});
    assert.equal(store.started, false);
    assert.equal(store.upsert(1, 1, 'end', [row('a')]).kind, 'ignored');
    assert.equal(store.size, 0);
    store.reset(1, 0);
    assert.deepEqual(store.held(), { epoch: 1, rev: 0 });
    assert.equal(store.started, true);
  });

  it("appends new rows at the end and puts older chunks before every row, in the chunk's order", () => {
    const store = started();
    store.upsert(7, 1, 'end', [row('e5'), row('e6')]);
    store.upsert(7, 2, 'start', [row('e3'), row('e4')]);
    store.upsert(7, 3, 'start', [row('e1'), row('e2')]);
    store.upsert(7, 4, 'end', [row('e7')]);
    assert.deepEqual(ids(store), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
    assert.deepEqual(store.held(), { epoch: 7, rev: 4 });
  });

  it('replaces a held row where it is, at either end, and counts what changed', () => {
    const store = started();
    store.upsert(7, 1, 'end', [row('a'), row('b'), row('c')]);
    const atEnd = store.upsert(7, 2, 'end', [row('b', 'B'), row('d')]);
    assert.deepEqual(atEnd, {
      kind: 'applied',
      change: { reset: false, prepended: 0, appended: 1, replaced: 1, removed: 0 },
    });
    const atStart = store.upsert(7, 3, 'start', [row('z'), row('a', 'A')]);
    assert.ok(atStart.kind === 'applied' && atStart.change.prepended === 1 && atStart.change.replaced === 1);
    assert.deepEqual(ids(store), ['z', 'a', 'b', 'c', 'd']);
    assert.equal(text(store, 'a'), 'A');
    assert.equal(text(store, 'b'), 'B');
    // positions are right after a prepend shifted them
    store.upsert(7, 4, 'end', [row('c', 'C')]);
    assert.deepEqual(ids(store), ['z', 'a', 'b', 'c', 'd']);
    assert.equal(text(store, 'c'), 'C');
  });

  it('takes a new id twice in one chunk once, the later version in the first place', () => {
    const store = started();
    store.upsert(7, 1, 'end', [row('a'), row('b'), row('a', 'again')]);
    assert.deepEqual(ids(store), ['a', 'b']);
    assert.equal(text(store, 'a'), 'again');
  });

  it('removes rows by id (unknown ids change nothing) and keeps the order of the rest', () => {
    const store = started();
    store.upsert(7, 1, 'end', [row('a'), row('b'), row('c'), row('streaming')]);
    const removed = store.remove(7, 2, ['b', 'streaming', 'nope']);
    assert.ok(removed.kind === 'applied' && removed.change.removed === 2);
    assert.deepEqual(ids(store), ['a', 'c']);
    assert.equal(store.has('b'), false);
    store.upsert(7, 3, 'end', [row('b')]);
    assert.deepEqual(ids(store), ['a', 'c', 'b'], 'a removed id comes back as a new row');
  });

  it('ignores a message of another epoch', () => {
    const store = started(7);
    store.upsert(7, 1, 'end', [row('a')]);
    assert.equal(store.upsert(6, 2, 'end', [row('old')]).kind, 'ignored');
    assert.equal(store.upsert(8, 2, 'end', [row('new')]).kind, 'ignored');
    assert.equal(store.remove(6, 2, ['a']).kind, 'ignored');
    assert.deepEqual(ids(store), ['a']);
    assert.deepEqual(store.held(), { epoch: 7, rev: 1 }, 'nor does it move the rev');
  });

  it('reports a gap once, stops applying, and starts over with the next reset', () => {
    const store = started(7);
    store.upsert(7, 1, 'end', [row('a')]);
    assert.equal(store.upsert(7, 3, 'end', [row('c')]).kind, 'gap', 'rev 2 was missed');
    assert.equal(store.waitingForReset, true);
    assert.deepEqual(store.held(), { epoch: 7, rev: 1 }, 'what it holds, for ready');
    assert.equal(store.upsert(7, 4, 'end', [row('d')]).kind, 'ignored', 'reported once');
    assert.equal(store.upsert(7, 2, 'end', [row('b')]).kind, 'ignored', 'no patching up a gap');
    assert.deepEqual(ids(store), ['a'], 'what it shows is kept meanwhile');
    assert.equal(store.expanded(row('a', 'whole')), false, 'nor expanded while out of sync');
    assert.equal(store.reset(8, 0).kind, 'applied');
    assert.equal(store.waitingForReset, false);
    assert.equal(store.size, 0);
    assert.equal(store.upsert(8, 1, 'end', [row('a')]).kind, 'applied');
  });

  it('treats a rev delivered twice, or a rev that goes back, as a gap', () => {
    const twice = started();
    twice.upsert(7, 1, 'end', [row('a')]);
    assert.equal(twice.upsert(7, 1, 'end', [row('a')]).kind, 'gap');
    const back = started();
    back.upsert(7, 1, 'end', [row('a')]);
    back.upsert(7, 2, 'end', [row('b')]);
    assert.equal(back.remove(7, 1, ['a']).kind, 'gap');
  });

  it('ignores a reset of an older epoch and one with odd numbers', () => {
    const store = started(7);
    store.upsert(7, 1, 'end', [row('a')]);
    assert.equal(store.reset(6, 0).kind, 'ignored');
    assert.equal(store.reset(Number.NaN, 0).kind, 'ignored');
    assert.equal(store.reset(9, -1).kind, 'ignored');
    assert.equal(store.reset(9, 0.5).kind, 'ignored');
    assert.deepEqual(ids(store), ['a']);
    assert.equal(store.reset(7, 0).kind, 'applied', 'the same epoch again starts over too');
    assert.equal(store.size, 0);
  });

  it('applies an expanded row in place for a held id of the same kind only, and remembers it', () => {
    const store = started();
    store.upsert(7, 1, 'end', [row('a'), row('b')]);
    assert.equal(store.expanded(row('a', 'whole text')), true);
    assert.equal(text(store, 'a'), 'whole text');
    assert.equal(store.isExpanded('a'), true);
    assert.equal(store.expanded(row('zzz')), false, 'an id the page does not hold');
    const notice: Row = { id: 'b', timestamp: '', kind: 'notice', level: 'info', title: 'x' };
    assert.equal(store.expanded(notice), false, 'another kind under the same id');
    assert.deepEqual(ids(store), ['a', 'b']);
    assert.deepEqual(store.held(), { epoch: 7, rev: 1 }, 'expanded is not part of the rev sequence');
    store.forgetExpanded('a');
    assert.equal(store.isExpanded('a'), false);
  });

  it('keeps up with thousands of rows arriving newest first', () => {
    const store = started();
    const all = Array.from({ length: 6000 }, (_, i) => row(`r${i}`));
    store.upsert(7, 1, 'end', all.slice(5700));
    let rev = 1;
    for (let end = 5700; end > 0; end -= 1000)
      store.upsert(7, ++rev, 'start', all.slice(Math.max(0, end - 1000), end));
    assert.equal(store.size, 6000);
    assert.deepEqual(ids(store).slice(0, 3), ['r0', 'r1', 'r2']);
    assert.equal(store.rows[5999]?.id, 'r5999');
    assert.equal(store.get('r4321')?.id, 'r4321');
  });
});
