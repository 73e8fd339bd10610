// A new user's first minutes, checked by hand on request (`npx tsx scripts/first-hour.ts`): the packaged VSIX
// installed into a fresh code-server (no settings, no key), the real OpenHands running on this machine with
// one conversation, and the README's steps clicked through — Connect to OpenHands…, OpenHands on this
// machine, the key it asks for, then the conversation live in its panel. Prints the time from the first
// click to the live panel; screenshots of each step in .artifacts/screenshots/first-hour/.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitForFeed, waitForTranscript } from '../test/e2e/conversationPanel';
import { answerInputBox, passwordBox, quickPickRow, toastSaying } from '../test/e2e/palette';
import { collectCodeServerLogs, freshArtifactsDir } from './vscode/artifacts';
import { launchBrowser } from './vscode/browser';
import { Cleanup } from './vscode/cleanup';
import { CODE_SERVER_ENTRY, ROOT, RUNS_DIR, SCREENSHOTS_DIR } from './vscode/paths';
import { provision } from './vscode/provision';
import { startCodeServer } from './vscode/code-server';
import { openActivityBarView, screenshot, waitForWorkbench, widenSidebar } from './vscode/workbench';
import { workbenchUrl } from './vscode/workbench-url';
import { startRealDemoServer } from './real-openhands/demo';

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  cleanup.handleSignals();
  const artifacts = freshArtifactsDir('first-hour');
  const shots = path.join(SCREENSHOTS_DIR, 'first-hour');
  fs.rmSync(shots, { recursive: true, force: true });
  fs.mkdirSync(shots, { recursive: true });
  try {
    provision();
    const packaged = spawnSync('npm', ['run', 'package'], { cwd: ROOT, stdio: 'inherit' });
    const vsix = path.join(ROOT, 'openhands-vscode.vsix');
    if (packaged.status !== 0 || !fs.existsSync(vsix)) throw new Error('npm run package failed');
    console.log(`[first-hour] VSIX: ${Math.round(fs.statSync(vsix).size / 1024)} KB`);

    const real = await startRealDemoServer(3000, path.join(artifacts, 'app-server.log'));
    cleanup.add('OpenHands', () => real.stop());
    console.log(`[first-hour] OpenHands ${real.server.url} (key ${real.server.apiKey.slice(0, 10)}…)`);

    const codeServer = await startCodeServer({
      runDir: path.join(RUNS_DIR, 'first-hour'),
      logFile: path.join(artifacts, 'code-server.log'),
    });
    cleanup.add('collect logs', () => collectCodeServerLogs(codeServer.userDataDir, artifacts));
    cleanup.add('code-server', () => codeServer.stop());
    // as a user installs it: the VSIX, through VS Code's own installer, before the window opens
    const install = spawnSync(
      process.execPath,
      [
        CODE_SERVER_ENTRY,
        '--extensions-dir',
        codeServer.extensionsDir,
        '--user-data-dir',
        codeServer.userDataDir,
        '--install-extension',
        vsix,
      ],
      { encoding: 'utf8' },
    );
    if (install.status !== 0) throw new Error(`installing the VSIX failed: ${install.stderr}`);
    console.log(`[first-hour] ${install.stdout.trim().split('\n').pop()}`);

    const browser = await launchBrowser();
    cleanup.add('chromium', () => browser.close());
    const { page } = browser;
    const shot = async (name: string) =>
      console.log(`  ${await screenshot(page, path.join(shots, `${name}.png`))}`);
    await page.goto(workbenchUrl({ baseUrl: codeServer.url, folder: codeServer.workspaceFolder }));
    await waitForWorkbench(page);

    const started = Date.now();
    const step = (what: string) =>
      console.log(`[first-hour] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    await openActivityBarView(page, 'OpenHands');
    await widenSidebar(page);
    await page.locator('.welcome-view-content a', { hasText: 'Connect to OpenHands…' }).first().click();
    step('Connect to OpenHands…');
    await shot('1-connect-choices');
    const port = Number(new URL(real.server.url).port);
    // the ports the flow looks at (src/commands/servers/localServer.ts)
    if ([3000, 3001, 8000, 8080].includes(port)) {
      await quickPickRow(page, 'OpenHands on this machine').click();
    } else {
      await quickPickRow(page, 'Another server…').click();
      await answerInputBox(page, real.server.url);
    }
    // the server was started with SESSION_API_KEY: the flow asks for it
    await passwordBox(page, 'API key for');
    step('the key box');
    await shot('2-key');
    await answerInputBox(page, real.server.apiKey);
    await toastSaying(page, /Connected to .*: OpenHands 1\.11\.0, API key accepted/);
    step('connected');
    await shot('3-connected');
    const row = page.locator('.pane', { hasText: 'Conversations' }).locator('.monaco-list-row').first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    const frame = await waitForTranscript(page, 60_000);
    await waitForFeed(frame, 'live', 60_000);
    step('the conversation live in its panel');
    await shot('4-panel-live');
    console.log(
      `[first-hour] from the first click to a live panel: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } catch (error) {
    console.error(`[first-hour] ${error instanceof Error ? error.stack : String(error)}`);
    return 1;
  } finally {
    await cleanup.runAll();
  }
}

void main().then((code) => process.exit(code));
