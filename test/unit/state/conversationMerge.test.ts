// Merging a refresh's answer into the loaded conversation list: the same array when nothing changed,
// rows replaced in place when only their data did, and the list redrawn, newest first, when rows
// came, went or moved; an old conversation of a page not loaded stays out.
import assert from 'node:assert/strict';
import { mergeConversations, positionsOf, sameJson } from '../../../src/state/conversationMerge';
import { conversation, minutesAgo } from './appRecords';

/** Newest first, as the server lists them: 5, 4, 3, 2, 1. */
const LOADED = [5, 4, 3, 2, 1].map((id) => conversation(id));

const ids = (list: readonly { id: string }[]) => list.map((c) => Number.parseInt(c.id, 16));

describe('mergeConversations', () => {
  it('keeps the very same array when the server sent the same data', () => {
    const merge = mergeConversations({
      loaded: LOADED,
      fresh: LOADED.map((c) => structuredClone(c)),
      complete: true,
    });
    assert.equal(merge.list, LOADED);
    assert.deepEqual(merge.changed, []);
    assert.equal(merge.structural, false);
  });

  it('replaces a changed row in place and names it', () => {
    const renamed = conversation(3, { title: 'Fix the login', execution_status: 'running' });
    const merge = mergeConversations({ loaded: LOADED, fresh: [renamed], complete: true });
    assert.equal(merge.structural, false);
    assert.deepEqual(merge.changed, [renamed]);
    assert.equal(merge.list[2], renamed);
    assert.deepEqual(ids(merge.list), [5, 4, 3, 2, 1]);
    assert.deepEqual(ids(LOADED), [5, 4, 3, 2, 1], 'the loaded list itself is never changed');
  });

  it('redraws everything when a row moved to another sandbox or time', () => {
    const moved = conversation(2, { sandbox_id: 'oh-agent-server-bbb' });
    assert.equal(mergeConversations({ loaded: LOADED, fresh: [moved], complete: true }).structural, true);
    const older = conversation(4, { created_at: minutesAgo(5000) });
    const merge = mergeConversations({ loaded: LOADED, fresh: [older], complete: true });
    assert.equal(merge.structural, true);
    assert.deepEqual(ids(merge.list), [5, 3, 2, 1, 4]);
  });

  it('puts a new conversation in its place, and leaves out an older one of a page not loaded', () => {
    const newest = conversation(9);
    const between = conversation(7, { created_at: minutesAgo(1000 - 3.5) });
    const ancient = conversation(8, { created_at: minutesAgo(9000) });
    const partial = mergeConversations({
      loaded: LOADED,
      fresh: [ancient, between, newest],
      complete: false,
    });
    assert.equal(partial.structural, true);
    assert.deepEqual(ids(partial.list), [9, 5, 4, 7, 3, 2, 1]);
    const complete = mergeConversations({ loaded: LOADED, fresh: [ancient], complete: true });
    assert.deepEqual(ids(complete.list), [5, 4, 3, 2, 1, 8]);
  });

  it('drops the conversations the server says are gone, and never adds one back', () => {
    const gone = new Set([LOADED[1]?.id ?? '', conversation(9).id]);
    const merge = mergeConversations({ loaded: LOADED, fresh: [conversation(9)], gone, complete: true });
    assert.deepEqual(ids(merge.list), [5, 3, 2, 1]);
    const nothingLoaded = mergeConversations({
      loaded: [],
      fresh: [conversation(1)],
      gone: new Set(),
      complete: false,
    });
    assert.deepEqual(ids(nothingLoaded.list), [1]);
  });

  it('keeps the server’s order among conversations created at the same time', () => {
    const time = minutesAgo(10);
    const [a, b, c] = [10, 11, 12].map((id) => conversation(id, { created_at: time }));
    assert.ok(a && b && c);
    const merge = mergeConversations({ loaded: [a, b], fresh: [c], complete: true });
    assert.deepEqual(ids(merge.list), [10, 11, 12]);
  });

  it('indexes a list once', () => {
    assert.equal(positionsOf(LOADED), positionsOf(LOADED));
    assert.equal(positionsOf(LOADED).get(conversation(2).id), 3);
  });
});

describe('sameJson', () => {
  it('compares what the server sent, deeply and by keys', () => {
    assert.ok(sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] }));
    assert.ok(!sameJson({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!sameJson({ a: undefined }, { b: undefined }));
    assert.ok(!sameJson([1, 2], { 0: 1, 1: 2 }));
    assert.ok(!sameJson([1, 2], [1, 2, 3]));
    assert.ok(!sameJson(null, {}));
    assert.ok(!sameJson('1', 1));
  });
});
