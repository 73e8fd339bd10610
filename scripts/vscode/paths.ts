// Well-known locations shared by the provisioning, test and demo scripts.
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** 4.101+ needs Node 24; 4.100.3 runs on Node 20 and ships VS Code 1.100.3. Keep in sync with provision-vscode.sh. */
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_DIR =
  process.env.OPENHANDS_CODE_SERVER_DIR ??
  path.join(ROOT, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
export const CODE_SERVER_ENTRY = path.join(
  CODE_SERVER_DIR,
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);
export const PROVISION_SCRIPT = path.join(ROOT, 'scripts', 'provision-vscode.sh');

/** Per-run scratch (user-data-dir, extensions-dir, workspace); git-ignored and wiped at the start of a run. */
export const RUNS_DIR = path.join(ROOT, '.vscode-test', 'runs');
/** Screenshots, logs and reports a human looks at after a run; git-ignored. */
export const ARTIFACTS_DIR = path.join(ROOT, '.artifacts');
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');

export const INTEGRATION_SRC_DIR = path.join(ROOT, 'test', 'integration');
export const INTEGRATION_OUT_DIR = path.join(ROOT, 'out', 'test', 'integration');
export const INTEGRATION_ENTRY = path.join(INTEGRATION_OUT_DIR, 'index.js');
/** The integration run's in-memory file system, a second extension its virtual-folder VS Code loads. */
export const MEMFS_SRC_DIR = path.join(INTEGRATION_SRC_DIR, 'virtualFolder', 'memfs');
export const MEMFS_OUT_DIR = path.join(ROOT, 'out', 'test', 'memfs');

/** The e2e run's second extension, which reads what ours exports (`activate()`'s return value). */
export const EXPORTS_PROBE_SRC_DIR = path.join(ROOT, 'test', 'e2e', 'exports-probe');
export const EXPORTS_PROBE_OUT_DIR = path.join(ROOT, 'out', 'test', 'exports-probe');

export const CHROMIUM_PATH = process.env.OPENHANDS_CHROMIUM ?? '/usr/bin/chromium';
