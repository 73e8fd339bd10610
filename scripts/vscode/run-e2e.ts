// `npm run test:e2e`: drives the real workbench (code-server 1.100.3 in Chromium) with the extension
// loaded in development mode against the seeded test server; screenshots every step. Then looks for
// every secret the run used in the VS Code user data and the browser's storage (see secret-scan.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defineSteps } from '../../test/e2e';
import { PROBE_FILE_ENV } from '../../test/e2e/exports-probe/record';
import { E2E_GREP_ENV, StepRunner, stepSummary, type StepResult } from '../../test/e2e/runner';
import { E2E_SECRETS } from '../../test/e2e/secrets';
import { collectCodeServerLogs, freshArtifactsDir } from './artifacts';
import { launchBrowser } from './browser';
import { buildExportsProbe, buildExtension } from './build';
import { Cleanup } from './cleanup';
import { startCodeServer } from './code-server';
import { recordConsole } from './console-log';
import { since } from './elapsed';
import { ROOT, RUNS_DIR, SCREENSHOTS_DIR } from './paths';
import { provision } from './provision';
import { installUnpackedExtension } from './install-extension';
import { startLanProxy } from './lan-proxy';
import { publishReadmePictures, README_IMAGES_DIR } from './readmePictures';
import { dumpBrowserStorage, scanForSecrets, SECRET_STORAGE_ENTRY, type ScanReport } from './secret-scan';
import { startSeededTestServer } from './test-server';
import { screenshot } from './workbench';
import { workbenchUrl } from './workbench-url';

const E2E_SCREENSHOTS = path.join(SCREENSHOTS_DIR, 'e2e');

interface E2EOutcome {
  results: StepResult[];
  scan: ScanReport;
}

async function runSteps(cleanup: Cleanup, artifacts: string): Promise<E2EOutcome> {
  let step = Date.now();
  provision();
  buildExtension();
  const exportsProbe = await buildExportsProbe();
  console.log(`[e2e] provisioned and built (${since(step)})`);

  const server = await startSeededTestServer({ fast: true });
  cleanup.add('test server', () => server.close());
  // "another machine" for the plain-http:// step: the same test server through a relay
  const lanProxy = await startLanProxy(Number(new URL(server.url).port));
  if (lanProxy) cleanup.add('LAN relay', () => lanProxy.close());

  step = Date.now();
  const exportsProbeFile = path.join(artifacts, 'exports-probe.json');
  const codeServer = await startCodeServer({
    runDir: path.join(RUNS_DIR, 'e2e'),
    logFile: path.join(artifacts, 'code-server.log'),
    settings: { 'openhands.serverUrl': server.url },
    env: { [PROBE_FILE_ENV]: exportsProbeFile },
  });
  cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
  cleanup.add('code-server', () => codeServer.stop());
  // "another extension", installed as users install them, before the workbench first connects
  installUnpackedExtension(codeServer.extensionsDir, exportsProbe);
  console.log(`[e2e] code-server pid ${codeServer.pid} at ${codeServer.url} (${since(step)})`);

  const browser = await launchBrowser();
  cleanup.add('chromium', () => browser.close());
  recordConsole(browser.page, path.join(artifacts, 'browser-console.log'));

  fs.rmSync(E2E_SCREENSHOTS, { recursive: true, force: true });
  const runner = new StepRunner(browser.page, E2E_SCREENSHOTS);
  defineSteps(runner, {
    page: browser.page,
    serverUrl: server.url,
    workspaceFolder: codeServer.workspaceFolder,
    userSettingsFile: path.join(codeServer.userDataDir, 'User', 'settings.json'),
    // Only extensionDevelopmentPath: with extensionTestsPath the extension host would stop after the suite.
    workbenchUrl: workbenchUrl({
      baseUrl: codeServer.url,
      folder: codeServer.workspaceFolder,
      extensionDevelopmentPath: ROOT,
    }),
    exportsProbeFile,
    lanServerUrl: lanProxy?.url,
    screenshot: (name) => screenshot(browser.page, path.join(E2E_SCREENSHOTS, `extra-${name}.png`)),
  });
  const results = await runner.run();

  // The workbench's state lives in the browser: copy it out, then stop everything so VS Code has
  // flushed its state and logs to the user-data dir before that is read.
  const storageDir = path.join(artifacts, 'browser-storage');
  const storage = await dumpBrowserStorage(browser.page, storageDir);
  await browser.close();
  await codeServer.stop();
  const userData = scanForSecrets([codeServer.userDataDir], E2E_SECRETS);
  const browserStorage = scanForSecrets([storageDir], E2E_SECRETS);
  const scan: ScanReport = {
    filesScanned: userData.filesScanned + browserStorage.filesScanned,
    hits: [...userData.hits, ...browserStorage.hits],
  };
  console.log(
    `[e2e] secret scan: ${scan.filesScanned} files scanned (${userData.filesScanned} in the user-data dir, ` +
      `${browserStorage.filesScanned} browser storage dumps with ${storage.entries} entries) for ` +
      `${E2E_SECRETS.length} secrets: ${scan.hits.length} hits outside Secret Storage ` +
      `(localStorage ${SECRET_STORAGE_ENTRY}: ${storage.secretStorageSeen ? 'present, excluded' : 'absent'})`,
  );
  for (const hit of scan.hits) {
    console.log(`  ✘ ${hit.secret} (${hit.encoding}) in ${path.relative(ROOT, hit.file)}`);
  }
  return { results, scan };
}

async function main(): Promise<number> {
  const started = Date.now();
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  const artifacts = freshArtifactsDir('e2e');
  try {
    const { results, scan } = await runSteps(cleanup, artifacts);
    console.log(
      `[e2e] screenshots: ${path.relative(ROOT, E2E_SCREENSHOTS)}/, logs: ${path.relative(ROOT, artifacts)}/`,
    );
    console.log(`[e2e] ${since(started)} total`);
    // the scan counts as one more check in the summary
    const checks: StepResult[] = [
      ...results,
      { name: 'secret scan', passed: scan.hits.length === 0, durationMs: 0 },
    ];
    if (scan.hits.length > 0) console.log('[e2e] FAILED: secrets found outside Secret Storage (above)');
    const passed = results.length > 0 && checks.every((r) => r.passed);
    // only a full run that passed shows every feature as it is
    if (passed && !process.env[E2E_GREP_ENV]) {
      const missing = publishReadmePictures();
      console.log(
        `[e2e] README pictures: ${path.relative(ROOT, README_IMAGES_DIR)}/` +
          (missing.length ? ` (missing: ${missing.join(', ')})` : ''),
      );
      if (missing.length) return 1;
    }
    console.log(stepSummary(checks));
    return passed ? 0 : 1;
  } catch (error) {
    console.error(`[e2e] ${error instanceof Error ? error.message : String(error)}`);
    console.log(`[e2e] logs: ${path.relative(ROOT, artifacts)}/`);
    console.log('0 passed, 1 failed');
    return 1;
  } finally {
    await cleanup.runAll();
  }
}

void main().then((code) => process.exit(code));
