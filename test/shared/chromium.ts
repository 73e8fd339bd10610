// Whether the tests that drive Debian's Chromium (playwright-core) can run. On CI a missing browser is a
// failure, never a quiet row of pending tests; on a developer's machine the suites skip, saying why once.
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../../scripts/vscode/paths';

export { CHROMIUM_PATH };

export function chromiumMissingMessage(executable = CHROMIUM_PATH): string {
  return `Chromium is missing at ${executable}: run \`npm run provision\` (scripts/provision-vscode.sh installs it)`;
}

/** What a suite does about the browser: run, fail (CI), or skip (anywhere else). */
export type ChromiumVerdict = 'run' | 'fail' | 'skip';

export function chromiumVerdict(
  executable = CHROMIUM_PATH,
  environment: NodeJS.ProcessEnv = process.env,
): ChromiumVerdict {
  if (existsSync(executable)) return 'run';
  // Any non-empty CI but "false" counts: CI services set it to "true" or "1".
  const onCi = !!environment['CI'] && environment['CI'] !== 'false';
  return onCi ? 'fail' : 'skip';
}

let skipReported = false;

/**
 * For a suite's `before` hook: returns when Chromium is there; otherwise throws (on CI) or skips the suite
 * (elsewhere, the reason printed once per run, not once per suite).
 */
export function requireChromium(context: Mocha.Context): void {
  const verdict = chromiumVerdict();
  if (verdict === 'run') return;
  if (verdict === 'fail')
    throw new Error(`${chromiumMissingMessage()} (CI is set, so this fails instead of skipping)`);
  if (!skipReported) {
    skipReported = true;
    console.warn(`Skipping the Chromium page tests. ${chromiumMissingMessage()}`);
  }
  context.skip();
}
