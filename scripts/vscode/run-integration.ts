// `npm run test:vscode`: runs test/integration in a real VS Code (code-server 1.100.3 in Chromium) with
// the extension in development mode and a seeded test server, then reports `N passed, N failed`.
// Then test/integration/restricted/ in a second VS Code whose folder is untrusted (Restricted Mode).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPORT_PATH_ENV, RESTRICTED_MODE_ENV, TEST_SERVER_URL_ENV } from '../../test/integration/env';
import { summaryLine, type TestFailure, type TestReport } from '../../test/integration/report';
import { collectCodeServerLogs, freshArtifactsDir } from './artifacts';
import { launchBrowser, type BrowserSession } from './browser';
import { buildExtension, buildIntegrationSuite } from './build';
import { Cleanup } from './cleanup';
import { startCodeServer } from './code-server';
import { recordConsole } from './console-log';
import { since } from './elapsed';
import { INTEGRATION_ENTRY, ROOT, RUNS_DIR, SCREENSHOTS_DIR } from './paths';
import { provision } from './provision';
import { startSeededTestServer } from './test-server';
import { waitForFile } from './wait-file';
import { screenshot } from './workbench';
import { workbenchUrl } from './workbench-url';

const REPORT_TIMEOUT_MS = Number(process.env.OPENHANDS_TEST_TIMEOUT_MS ?? 5 * 60_000);

function printFailures(failures: TestFailure[]): void {
  failures.forEach((failure, index) => {
    console.log(
      `\n  ${index + 1}) ${failure.fullTitle}\n     ${failure.message.split('\n').join('\n     ')}`,
    );
  });
  if (failures.length > 0) console.log('');
}

/** Runs the suite in both VS Codes (trusted, then Restricted Mode) and returns one report; infrastructure problems throw. */
async function runSuite(
  cleanup: Cleanup,
  artifacts: string,
  onPage: (b: BrowserSession) => void,
): Promise<TestReport> {
  const step = Date.now();
  provision();
  buildExtension();
  await buildIntegrationSuite();
  console.log(`[integration] provisioned and built (${since(step)})`);

  const server = await startSeededTestServer({ fast: true });
  cleanup.add('test server', () => server.close());
  const trusted = await runPass(cleanup, artifacts, onPage, server.url, false);
  const restricted = await runPass(cleanup, path.join(artifacts, 'restricted'), onPage, server.url, true);
  console.log(
    `[integration] Restricted Mode: ${restricted.passes.length} passed, ${restricted.failures.length} failed`,
  );
  return {
    ...trusted,
    passes: [...trusted.passes, ...restricted.passes],
    failures: [...trusted.failures, ...restricted.failures],
    pending: [...trusted.pending, ...restricted.pending],
    durationMs: trusted.durationMs + restricted.durationMs,
  };
}

/** One VS Code, one run of the suite's files for it (see test/integration/index.ts). */
async function runPass(
  cleanup: Cleanup,
  artifacts: string,
  onPage: (b: BrowserSession) => void,
  serverUrl: string,
  restricted: boolean,
): Promise<TestReport> {
  const label = restricted ? '[integration, Restricted Mode]' : '[integration]';
  const reportFile = path.join(artifacts, 'report.json');
  let step = Date.now();
  const codeServer = await startCodeServer({
    runDir: path.join(RUNS_DIR, restricted ? 'integration-restricted' : 'integration'),
    logFile: path.join(artifacts, 'code-server.log'),
    settings: { 'openhands.serverUrl': serverUrl },
    env: {
      [TEST_SERVER_URL_ENV]: serverUrl,
      [REPORT_PATH_ENV]: reportFile,
      ...(restricted ? { [RESTRICTED_MODE_ENV]: '1' } : {}),
    },
    restricted,
  });
  // Registered first so it runs after code-server stopped and flushed its logs.
  cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
  cleanup.add('code-server', () => codeServer.stop());
  console.log(`${label} code-server pid ${codeServer.pid} at ${codeServer.url} (${since(step)})`);

  const browser = await launchBrowser();
  cleanup.add('chromium', () => browser.close());
  onPage(browser);
  recordConsole(browser.page, path.join(artifacts, 'browser-console.log'));
  let pageCrashed: string | undefined;
  browser.page.once('crash', () => (pageCrashed = 'the workbench page crashed'));

  step = Date.now();
  const url = workbenchUrl({
    baseUrl: codeServer.url,
    folder: codeServer.workspaceFolder,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: INTEGRATION_ENTRY,
  });
  await browser.page.goto(url);
  await waitForFile(reportFile, {
    timeoutMs: REPORT_TIMEOUT_MS,
    abortReason: () => codeServer.exitReason() ?? pageCrashed,
  });
  console.log(`${label} suite finished in VS Code (${since(step)})`);
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as TestReport;
  // what the window showed at the end: the failure, or in Restricted Mode its banner and Apply's refusals
  const picture = report.failures.length > 0 ? 'integration-failure' : restricted ? 'integration' : undefined;
  if (picture) {
    const name = `${picture}${restricted ? '-restricted' : ''}.png`;
    const file = await screenshot(browser.page, path.join(SCREENSHOTS_DIR, name)).catch(() => undefined);
    if (file) console.log(`${label} screenshot: ${path.relative(ROOT, file)}`);
  }
  // this VS Code is done: the next pass starts its own
  await browser.close();
  await codeServer.stop();
  return report;
}

async function main(): Promise<number> {
  const started = Date.now();
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  const artifacts = freshArtifactsDir('integration');
  const failurePng = path.join(SCREENSHOTS_DIR, 'integration-failure.png');
  for (const name of ['integration-failure', 'integration-failure-restricted', 'integration-restricted'])
    fs.rmSync(path.join(SCREENSHOTS_DIR, `${name}.png`), { force: true });
  let browser: BrowserSession | undefined;
  const failureScreenshot = async () => {
    if (!browser) return;
    const file = await screenshot(browser.page, failurePng).catch(() => undefined);
    if (file) console.log(`[integration] screenshot: ${path.relative(ROOT, file)}`);
  };

  try {
    const report = await runSuite(cleanup, artifacts, (b) => (browser = b));
    console.log(
      `[integration] VS Code ${report.vscodeVersion} (${report.uiKind}), suite ${report.durationMs} ms`,
    );
    for (const pending of report.pending) console.log(`  - skipped: ${pending.fullTitle}`);
    printFailures(report.failures);
    const total = report.passes.length + report.failures.length + report.pending.length;
    if (total === 0) console.log('[integration] no tests ran');
    console.log(`[integration] logs: ${path.relative(ROOT, artifacts)}/ (${since(started)} total)`);
    console.log(summaryLine(report));
    return report.failures.length === 0 && total > 0 ? 0 : 1;
  } catch (error) {
    console.error(`[integration] ${error instanceof Error ? error.message : String(error)}`);
    await failureScreenshot();
    console.log(`[integration] logs: ${path.relative(ROOT, artifacts)}/`);
    // The run itself failed: count it as one failure so the summary never reads as success.
    console.log(
      summaryLine({ passes: [], failures: [{ title: '', fullTitle: '', message: '' }], pending: [] }),
    );
    return 1;
  } finally {
    await cleanup.runAll();
  }
}

void main().then((code) => process.exit(code));
