// `npm run demo`: the extension in a real VS Code (code-server 1.100.3) against a seeded OpenHands test
// server, everything on 127.0.0.1. Prints the URL to open and runs until Ctrl-C.
// `npm run demo -- --screenshot out.png` instead saves the workbench with the OpenHands view open and exits.
// `npm run demo -- --real` runs against the REAL OpenHands app server (installed on first use into
// ~/.cache/openhands-vscode/, local process sandboxes) with the scripted LLM, started with one conversation.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { collectCodeServerLogs, freshArtifactsDir } from './vscode/artifacts';
import { launchBrowser } from './vscode/browser';
import { buildExtension } from './vscode/build';
import { Cleanup } from './vscode/cleanup';
import { startCodeServer, type CodeServer } from './vscode/code-server';
import { recordConsole } from './vscode/console-log';
import { since } from './vscode/elapsed';
import { ROOT, RUNS_DIR } from './vscode/paths';
import { provision } from './vscode/provision';
import { startSeededTestServerPreferring } from './vscode/test-server';
import { startRealDemoServer, storeApiKeyInWorkbench } from './real-openhands/demo';
import { openActivityBarView, screenshot, waitForWorkbench, widenSidebar } from './vscode/workbench';
import { workbenchUrl } from './vscode/workbench-url';

const TEST_SERVER_PORT = 3000;
const CODE_SERVER_PORT = 8080;

function hasDesktopCode(): boolean {
  return spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
}

/** Opens the workbench in headless Chromium, shows the OpenHands view and saves a PNG. */
async function takeScreenshot(
  url: string,
  file: string,
  artifacts: string,
  cleanup: Cleanup,
  apiKey?: string,
): Promise<boolean> {
  const browser = await launchBrowser();
  cleanup.add('chromium', () => browser.close());
  recordConsole(browser.page, path.join(artifacts, 'browser-console.log'));
  await browser.page.goto(url);
  await waitForWorkbench(browser.page);
  let viewOpened = true;
  try {
    await openActivityBarView(browser.page, 'OpenHands');
    if (apiKey) await storeApiKeyInWorkbench(browser.page, apiKey);
    await widenSidebar(browser.page);
    // Rows come from the test server a moment after the view opens.
    await browser.page.locator('.part.sidebar .monaco-list-row').first().waitFor({ timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 500));
  } catch (error) {
    viewOpened = false;
    console.error(
      `[demo] could not show the OpenHands view: ${error instanceof Error ? error.message : error}`,
    );
  }
  // Relative to where the user typed the command (npm run changes the cwd to the project root).
  const saved = await screenshot(browser.page, path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
  console.log(`[demo] screenshot: ${saved}`);
  return viewOpened;
}

function printInstructions(url: string, serverUrl: string, codeServer: CodeServer, apiKey?: string): void {
  console.log('');
  if (apiKey) {
    console.log(`  Real OpenHands server:  ${serverUrl}   (process sandboxes, scripted LLM)`);
    console.log(`  Its API key:            ${apiKey}   (VS Code: "OpenHands: Set API Key…")`);
  } else {
    console.log(`  OpenHands test server:  ${serverUrl}   (seeded: npm run server -- --seed 25 equivalent)`);
  }
  console.log(`  VS Code (code-server):  pid ${codeServer.pid}, workspace ${codeServer.workspaceFolder}`);
  console.log('');
  console.log('  Open this URL in a browser (the extension is loaded in development mode):');
  console.log(`  ${url}`);
  if (hasDesktopCode()) {
    console.log('');
    console.log('  Or, in your desktop VS Code (set "openhands.serverUrl" to the server above):');
    console.log(`  code --extensionDevelopmentPath=${ROOT}`);
  }
  console.log('');
  console.log('  Press Ctrl-C to stop everything.');
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { screenshot: { type: 'string' }, real: { type: 'boolean' } } });
  const started = Date.now();
  const cleanup = new Cleanup();
  // Ctrl-C is how a demo ends: a clean exit, after stopping everything.
  cleanup.handleSignals(0);
  try {
    provision();
    buildExtension();
    const artifacts = freshArtifactsDir('demo');
    let server: { url: string; close(): Promise<void> };
    let apiKey: string | undefined;
    if (values.real) {
      const real = await startRealDemoServer(TEST_SERVER_PORT, path.join(artifacts, 'app-server.log'));
      server = { url: real.server.url, close: real.stop };
      apiKey = real.server.apiKey;
    } else {
      server = await startSeededTestServerPreferring(TEST_SERVER_PORT);
    }
    cleanup.add(values.real ? 'OpenHands app server' : 'test server', () => server.close());
    const codeServer = await startCodeServer({
      runDir: path.join(RUNS_DIR, 'demo'),
      logFile: path.join(artifacts, 'code-server.log'),
      port: CODE_SERVER_PORT,
      settings: { 'openhands.serverUrl': server.url },
    });
    cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
    cleanup.add('code-server', () => codeServer.stop());
    const url = workbenchUrl({
      baseUrl: codeServer.url,
      folder: codeServer.workspaceFolder,
      extensionDevelopmentPath: ROOT,
    });
    console.log(`[demo] ready in ${since(started)}`);

    if (values.screenshot) {
      const ok = await takeScreenshot(url, values.screenshot, artifacts, cleanup, apiKey);
      return ok ? 0 : 1;
    }
    printInstructions(url, server.url, codeServer, apiKey);
    // Run until Ctrl-C (handled by Cleanup) or until code-server dies on its own.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const reason = codeServer.exitReason();
        if (reason) {
          console.error(`[demo] ${reason}`);
          clearInterval(timer);
          resolve();
        }
      }, 1000);
    });
    return 1;
  } catch (error) {
    console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await cleanup.runAll();
  }
}

void main().then((code) => process.exit(code));
