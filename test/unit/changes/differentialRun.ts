// A differential run: batches of generated patches, each applied by the project and by plain git in
// scratch repositories, counted. Shared by the unit suite (small) and bench/patchDifferential.ts (large).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParityRepos, type Outcome } from './gitParity';
import { makeBatch, Random } from './patchCases';

export interface Disagreement {
  /** The batch's seed and the case's index in it: `runDifferential(seed, 1, …)` makes it again. */
  seed: number;
  index: number;
  label: string;
  why: string;
  patch: Buffer;
}

export interface DifferentialReport {
  generated: number;
  agreed: number;
  outcomes: Record<Outcome, number>;
  disagreements: Disagreement[];
}

// Files in each batch's base tree.
const BASE_FILES = 14;

/** `batches` batches of `casesPerBatch` patches; batch `i` is seeded `seed + i`. */
export async function runDifferential(
  seed: number,
  batches: number,
  casesPerBatch: number,
): Promise<DifferentialReport> {
  const report: DifferentialReport = {
    generated: 0,
    agreed: 0,
    outcomes: { applied: 0, refused: 0, merged: 0, deliberate: 0 },
    disagreements: [],
  };
  for (let batch = 0; batch < batches; batch++) {
    const batchSeed = seed + batch;
    const folder = mkdtempSync(join(tmpdir(), 'openhands-differential-'));
    try {
      const made = makeBatch(folder, new Random(batchSeed), BASE_FILES, casesPerBatch);
      const repos = new ParityRepos(folder, made.repo, made.base);
      for (const [index, { label, patch }] of made.cases.entries()) {
        report.generated++;
        const verdict = await repos.compare(patch);
        if (verdict.agrees) {
          report.agreed++;
          report.outcomes[verdict.outcome]++;
        } else {
          report.disagreements.push({ seed: batchSeed, index, label, why: verdict.why, patch });
        }
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return report;
}
