// Starts the real OpenHands app server from the cached venv on 127.0.0.1: local process sandboxes
// (RUNTIME=local, no Docker), no frontend, its state and SQLite database in a temporary folder, a
// SESSION_API_KEY, and no price-table download. Waits for GET /alive. `stop()` ends the whole process
// group (the app server and every agent-server sandbox process it spawned) and removes the folder.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../vscode/free-port';
import { killGroup, spawnGroup } from '../vscode/process-group';
import { waitForHttp } from '../vscode/wait-http';
import { SERVE_SCRIPT, VENV_PYTHON, ensureOpenHands } from './venv';

export interface RealOpenHands {
  url: string;
  /** The server's SESSION_API_KEY: send it as X-Session-API-Key (needed by /api/v1/settings and /secrets). */
  apiKey: string;
  pid: number;
  stateDir: string;
  logFile: string;
  exitReason(): string | undefined;
  stop(): Promise<void>;
}

export interface RealOpenHandsOptions {
  port?: number;
  /** The app server's stdout/stderr; default: `<stateDir>/app-server.log`. */
  logFile?: string;
  /** Keep the state folder after stop (for a look at the SQLite database and sandbox logs). */
  keepState?: boolean;
  log?: (line: string) => void;
}

export async function startRealOpenHands(options: RealOpenHandsOptions = {}): Promise<RealOpenHands> {
  const log = options.log ?? console.log;
  ensureOpenHands(log);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-real-'));
  const home = path.join(stateDir, 'home');
  const tmp = path.join(stateDir, 'tmp');
  // tmux's socket folder for this run's sandboxes: each agent server kills every session on its socket
  // when it starts, so two runs sharing one (the spec's /tmp/openhands-tmux) break each other's terminals.
  // Kept short: a Unix socket path has a length limit.
  const tmux = fs.mkdtempSync(path.join(os.tmpdir(), 'oh-tmux-'));
  for (const dir of [home, tmp]) fs.mkdirSync(dir, { recursive: true });
  const port = await freePort(options.port);
  const apiKey = `oh-vscode-${randomBytes(12).toString('hex')}`;
  const logFile = options.logFile ?? path.join(stateDir, 'app-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: process.env.LANG ?? 'C.UTF-8',
    // Everything the server and its sandboxes write stays in the state folder.
    HOME: home,
    TMPDIR: tmp, // the process sandboxes' working folders: <TMPDIR>/openhands-sandboxes/<id>
    OH_PERSISTENCE_DIR: path.join(stateDir, 'persistence'), // settings, secrets, openhands.db (SQLite)
    RUNTIME: 'local',
    SERVE_FRONTEND: 'false',
    SESSION_API_KEY: apiKey,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    // No analytics, telemetry or update checks leave the machine.
    POSTHOG_DISABLED: '1',
    DO_NOT_TRACK: '1',
    OPENHANDS_SUPPRESS_BANNER: '1',
    PYTHONUNBUFFERED: '1',
    // serve_patched.py starts the sandboxes' agent servers through loopback_agent_server.py (127.0.0.1 only)
    PYTHONPATH: path.dirname(SERVE_SCRIPT),
    // applied to every sandbox after the spec's own TMUX_TMPDIR
    OH_AGENT_SERVER_ENV: JSON.stringify({ TMUX_TMPDIR: tmux }),
  };
  const out = fs.openSync(logFile, 'w');
  const child = spawnGroup(VENV_PYTHON, [SERVE_SCRIPT, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: stateDir,
    env,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const pid = child.pid as number;
  let exitReason: string | undefined;
  child.once('exit', (code, signal) => {
    exitReason = `the OpenHands app server exited (${signal ?? `code ${code}`}); see ${logFile}`;
  });
  // Last resort when this process exits before stop() (Ctrl-C while starting, a crash): no orphans.
  const killOnExit = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await killGroup(pid, 5000);
    process.removeListener('exit', killOnExit);
    if (!options.keepState) fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(tmux, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/alive`, { timeoutMs: 120_000, stillStarting: () => exitReason });
  } catch (error) {
    const tail = fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n')
      : '';
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail}`);
  }
  return { url, apiKey, pid, stateDir, logFile, exitReason: () => exitReason, stop };
}
