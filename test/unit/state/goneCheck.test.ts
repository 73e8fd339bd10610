import assert from 'node:assert/strict';
import { countMarkTime, nothingWent, type CountMark } from '../../../src/state/goneCheck';

/** A conversation as the check reads it: its id and creation time. */
function conversation(id: string, createdAt: string | null): { id: string; created_at: string | null } {
  return { id, created_at: createdAt };
}

const older = conversation('a', '2026-11-20T10:00:00.000001Z');
const newestAtLoad = conversation('b', '2026-11-20T11:00:00.123456Z');
const mark: CountMark = { before: Date.parse('2026-11-20T11:00:00.124Z'), count: 12 };
const since = conversation('c', '2026-11-21T09:00:00.5Z');
const newestPages = (ids: string[], complete = false) => ({ ids: new Set(ids), complete });

describe('goneCheck: whether the Refresh command must read the whole list', () => {
  it('marks the count a millisecond past the newest conversation loaded, whatever their order', () => {
    assert.equal(countMarkTime([older, newestAtLoad]), mark.before);
    assert.equal(countMarkTime([newestAtLoad, older, conversation('x', null)]), mark.before);
    assert.equal(countMarkTime([]), undefined);
    assert.equal(countMarkTime([conversation('x', null)]), undefined);
  });

  it('the same count and nothing loaded since the mark: nothing went', () => {
    const loaded = [newestAtLoad, older];
    assert.equal(nothingWent({ mark, counted: 12, loaded, newest: newestPages(['b']) }), true);
  });

  it('another count (one deleted, or a title moved out of the filter or into it): read everything', () => {
    const loaded = [newestAtLoad, older];
    assert.equal(nothingWent({ mark, counted: 11, loaded, newest: newestPages(['b']) }), false);
    assert.equal(nothingWent({ mark, counted: 13, loaded, newest: newestPages(['b']) }), false);
  });

  it('no count to hold against (none taken, or the route failed now): read everything', () => {
    const loaded = [newestAtLoad, older];
    assert.equal(nothingWent({ mark: undefined, counted: 12, loaded, newest: newestPages(['b']) }), false);
    assert.equal(nothingWent({ mark, counted: undefined, loaded, newest: newestPages(['b']) }), false);
  });

  it('a conversation loaded since the mark counts as there only while the newest pages list it', () => {
    const loaded = [since, newestAtLoad, older];
    assert.equal(nothingWent({ mark, counted: 12, loaded, newest: newestPages(['c', 'b']) }), true);
    assert.equal(
      nothingWent({ mark, counted: 12, loaded, newest: newestPages(['d', 'b']) }),
      false,
      'gone, or pushed past the newest pages: the count cannot say',
    );
    const undated = conversation('u', null);
    assert.equal(nothingWent({ mark, counted: 12, loaded: [undated], newest: newestPages([]) }), false);
  });

  it('newest pages that reached the end are the whole list: no count is needed', () => {
    const loaded = [since, newestAtLoad];
    assert.equal(
      nothingWent({ mark: undefined, counted: undefined, loaded, newest: newestPages(['c', 'b'], true) }),
      true,
    );
  });
});
