// `npm run test:real`: the extension and its client against the REAL OpenHands app server.
//  1. installs openhands-ai (pinned) into the cached venv when missing (seconds when present);
//  2. starts the scripted LLM and the real app server (process sandboxes) on 127.0.0.1, fresh: no settings;
//  3. a real VS Code (code-server + Chromium) with the extension against that server
//     (test/real/vscode.steps.ts): it connects and sets the model up by clicks, then the rest, a screenshot
//     per step in .artifacts/screenshots/real/;
//  4. the client suite's real-server part (test/real/client.real.test.ts, mocha) over HTTP, on the model
//     the clicks stored (the driver stores it only when the VS Code part did not).
// Prints `N passed, N failed` over both. Everything it started is stopped by process group, also on
// Ctrl-C and on failure.
// Focused runs while developing: `OPENHANDS_REAL_PARTS=client` (or `vscode`) runs one part only;
// `OPENHANDS_REAL_CLIENT_GREP=<regex>` only the client tests whose full titles match (mocha --grep:
// include the tests a match needs, e.g. `startSandbox starts|images`); `OPENHANDS_E2E_GREP` picks
// VS Code steps as in test:e2e.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { configureScriptedLlm, REAL_ENV, realRequest } from '../../test/real/env';
import { SCRIPTED_MODEL } from '../../test/real/scriptedLlm';
import { defineRealSteps } from '../../test/real/vscode.steps';
import { StepRunner } from '../../test/e2e/runner';
import { collectCodeServerLogs, freshArtifactsDir } from '../vscode/artifacts';
import { launchBrowser } from '../vscode/browser';
import { buildExtension } from '../vscode/build';
import { Cleanup } from '../vscode/cleanup';
import { startCodeServer } from '../vscode/code-server';
import { recordConsole } from '../vscode/console-log';
import { since } from '../vscode/elapsed';
import { ROOT, RUNS_DIR, SCREENSHOTS_DIR } from '../vscode/paths';
import { killGroup, spawnGroup } from '../vscode/process-group';
import { provision } from '../vscode/provision';
import { screenshot } from '../vscode/workbench';
import { workbenchUrl } from '../vscode/workbench-url';
import type { RealOpenHands } from './server';
import { startRealStack } from './stack';
import { ensureOpenHands, installedVersions } from './venv';

const ARTIFACTS_NAME = 'real';
const REAL_SCREENSHOTS = path.join(SCREENSHOTS_DIR, 'real');
const CLIENT_SUITE = path.join(ROOT, 'test', 'real', 'client.real.test.ts');
/**
 * The whole client suite normally takes 2-3 minutes; past this it is stopped and counted as failed.
 * (mocha's per-test timeout cannot fire while the event loop is blocked: a failing `assert.ok(x)`
 * without a message under tsx once did that, Node 20 re-parsing the source for ever.)
 */
const CLIENT_SUITE_DEADLINE_MS = 20 * 60_000;
const PARTS_ENV = 'OPENHANDS_REAL_PARTS';
const CLIENT_GREP_ENV = 'OPENHANDS_REAL_CLIENT_GREP';

function runsPart(part: 'client' | 'vscode'): boolean {
  const parts = process.env[PARTS_ENV];
  return !parts || parts.split(',').includes(part);
}

interface Counts {
  passed: number;
  failed: number;
}

/**
 * Runs the mocha suite in a child process group (its own output on our stdout) and reads its tallies.
 * The group is stopped at the deadline and by the cleanup (Ctrl-C, SIGTERM).
 */
function runClientSuite(
  cleanup: Cleanup,
  server: RealOpenHands,
  llmBaseUrl: string,
  logFile: string,
): Promise<Counts> {
  const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const args = [
    mocha,
    '--no-config',
    '--node-option',
    'import=tsx',
    '--timeout',
    '180000',
    '--reporter',
    'spec',
    ...(process.env[CLIENT_GREP_ENV] ? ['--grep', process.env[CLIENT_GREP_ENV]] : []),
    CLIENT_SUITE,
  ];
  return new Promise((resolve, reject) => {
    const child = spawnGroup(process.execPath, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        [REAL_ENV.url]: server.url,
        [REAL_ENV.apiKey]: server.apiKey,
        [REAL_ENV.llmBaseUrl]: llmBaseUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid as number;
    cleanup.add('client suite', () => killGroup(pid));
    let output = '';
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      const line = `[real] the client suite ran past ${CLIENT_SUITE_DEADLINE_MS / 60_000} min: stopped\n`;
      output += line;
      process.stdout.write(line);
      void killGroup(pid);
    }, CLIENT_SUITE_DEADLINE_MS);
    const log = fs.createWriteStream(logFile);
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        log.write(chunk);
        process.stdout.write(chunk);
      });
    }
    child.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.once('exit', () => {
      clearTimeout(deadline);
      log.end();
      const passed = Number(/(\d+) passing/.exec(output)?.[1] ?? 0);
      const failed = Number(/(\d+) failing/.exec(output)?.[1] ?? 0);
      // a suite that did not even load, or was stopped, counts as one failure more, never as zero tests
      resolve(passed + failed === 0 || timedOut ? { passed, failed: failed + 1 } : { passed, failed });
    });
  });
}

async function runVsCode(
  cleanup: Cleanup,
  server: RealOpenHands,
  llmBaseUrl: string,
  artifacts: string,
  log: (line: string) => void,
): Promise<Counts> {
  let step = Date.now();
  provision();
  buildExtension();
  log(`[real] provisioned and built (${since(step)})`);
  step = Date.now();
  const codeServer = await startCodeServer({
    runDir: path.join(RUNS_DIR, 'real'),
    logFile: path.join(artifacts, 'code-server.log'),
    settings: { 'openhands.serverUrl': server.url, 'openhands.httpLogLevel': 'bodies' },
  });
  cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
  cleanup.add('code-server', () => codeServer.stop());
  log(`[real] code-server pid ${codeServer.pid} at ${codeServer.url} (${since(step)})`);
  const browser = await launchBrowser();
  cleanup.add('chromium', () => browser.close());
  recordConsole(browser.page, path.join(artifacts, 'browser-console.log'));

  fs.rmSync(REAL_SCREENSHOTS, { recursive: true, force: true });
  const runner = new StepRunner(browser.page, REAL_SCREENSHOTS);
  defineRealSteps(runner, {
    page: browser.page,
    server: { url: server.url, apiKey: server.apiKey },
    llmBaseUrl,
    workbenchUrl: workbenchUrl({
      baseUrl: codeServer.url,
      folder: codeServer.workspaceFolder,
      extensionDevelopmentPath: ROOT,
    }),
    screenshot: (name) => screenshot(browser.page, path.join(REAL_SCREENSHOTS, `extra-${name}.png`)),
    workspaceFolder: codeServer.workspaceFolder,
  });
  const results = await runner.run();
  const passed = results.filter((r) => r.passed).length;
  return { passed, failed: results.length - passed || (results.length === 0 ? 1 : 0) };
}

/** Whether the server has settings with a model (a fresh 1.11 answers 404 "Settings not found"). */
async function hasModel(server: RealOpenHands): Promise<boolean> {
  const reply = await realRequest<{ agent_settings?: { llm?: { model?: string } } }>(
    server,
    'GET',
    '/api/v1/settings',
  );
  return reply.status === 200 && Boolean(reply.body.agent_settings?.llm?.model);
}

async function main(): Promise<number> {
  const started = Date.now();
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  const artifacts = freshArtifactsDir(ARTIFACTS_NAME);
  const log = (line: string) => console.log(line);
  const totals: Counts = { passed: 0, failed: 0 };
  try {
    let step = Date.now();
    const what = ensureOpenHands(log);
    const versions = installedVersions();
    log(`[real] openhands ${what} (${since(step)}): ${JSON.stringify(versions)}`);

    step = Date.now();
    // With the VS Code part, the server starts fresh (no settings at all): its first steps connect and set
    // the model up by clicks, as a user following the README would. The client suite runs after it.
    const { server, llm, stop } = await startRealStack({
      logFile: path.join(artifacts, 'app-server.log'),
      log,
      storeLlm: !runsPart('vscode'),
    });
    cleanup.add('OpenHands app server and scripted LLM', stop);
    log(`[real] OpenHands app server pid ${server.pid} at ${server.url} (${since(step)})`);

    step = Date.now();
    if (runsPart('vscode')) {
      try {
        const vscode = await runVsCode(cleanup, server, llm.baseUrl, artifacts, log);
        log(`[real] VS Code: ${vscode.passed} passed, ${vscode.failed} failed (${since(step)})`);
        totals.passed += vscode.passed;
        totals.failed += vscode.failed;
      } catch (error) {
        console.error(`[real] VS Code run: ${error instanceof Error ? error.message : String(error)}`);
        totals.failed += 1;
      }
    }

    step = Date.now();
    if (runsPart('client')) {
      // the VS Code part stored the model by clicks; when it could not (it failed first, or did not run),
      // the driver stores it so the client suite still tests what it tests (the failure is counted above)
      if (!(await hasModel(server))) {
        log('[real] no model stored on the server: the driver stores the scripted LLM for the client suite');
        await configureScriptedLlm(server, llm.baseUrl, SCRIPTED_MODEL);
      }
      const client = await runClientSuite(
        cleanup,
        server,
        llm.baseUrl,
        path.join(artifacts, 'client-suite.log'),
      );
      log(`[real] client suite: ${client.passed} passed, ${client.failed} failed (${since(step)})`);
      totals.passed += client.passed;
      totals.failed += client.failed;
    }

    fs.writeFileSync(path.join(artifacts, 'llm-requests.json'), `${JSON.stringify(llm.requests, null, 2)}\n`);
    log(
      `[real] screenshots: ${path.relative(ROOT, REAL_SCREENSHOTS)}/, logs: ${path.relative(ROOT, artifacts)}/`,
    );
  } catch (error) {
    console.error(`[real] ${error instanceof Error ? error.message : String(error)}`);
    totals.failed += 1;
  } finally {
    await cleanup.runAll();
  }
  log(`[real] ${since(started)} total`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  return totals.failed === 0 && totals.passed > 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
