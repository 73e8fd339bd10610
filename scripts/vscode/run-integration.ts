// `npm run test:vscode`: runs test/integration in a real VS Code (code-server 1.100.3 in Chromium) with
// the extension in development mode and a seeded test server, then reports `N passed, N failed`.
// Then test/integration/restricted/ in a second VS Code whose folder is untrusted (Restricted Mode), and
// test/integration/virtualFolder/ in a third whose workspace's one folder is on a virtual file system
// (memfs:, served by a test extension VS Code activates as it resolves the folder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  REPORT_PATH_ENV,
  RESTRICTED_MODE_ENV,
  TEST_SERVER_URL_ENV,
  VIRTUAL_FOLDER_ENV,
} from '../../test/integration/env';
import { MEMFS_FOLDER } from '../../test/integration/virtualFolder/memfs/memfsFacts';
import { summaryLine, type TestFailure, type TestReport } from '../../test/integration/report';
import { collectCodeServerLogs, freshArtifactsDir } from './artifacts';
import { launchBrowser, type BrowserSession } from './browser';
import { buildExtension, buildIntegrationSuite, buildMemfsExtension } from './build';
import { Cleanup } from './cleanup';
import { startCodeServer, type CodeServer } from './code-server';
import { recordConsole } from './console-log';
import { since } from './elapsed';
import { installUnpackedExtension } from './install-extension';
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

/** The VS Codes the suite runs in, each with the part of it that is its own (see test/integration/index.ts). */
type Pass = 'trusted' | 'restricted' | 'virtual-folder';

const PASS_LABELS: Record<Pass, string> = {
  trusted: '[integration]',
  restricted: '[integration, Restricted Mode]',
  'virtual-folder': '[integration, virtual folder]',
};

/** Runs the suite in the three VS Codes and returns one report; infrastructure problems throw. */
async function runSuite(
  cleanup: Cleanup,
  artifacts: string,
  onPage: (b: BrowserSession) => void,
): Promise<TestReport> {
  const step = Date.now();
  provision();
  buildExtension();
  await buildIntegrationSuite();
  const memfsExtension = await buildMemfsExtension();
  console.log(`[integration] provisioned and built (${since(step)})`);

  const server = await startSeededTestServer({ fast: true });
  cleanup.add('test server', () => server.close());
  const reports: TestReport[] = [];
  for (const pass of ['trusted', 'restricted', 'virtual-folder'] as const) {
    const passArtifacts = pass === 'trusted' ? artifacts : path.join(artifacts, pass);
    const report = await runPass(cleanup, passArtifacts, onPage, server.url, pass, memfsExtension);
    if (pass !== 'trusted')
      console.log(`${PASS_LABELS[pass]} ${report.passes.length} passed, ${report.failures.length} failed`);
    reports.push(report);
  }
  const [first, ...others] = reports as [TestReport, ...TestReport[]];
  return {
    ...first,
    passes: reports.flatMap((report) => report.passes),
    failures: reports.flatMap((report) => report.failures),
    pending: reports.flatMap((report) => report.pending),
    durationMs: others.reduce((total, report) => total + report.durationMs, first.durationMs),
  };
}

/**
 * The virtual-folder VS Code's workspace: a `.code-workspace` file whose one folder is memfs:/webapp,
 * and the memfs extension installed as an ordinary one, before the workbench first connects.
 */
function prepareVirtualFolder(codeServer: CodeServer, runDir: string, memfsExtension: string): string {
  installUnpackedExtension(codeServer.extensionsDir, memfsExtension);
  const file = path.join(runDir, 'virtual-folder.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: [{ uri: MEMFS_FOLDER, name: 'webapp' }] }, null, 2));
  return file;
}

/** One VS Code, one run of the suite's files for it (see test/integration/index.ts). */
async function runPass(
  cleanup: Cleanup,
  artifacts: string,
  onPage: (b: BrowserSession) => void,
  serverUrl: string,
  pass: Pass,
  memfsExtension: string,
): Promise<TestReport> {
  const label = PASS_LABELS[pass];
  const restricted = pass === 'restricted';
  const reportFile = path.join(artifacts, 'report.json');
  const runDir = path.join(RUNS_DIR, pass === 'trusted' ? 'integration' : `integration-${pass}`);
  let step = Date.now();
  const codeServer = await startCodeServer({
    runDir,
    logFile: path.join(artifacts, 'code-server.log'),
    settings: { 'openhands.serverUrl': serverUrl },
    env: {
      [TEST_SERVER_URL_ENV]: serverUrl,
      [REPORT_PATH_ENV]: reportFile,
      ...(restricted ? { [RESTRICTED_MODE_ENV]: '1' } : {}),
      ...(pass === 'virtual-folder' ? { [VIRTUAL_FOLDER_ENV]: '1' } : {}),
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
    ...(pass === 'virtual-folder'
      ? { workspace: prepareVirtualFolder(codeServer, runDir, memfsExtension) }
      : { folder: codeServer.workspaceFolder }),
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
  // what the window showed at the end: the failure, or in Restricted Mode its banner and Apply's refusals,
  // in the virtual folder's window the folder and the refusals
  const picture =
    report.failures.length > 0 ? 'integration-failure' : pass !== 'trusted' ? 'integration' : undefined;
  if (picture) {
    const name = `${picture}${pass === 'trusted' ? '' : `-${pass}`}.png`;
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
  const pictures = ['', '-restricted', '-virtual-folder'].flatMap((pass) => [
    `integration-failure${pass}`,
    ...(pass ? [`integration${pass}`] : []),
  ]);
  for (const name of pictures) fs.rmSync(path.join(SCREENSHOTS_DIR, `${name}.png`), { force: true });
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
