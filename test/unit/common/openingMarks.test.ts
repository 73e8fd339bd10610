import assert from 'node:assert/strict';
import {
  clearOpeningMarks,
  markOpening,
  OPENING_MARK_PREFIX,
  openingMarks,
} from '../../../src/common/openingMarks';

const entries = (step: string) => performance.getEntriesByName(OPENING_MARK_PREFIX + step, 'mark');

describe('opening marks', () => {
  afterEach(() => clearOpeningMarks());

  it('keeps the first mark of a step only, however often it is marked', async () => {
    clearOpeningMarks();
    const before = Date.now();
    markOpening('firstRowsPosted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < 100; i++) markOpening('firstRowsPosted');
    assert.equal(entries('firstRowsPosted').length, 1);
    const at = openingMarks().firstRowsPosted;
    assert.ok(
      at !== undefined && at >= before - 1 && at < before + 15,
      `marked at ${at}, not near ${before}`,
    );
  });

  it('says nothing of steps not marked, and marks anew after a clear', () => {
    clearOpeningMarks();
    markOpening('panelCreated');
    assert.deepEqual(Object.keys(openingMarks()), ['panelCreated']);
    const first = openingMarks().panelCreated;
    clearOpeningMarks();
    assert.deepEqual(openingMarks(), {});
    markOpening('panelCreated');
    assert.equal(entries('panelCreated').length, 1);
    assert.ok((openingMarks().panelCreated ?? 0) >= (first ?? Infinity));
  });
});
