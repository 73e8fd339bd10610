// A page suite without its browser: a failure that says what to do on CI, a skip (said once) elsewhere.
// The suites run in a child mocha, as `npm test` runs them, with the browser's path overridden.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { chromiumMissingMessage } from '../../shared/chromium';
import { REPOSITORY_ROOT } from '../../shared/repository';

const ROOT = REPOSITORY_ROOT;
const SUITE = path.join(ROOT, 'test', 'fixtures', 'chromiumSuite', 'needsChromium.ts');
const MISSING = path.join(ROOT, 'test', 'fixtures', 'chromiumSuite', 'no-chromium-here');

interface MochaJsonReport {
  stats: { passes: number; pending: number; failures: number };
  failures: { err: { message?: string } }[];
}

function runSuite(chromium: string, ci: string | undefined) {
  const environment: NodeJS.ProcessEnv = { ...process.env, OPENHANDS_CHROMIUM: chromium };
  delete environment['CI'];
  if (ci !== undefined) environment['CI'] = ci;
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', require.resolve('mocha/bin/mocha.js'), '--no-config', '--reporter', 'json', SUITE],
    { cwd: ROOT, env: environment, encoding: 'utf8', timeout: 60_000 },
  );
  const report = JSON.parse(child.stdout) as MochaJsonReport;
  return { status: child.status, report, stderr: child.stderr };
}

describe('test/shared/chromium: page suites without their browser', function () {
  this.timeout(120_000);

  it('fails every suite on CI, saying where Chromium was looked for and how to install it', () => {
    const { status, report } = runSuite(MISSING, 'true');
    assert.notEqual(status, 0);
    assert.equal(report.stats.passes, 0);
    assert.equal(report.stats.pending, 0);
    assert.equal(report.failures.length, 2);
    for (const failure of report.failures)
      assert.match(
        failure.err.message ?? '',
        /Chromium is missing at .*no-chromium-here: run `npm run provision`/,
      );
  });

  it('skips without CI, and says why once for the whole run', () => {
    const { status, report, stderr } = runSuite(MISSING, undefined);
    assert.equal(status, 0);
    assert.equal(report.stats.pending, 2);
    assert.equal(report.stats.failures, 0);
    assert.equal(stderr.split(chromiumMissingMessage(MISSING)).length - 1, 1, stderr);
  });

  it('treats CI=false as no CI', () => {
    const { status, report } = runSuite(MISSING, 'false');
    assert.equal(status, 0);
    assert.equal(report.stats.pending, 2);
  });

  it('runs the suites when the browser is there', () => {
    // Any existing file stands for the browser: the suites under test never launch it.
    const { status, report } = runSuite(process.execPath, 'true');
    assert.equal(status, 0);
    assert.equal(report.stats.passes, 2);
  });
});
