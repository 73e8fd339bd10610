// Runs inside VS Code's extension host (its extensionTestsPath) next to the production build of the
// extension, then writes its figures as one JSON file into $OPENHANDS_BENCH_RESULTS for the driver
// (bench/workbench/index.ts). Each figure group measures one thing; add new ones after activation,
// which must come first (nothing may have activated the extension yet).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activationFigures } from './activation';
import { RESULTS_DIR_ENV, type ProbeResult } from './results';

export async function run(): Promise<void> {
  const dir = process.env[RESULTS_DIR_ENV];
  if (!dir) throw new Error(`${RESULTS_DIR_ENV} is not set: run the probe through npm run bench`);
  let result: ProbeResult;
  try {
    result = { figures: { activation: await activationFigures() } };
  } catch (error) {
    result = { error: error instanceof Error ? error.message : String(error) };
  }
  fs.mkdirSync(dir, { recursive: true });
  // write-then-rename: the driver counts files and must never read half of one
  const file = path.join(dir, `${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result));
  fs.renameSync(`${file}.tmp`, file);
}
