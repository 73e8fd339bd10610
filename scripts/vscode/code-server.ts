// Starts code-server (VS Code 1.100.3 served to a browser) with a throwaway profile, on loopback only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_ENTRY } from './paths';
import { freePort } from './free-port';
import { killGroup, spawnGroup } from './process-group';
import { writeUserSettings, type Settings } from './user-settings';
import { waitForHttp } from './wait-http';

export interface CodeServerOptions {
  /** Scratch folder for this run; wiped and recreated. */
  runDir: string;
  /** code-server's stdout/stderr go here. */
  logFile: string;
  settings?: Settings;
  /** Extra environment for code-server, inherited by the extension host (and so by the extension and tests). */
  env?: Record<string, string>;
  port?: number;
  /**
   * Workspace trust on: the folder opens in Restricted Mode (a fresh browser profile has trusted
   * nothing, and the startup prompt is off). Off by default, as most runs need a trusted folder.
   */
  restricted?: boolean;
  /** Files to put into the workspace folder, by relative path. */
  workspaceFiles?: Record<string, string>;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  workspaceFolder: string;
  /** Why the process ended early, if it did. */
  exitReason(): string | undefined;
  stop(): Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) {
    throw new Error(`code-server is not provisioned (${CODE_SERVER_ENTRY}); run: npm run provision`);
  }
  fs.rmSync(options.runDir, { recursive: true, force: true });
  const userDataDir = path.join(options.runDir, 'user-data');
  const extensionsDir = path.join(options.runDir, 'extensions');
  const workspaceFolder = path.join(options.runDir, 'workspace');
  const configFile = path.join(options.runDir, 'config.yaml');
  for (const dir of [userDataDir, extensionsDir, workspaceFolder]) fs.mkdirSync(dir, { recursive: true });
  // Without an explicit config file code-server writes one (with a password) into ~/.config.
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  for (const [relative, content] of Object.entries(options.workspaceFiles ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspaceFolder, relative)), { recursive: true });
    fs.writeFileSync(path.join(workspaceFolder, relative), content);
  }
  const trust = options.restricted
    ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
    : {};
  writeUserSettings(userDataDir, { ...trust, ...options.settings });

  const port = await freePort(options.port);
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const args = [
    CODE_SERVER_ENTRY,
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.restricted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    workspaceFolder,
  ]; // prettier-ignore
  // process.execPath: the Node that runs us (20), not whatever `node` is first on PATH.
  const child = spawnGroup(process.execPath, args, {
    cwd: options.runDir,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const pid = child.pid as number;
  let exitReason: string | undefined;
  child.once('exit', (code, signal) => {
    exitReason = `code-server exited (${signal ?? `code ${code}`}); see ${options.logFile}`;
  });

  const url = `http://127.0.0.1:${port}`;
  const stop = () => killGroup(pid);
  try {
    await waitForHttp(`${url}/healthz`, { timeoutMs: 60_000, stillStarting: () => exitReason });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port,
    pid,
    userDataDir,
    extensionsDir,
    workspaceFolder,
    exitReason: () => exitReason,
    stop,
  };
}
