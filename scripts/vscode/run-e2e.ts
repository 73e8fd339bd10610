// `npm run test:e2e`: drives the real workbench (code-server 1.100.3 in Chromium) with the extension
// loaded in development mode against the seeded test server; screenshots every step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defineSteps } from '../../test/e2e';
import { StepRunner, stepSummary, type StepResult } from '../../test/e2e/runner';
import { collectCodeServerLogs, freshArtifactsDir } from './artifacts';
import { launchBrowser } from './browser';
import { buildExtension } from './build';
import { Cleanup } from './cleanup';
import { startCodeServer } from './code-server';
import { recordConsole } from './console-log';
import { since } from './elapsed';
import { ROOT, RUNS_DIR, SCREENSHOTS_DIR } from './paths';
import { provision } from './provision';
import { startSeededTestServer } from './test-server';
import { screenshot } from './workbench';
import { workbenchUrl } from './workbench-url';

const E2E_SCREENSHOTS = path.join(SCREENSHOTS_DIR, 'e2e');

async function runSteps(cleanup: Cleanup, artifacts: string): Promise<StepResult[]> {
  let step = Date.now();
  provision();
  buildExtension();
  console.log(`[e2e] provisioned and built (${since(step)})`);

  const server = await startSeededTestServer({ fast: true });
  cleanup.add('test server', () => server.close());

  step = Date.now();
  const codeServer = await startCodeServer({
    runDir: path.join(RUNS_DIR, 'e2e'),
    logFile: path.join(artifacts, 'code-server.log'),
    settings: { 'openhands.serverUrl': server.url },
  });
  cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
  cleanup.add('code-server', () => codeServer.stop());
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
    screenshot: (name) => screenshot(browser.page, path.join(E2E_SCREENSHOTS, `extra-${name}.png`)),
  });
  return runner.run();
}

async function main(): Promise<number> {
  const started = Date.now();
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  const artifacts = freshArtifactsDir('e2e');
  try {
    const results = await runSteps(cleanup, artifacts);
    console.log(
      `[e2e] screenshots: ${path.relative(ROOT, E2E_SCREENSHOTS)}/, logs: ${path.relative(ROOT, artifacts)}/`,
    );
    console.log(`[e2e] ${since(started)} total`);
    console.log(stepSummary(results));
    return results.length > 0 && results.every((r) => r.passed) ? 0 : 1;
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
