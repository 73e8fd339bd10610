import assert from 'node:assert/strict';
import { runDifferential } from './differentialRun';

// The project's Apply against plain `git apply`, on patches generated from a fixed seed (bench/
// patchDifferential.ts runs many more): the same files, bytes and modes, or both refuse.

// 400 patches take about 30 s on a quiet 2-core machine (75 ms each: three git calls and a scratch clone's
// writes per patch), the most that keeps this test under a minute in `npm test`.
const SEED = 20_261_128;
const BATCHES = 20;
const CASES_PER_BATCH = 20;

describe('changes: Apply reads every patch as git does (differential, against git itself)', function () {
  this.timeout(240_000);

  it(`${BATCHES * CASES_PER_BATCH} generated patches: the project's result is git apply's`, async () => {
    const report = await runDifferential(SEED, BATCHES, CASES_PER_BATCH);
    const failures = report.disagreements.map(
      (failure) =>
        `seed ${failure.seed}, case ${failure.index} (${failure.label}): ${failure.why}\n` +
        failure.patch.toString('latin1').slice(0, 2000),
    );
    assert.deepEqual(failures, [], `disagreements with git (seed ${SEED})`);
    assert.equal(report.agreed, BATCHES * CASES_PER_BATCH);
    // The generator must reach both sides of the oracle, or it proves little.
    assert.ok(report.outcomes.applied > 0, 'some patches applied');
    assert.ok(report.outcomes.refused > 0, 'some patches refused');
  });
});
