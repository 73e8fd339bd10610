// Apply against plain `git apply` on many generated patches (the unit suite runs 40 of the same kind):
// how many agreed, how each ended, how long it took. `npx tsx bench/patchDifferential.ts [seed]`.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { runDifferential } from '../test/unit/changes/differentialRun';

const SEED = 1;
const BATCHES = 20;
const CASES_PER_BATCH = 50;
// Disagreements printed in full (their seed and index make them again).
const SHOWN = 10;

export async function patchDifferentialReport(seed = SEED): Promise<string[]> {
  const start = performance.now();
  const report = await runDifferential(seed, BATCHES, CASES_PER_BATCH);
  const seconds = (performance.now() - start) / 1000;
  const { applied, refused, merged, deliberate } = report.outcomes;
  const lines = [
    `Apply against git apply (seeds ${seed}-${seed + BATCHES - 1}, ${BATCHES} batches of ${CASES_PER_BATCH}, git ${gitVersion()})`,
    `  generated ${report.generated}, agreed ${report.agreed} (${applied} applied alike, ${refused} refused by both, ${merged} merged as --3way, ${deliberate} refused on purpose), in ${seconds.toFixed(1)} s (${((seconds * 1000) / report.generated).toFixed(0)} ms a patch)`,
  ];
  for (const failure of report.disagreements.slice(0, SHOWN)) {
    lines.push(`  DISAGREES: seed ${failure.seed}, case ${failure.index}: ${failure.label}: ${failure.why}`);
  }
  return lines;
}

function gitVersion(): string {
  // The oracle is whichever git is installed: the report names it.
  return execFileSync('git', ['--version'])
    .toString('utf8')
    .trim()
    .replace(/^git version /, '');
}

if (require.main === module) {
  const seed = process.argv[2] === undefined ? SEED : Number(process.argv[2]);
  void patchDifferentialReport(seed)
    .then((lines) => console.log(lines.join('\n')))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
