// Desktop runner for contributors with VS Code downloads available (internet): the same bundled suite
// as `npm run test:vscode`, run by @vscode/test-electron in Electron VS Code. Not usable on the
// offline CI machines, which cannot reach Microsoft's update server; they use run-integration.ts.
//   npx tsx scripts/vscode/run-electron.ts            (VSCODE_VERSION=1.100.3 to pin a version)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPORT_PATH_ENV, TEST_SERVER_URL_ENV } from '../../test/integration/env';
import { summaryLine, type TestReport } from '../../test/integration/report';
import { freshArtifactsDir } from './artifacts';
import { buildExtension, buildIntegrationSuite } from './build';
import { Cleanup } from './cleanup';
import { INTEGRATION_ENTRY, ROOT, RUNS_DIR } from './paths';
import { startSeededTestServer } from './test-server';
import { writeUserSettings } from './user-settings';

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  try {
    buildExtension();
    await buildIntegrationSuite();
    const artifacts = freshArtifactsDir('electron');
    const reportFile = path.join(artifacts, 'report.json');
    const server = await startSeededTestServer({ fast: true });
    cleanup.add('test server', () => server.close());

    const runDir = path.join(RUNS_DIR, 'electron');
    fs.rmSync(runDir, { recursive: true, force: true });
    const userDataDir = path.join(runDir, 'user-data');
    const workspace = path.join(runDir, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    writeUserSettings(userDataDir, { 'openhands.serverUrl': server.url });

    let exitError: string | undefined;
    await runTests({
      version: process.env.VSCODE_VERSION,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: INTEGRATION_ENTRY,
      extensionTestsEnv: { [TEST_SERVER_URL_ENV]: server.url, [REPORT_PATH_ENV]: reportFile },
      launchArgs: [
        workspace,
        '--user-data-dir', userDataDir,
        '--extensions-dir', path.join(runDir, 'extensions'),
        '--disable-extensions',
        '--disable-workspace-trust',
      ], // prettier-ignore
    }).catch((error: unknown) => {
      // runTests rejects when the suite fails; the report below says which tests.
      exitError = error instanceof Error ? error.message : String(error);
    });

    if (!fs.existsSync(reportFile)) {
      console.error(`[electron] no report: ${exitError ?? 'VS Code exited without running the suite'}`);
      return 1;
    }
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as TestReport;
    for (const failure of report.failures) console.log(`  ✘ ${failure.fullTitle}\n      ${failure.message}`);
    console.log(summaryLine(report));
    const total = report.passes.length + report.failures.length + report.pending.length;
    return report.failures.length === 0 && total > 0 ? 0 : 1;
  } finally {
    await cleanup.runAll();
  }
}

void main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
