import assert from 'node:assert/strict';
import { nextRefreshDelay, type RefreshInputs } from '../../../src/state/refreshPolicy';

const base: RefreshInputs = {
  anyViewVisible: true,
  windowFocused: true,
  busy: false,
  errorStreak: 0,
  activeMs: 2000,
  idleMs: 15000,
};

describe('refresh policy', () => {
  it('polls nothing while no view is visible', () => {
    assert.equal(nextRefreshDelay({ ...base, anyViewVisible: false }), undefined);
    assert.equal(nextRefreshDelay({ ...base, anyViewVisible: false, busy: true, errorStreak: 3 }), undefined);
  });

  it('is fast while something is in transition, slow when steady', () => {
    assert.equal(nextRefreshDelay({ ...base, busy: true }), 2000);
    assert.equal(nextRefreshDelay(base), 15000);
  });

  it('slows down in an unfocused window', () => {
    assert.equal(nextRefreshDelay({ ...base, windowFocused: false }), 60000);
  });

  it('backs off exponentially on errors, up to a cap', () => {
    const delays = [1, 2, 3, 4, 5, 30].map((errorStreak) => nextRefreshDelay({ ...base, errorStreak }));
    assert.deepEqual(delays, [15000, 30000, 60000, 120000, 240000, 300000]);
  });
});
