// Installs the real OpenHands app server (openhands-ai, pinned) with pip into a virtual environment cached
// outside the repository: ~/.cache/openhands-vscode/venv-<version>. Idempotent: a marker file in the venv
// records what was installed (version + the constraints file's hash), so a second run only reads it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const OPENHANDS_VERSION = '1.11.0';
export const REAL_DIR = __dirname;
/**
 * `pip freeze` of a working install: pip's resolver otherwise backtracks through many versions of
 * browser-use, anthropic, fastapi… on every fresh machine. Regenerate it when the pin changes.
 */
export const CONSTRAINTS_FILE = path.join(REAL_DIR, 'constraints.txt');
export const SERVE_SCRIPT = path.join(REAL_DIR, 'serve_patched.py');

const cacheRoot = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
export const VENV_DIR =
  process.env.OPENHANDS_VENV_DIR ?? path.join(cacheRoot, 'openhands-vscode', `venv-${OPENHANDS_VERSION}`);
export const VENV_PYTHON = path.join(VENV_DIR, 'bin', 'python');
const MARKER = path.join(VENV_DIR, '.openhands-vscode-installed');

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: options.env ?? process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const tail = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${tail}`);
  }
  return result.stdout;
}

function pythonVersion(python: string): [number, number] | undefined {
  const result = spawnSync(python, ['-c', 'import sys; print(sys.version_info[0], sys.version_info[1])'], {
    encoding: 'utf8',
  });
  if (result.status !== 0) return undefined;
  const [major, minor] = result.stdout.trim().split(' ').map(Number);
  return major === undefined || minor === undefined ? undefined : [major, minor];
}

/** A Python ≥ 3.12: $OPENHANDS_PYTHON, pyenv's (3.12 first), then python3.12/python3.13/python3 on PATH. */
export function findPython(): string {
  const candidates: string[] = [];
  if (process.env.OPENHANDS_PYTHON) candidates.push(process.env.OPENHANDS_PYTHON);
  const pyenvVersions = path.join(process.env.PYENV_ROOT ?? path.join(os.homedir(), '.pyenv'), 'versions');
  if (fs.existsSync(pyenvVersions)) {
    // 3.12 first: constraints.txt was frozen with it (newer Pythons may lack wheels for those pins)
    const versions = fs
      .readdirSync(pyenvVersions)
      .filter((v) => /^3\.\d+\.\d+$/.test(v))
      .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))
      .sort((a, b) => Number(b.startsWith('3.12.')) - Number(a.startsWith('3.12.')));
    candidates.push(...versions.map((v) => path.join(pyenvVersions, v, 'bin', 'python')));
  }
  candidates.push('python3.12', 'python3.13', 'python3');
  for (const candidate of candidates) {
    const version = pythonVersion(candidate);
    if (version && (version[0] > 3 || (version[0] === 3 && version[1] >= 12))) return candidate;
  }
  throw new Error(`no Python >= 3.12 found (tried ${candidates.join(', ')}); set OPENHANDS_PYTHON`);
}

function wantedMarker(): string {
  const constraints = fs.existsSync(CONSTRAINTS_FILE) ? fs.readFileSync(CONSTRAINTS_FILE) : Buffer.from('');
  const hash = createHash('sha256').update(constraints).digest('hex').slice(0, 16);
  return `openhands-ai==${OPENHANDS_VERSION} constraints:${hash}\n`;
}

export function isInstalled(): boolean {
  return (
    fs.existsSync(VENV_PYTHON) && fs.existsSync(MARKER) && fs.readFileSync(MARKER, 'utf8') === wantedMarker()
  );
}

/**
 * One installer at a time per venv (test:real and demo --real may start together on a fresh machine):
 * a lock folder next to the venv; a lock older than 30 minutes is a crashed installer's and is taken over.
 */
function withInstallLock<T>(log: (line: string) => void, body: () => T): T {
  const lock = `${VENV_DIR}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 30 * 60_000;
  let announced = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since === undefined) continue; // released between our two calls
      const age = Date.now() - since;
      if (age > 30 * 60_000 || Date.now() > deadline) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!announced) log(`[real] another process is installing into ${VENV_DIR}; waiting…`);
      announced = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    }
  }
  try {
    return body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Installs when the marker is missing or stale; returns what it did, for the timing lines. */
export function ensureOpenHands(log: (line: string) => void = console.log): 'present' | 'installed' {
  if (isInstalled()) return 'present';
  return withInstallLock(log, () => (isInstalled() ? 'present' : install(log)));
}

function install(log: (line: string) => void): 'installed' {
  const started = Date.now();
  if (!fs.existsSync(VENV_PYTHON)) {
    const python = findPython();
    log(`[real] creating ${VENV_DIR} with ${python}`);
    fs.mkdirSync(path.dirname(VENV_DIR), { recursive: true });
    run(python, ['-m', 'venv', VENV_DIR]);
  }
  log(`[real] pip install openhands-ai==${OPENHANDS_VERSION} into ${VENV_DIR} (a few minutes when cold)…`);
  const args = ['-m', 'pip', 'install', '--disable-pip-version-check', `openhands-ai==${OPENHANDS_VERSION}`];
  if (fs.existsSync(CONSTRAINTS_FILE)) args.push('--constraint', CONSTRAINTS_FILE);
  const logFile = path.join(path.dirname(VENV_DIR), `pip-install-${OPENHANDS_VERSION}.log`);
  log(`[real] pip's output: ${logFile}`);
  const fd = fs.openSync(logFile, 'w');
  const result = spawnSync(VENV_PYTHON, args, {
    stdio: ['ignore', fd, fd],
    env: { ...process.env, PIP_PROGRESS_BAR: 'off' },
  });
  fs.closeSync(fd);
  if (result.status !== 0) {
    const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-30).join('\n');
    throw new Error(`pip install failed (exit ${result.status ?? result.signal}); ${logFile}:\n${tail}`);
  }
  fs.writeFileSync(MARKER, wantedMarker());
  log(`[real] installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 'installed';
}

/** Versions of the packages that matter, read from the venv's metadata. */
export function installedVersions(): Record<string, string> {
  const script = [
    'import importlib.metadata as m, json',
    "names = ['openhands-ai', 'openhands-agent-server', 'openhands-sdk', 'openhands-tools', 'litellm']",
    'print(json.dumps({n: m.version(n) for n in names}))',
  ].join('\n');
  return JSON.parse(run(VENV_PYTHON, ['-c', script])) as Record<string, string>;
}

// `tsx scripts/real-openhands/venv.ts`: install (or check) and print the versions.
if (require.main === module) {
  const started = Date.now();
  const what = ensureOpenHands();
  console.log(`[real] ${what} (${((Date.now() - started) / 1000).toFixed(1)} s): ${VENV_DIR}`);
  console.log(JSON.stringify(installedVersions()));
}
