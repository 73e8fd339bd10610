// Starts what `refresh.ts` measures in: the test server seeded with 10,000 conversations, the
// production build, code-server with the extension in development mode and `refresh.ts` as its
// test entry, and Chromium showing the workbench (so VS Code draws the trees). Returns the lines.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startTestServer } from '../../test/server';
import { launchBrowser } from '../../scripts/vscode/browser';
import { bundleForExtensionHost } from '../../scripts/vscode/build';
import { Cleanup } from '../../scripts/vscode/cleanup';
import { startCodeServer } from '../../scripts/vscode/code-server';
import { CHROMIUM_PATH, CODE_SERVER_ENTRY, ROOT, RUNS_DIR } from '../../scripts/vscode/paths';
import { waitForFile } from '../../scripts/vscode/wait-file';
import { workbenchUrl } from '../../scripts/vscode/workbench-url';
import {
  BENCH_IDLE_CYCLES_ENV,
  BENCH_PROFILE_ENV,
  BENCH_REPORT_ENV,
  BENCH_SERVER_URL_ENV,
} from './refreshEnv';

const OUT_DIR = path.join(ROOT, 'out', 'bench');

export interface RefreshDriverOptions {
  /** The extension folder to measure (default: this one, built with `--production`). */
  extensionPath?: string;
  idleCycles?: number;
}

export async function refreshWorkbenchReport(options: RefreshDriverOptions = {}): Promise<string[]> {
  if (!fs.existsSync(CODE_SERVER_ENTRY) || !fs.existsSync(CHROMIUM_PATH))
    return ['refresh figures in VS Code: skipped (code-server or Chromium missing; npm run provision)'];
  const extensionPath = options.extensionPath ?? ROOT;
  if (!options.extensionPath) {
    const built = spawnSync(process.execPath, ['esbuild.mjs', '--production'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the production build failed');
  }
  const entry = path.join(OUT_DIR, 'refresh.js');
  await bundleForExtensionHost(path.join(__dirname, 'refresh.ts'), entry);
  const cleanup = new Cleanup();
  try {
    const server = await startTestServer({
      host: '127.0.0.1',
      seed: { sandboxes: 60, conversations: 10_000, seed: 1 },
    });
    cleanup.add('test server', () => server.close());
    const report = path.join(OUT_DIR, 'refresh-report.json');
    fs.rmSync(report, { force: true });
    const codeServer = await startCodeServer({
      runDir: path.join(RUNS_DIR, 'bench-refresh'),
      logFile: path.join(OUT_DIR, 'code-server.log'),
      settings: {
        'openhands.serverUrl': server.url,
        // code-server looks for ports to forward by running a process every few seconds in this
        // host: its CPU is not the extension's
        'remote.autoForwardPorts': false,
      },
      env: {
        [BENCH_SERVER_URL_ENV]: server.url,
        [BENCH_REPORT_ENV]: report,
        [BENCH_IDLE_CYCLES_ENV]: String(options.idleCycles ?? process.env[BENCH_IDLE_CYCLES_ENV] ?? 595),
        ...(process.env[BENCH_PROFILE_ENV] ? { [BENCH_PROFILE_ENV]: process.env[BENCH_PROFILE_ENV] } : {}),
      },
    });
    cleanup.add('code-server', () => codeServer.stop());
    const browser = await launchBrowser();
    cleanup.add('chromium', () => browser.close());
    await browser.page.goto(
      workbenchUrl({
        baseUrl: codeServer.url,
        folder: codeServer.workspaceFolder,
        extensionDevelopmentPath: extensionPath,
        extensionTestsPath: entry,
      }),
    );
    await waitForFile(report, { timeoutMs: 20 * 60_000, abortReason: codeServer.exitReason });
    const lines = JSON.parse(fs.readFileSync(report, 'utf8')) as string[];
    return [
      'Refresh figures in VS Code (code-server 1.100.3, production build, measured in the extension host)',
      ...lines.map((line) => `  ${line}`),
    ];
  } finally {
    await cleanup.runAll();
  }
}

// `npx tsx bench/workbench/refreshDriver.ts [extension folder]`: these figures alone.
if (require.main === module) {
  const extensionPath = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  void refreshWorkbenchReport({ extensionPath }).then(
    (lines) => console.log(lines.join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
