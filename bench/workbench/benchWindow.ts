// What every workbench bench opens before it measures: code-server on the bench's test server, Chromium,
// and the workbench URL that loads the staged production build with the bench's probe as its tests.
import * as path from 'node:path';
import { launchBrowser } from '../../scripts/vscode/browser';
import type { Cleanup } from '../../scripts/vscode/cleanup';
import { startCodeServer } from '../../scripts/vscode/code-server';
import { ARTIFACTS_DIR, RUNS_DIR } from '../../scripts/vscode/paths';
import { workbenchUrl } from '../../scripts/vscode/workbench-url';

export interface BenchWindowOptions {
  /** The run folder's name, under the runs of scripts/vscode. */
  name: string;
  /** The code-server log's file name, under the bench's artifacts. */
  logName: string;
  serverUrl: string;
  /** Tells the probe where to write and what to open. */
  env: Record<string, string>;
  extensionFolder: string;
  probe: string;
}

/** code-server, the browser and the workbench URL; each stopped by `cleanup`. */
export async function openBenchWindow(cleanup: Cleanup, options: BenchWindowOptions) {
  const codeServer = await startCodeServer({
    runDir: path.join(RUNS_DIR, options.name),
    logFile: path.join(ARTIFACTS_DIR, 'bench', options.logName),
    settings: { 'openhands.serverUrl': options.serverUrl },
    env: options.env,
  });
  cleanup.add('code-server', () => codeServer.stop());
  const browser = await launchBrowser();
  cleanup.add('chromium', () => browser.close());
  const url = workbenchUrl({
    baseUrl: codeServer.url,
    folder: codeServer.workspaceFolder,
    extensionDevelopmentPath: options.extensionFolder,
    extensionTestsPath: options.probe,
  });
  return { codeServer, browser, url };
}
