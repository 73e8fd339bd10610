// A user's repository with work of every kind not yet on its remote, for the local-state and hand-off
// suites: real git, in a temporary folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitAll, git, gitText, treeBytes, useScratchFolder, write } from './scratchRepo';

export const CANARY = 'OPENHANDS_CANARY_7f3e9a1c';
export const BINARY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 31 + 7) % 256));
export const RENAMED_COMMITTED = { from: 'docs/old name.md', to: 'docs/new naïve name.md' };
export const RENAMED_STAGED = { from: 'old file.txt', to: 'moved/ü file.txt' };
export const TICKED = ['notes/todo list é.txt', 'new script.sh', 'link to app'];
export const UNTICKED = 'scratch.txt';

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');

export interface Fixture {
  /** The remote (a plain repository the others clone from). */
  remote: string;
  /** The user's clone: 2 commits ahead, 1 behind, staged, unstaged, untracked, ignored, a submodule changed. */
  local: string;
}

/** git allowed to clone a submodule from a local path (git 2.38 refuses it by default). */
export const gitFile = (cwd: string, args: string[]) =>
  git(cwd, ['-c', 'protocol.file.allow=always', ...args]);

/** A suite's fixture, in a temporary folder of its own made before its first test. */
export interface ScratchFixture {
  readonly tmp: string;
  readonly fixture: Fixture;
  /** A fresh clone of the remote, with its submodule: a repository that is clean and pushed. */
  clone(): string;
}

export function useScratchFixture(prefix: string): ScratchFixture {
  const folder = useScratchFolder(prefix);
  let fixture: Fixture | undefined;
  let clones = 0;
  before(() => {
    fixture = makeFixture(folder.path);
  });
  const made = (): Fixture => {
    if (!fixture) throw new Error('the fixture is made before the suite’s first test');
    return fixture;
  };
  return {
    get tmp() {
      return folder.path;
    },
    get fixture() {
      return made();
    },
    clone: () => {
      const path = join(folder.path, `clone-${++clones}`);
      gitFile(folder.path, ['clone', '-q', '--recurse-submodules', made().remote, path]);
      return path;
    },
  };
}

export function makeFixture(tmp: string): Fixture {
  const library = join(tmp, 'library');
  mkdirSync(library);
  git(library, ['init', '-q']);
  write(library, 'lib.txt', 'library\n');
  commitAll(library, 'library');

  const remote = join(tmp, 'remote');
  mkdirSync(remote);
  git(remote, ['init', '-q']);
  write(remote, 'app.txt', numbered('line', 40));
  write(remote, 'tool.sh', '#!/bin/sh\necho tool\n');
  write(remote, 'image.bin', BINARY);
  write(remote, RENAMED_COMMITTED.from, numbered('doc', 20));
  write(remote, RENAMED_STAGED.from, numbered('old', 20));
  write(remote, 'staged.txt', 'staged before\n');
  write(remote, '.gitignore', '.env\n');
  commitAll(remote, 'base');
  gitFile(remote, ['submodule', '--quiet', 'add', library, 'lib']);
  commitAll(remote, 'add the library');
  // The remote receives pushes into its checked-out branch in these tests.
  git(remote, ['config', 'receive.denyCurrentBranch', 'updateInstead']);

  const local = join(tmp, 'local');
  gitFile(tmp, ['clone', '-q', '--recurse-submodules', remote, local]);
  // Two commits ahead: a binary and an executable file, then a rename to a non-ASCII name with spaces.
  write(local, 'app.txt', numbered('line', 40).replace('line 5\n', 'line 5 (committed)\n'));
  write(local, 'logo.bin', Buffer.concat([BINARY, BINARY.subarray(0, 100)]));
  write(local, 'run.sh', '#!/bin/sh\necho run\n');
  chmodSync(join(local, 'run.sh'), 0o755);
  commitAll(local, 'binary and executable');
  git(local, ['mv', RENAMED_COMMITTED.from, RENAMED_COMMITTED.to]);
  commitAll(local, 'rename the doc');

  // One behind: someone else pushed to the remote, and the user fetched.
  write(remote, 'remote.txt', 'pushed by someone else\n');
  commitAll(remote, 'someone else');
  git(local, ['fetch', '-q']);

  // Staged: an edit and a rename; unstaged: an edit, a binary edit, an executable bit.
  write(local, 'staged.txt', 'staged after\n');
  git(local, ['add', 'staged.txt']);
  mkdirSync(join(local, 'moved'));
  git(local, ['mv', RENAMED_STAGED.from, RENAMED_STAGED.to]);
  write(
    local,
    'app.txt',
    gitText(local, ['show', 'HEAD:app.txt']).replace('line 30\n', 'line 30 (unstaged)\n'),
  );
  write(local, 'image.bin', Buffer.from(BINARY.map((byte) => 255 - byte)));
  chmodSync(join(local, 'tool.sh'), 0o755);

  // Untracked: three the user ticks (one executable, one a link inside the repository), one not.
  write(local, TICKED[0] ?? '', 'to do: é\n');
  write(local, TICKED[1] ?? '', '#!/bin/sh\necho new\n');
  chmodSync(join(local, TICKED[1] ?? ''), 0o755);
  symlinkSync('app.txt', join(local, TICKED[2] ?? ''));
  write(local, UNTICKED, 'not for the agent\n');
  // Ignored, with a secret in it: it never leaves.
  write(local, '.env', `API_KEY=${CANARY}\n`);
  // The submodule moves on locally (a commit of its own, staged here, then an edit): said, not handed over.
  write(join(local, 'lib'), 'lib.txt', 'library, committed locally\n');
  commitAll(join(local, 'lib'), 'a local library commit');
  git(local, ['add', 'lib']);
  write(join(local, 'lib'), 'lib.txt', 'library, changed locally\n');
  return { remote, local };
}

/** Each file's bytes (a link: its target) and whether its owner may execute it, but .git and `skip`. */
export function filesWithModes(repo: string, skip: (path: string) => boolean): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, bytes] of treeBytes(repo)) {
    if (skip(path)) continue;
    const entry = lstatSync(join(repo, ...path.split('/')));
    const kind = entry.isSymbolicLink() ? 'link' : (entry.mode & 0o100) !== 0 ? 'executable' : 'file';
    files.set(path, `${kind} ${bytes.toString('base64')}`);
  }
  return files;
}

/** Runs a replay script with sh, as the agent server does; throws with its stderr when it fails. */
export function runScript(cwd: string, script: string): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  const run = spawnSync('sh', ['-c', script], { cwd, env: { ...env, LC_ALL: 'C' } });
  if (run.status !== 0) throw new Error(`sh exited ${String(run.status)}: ${run.stderr.toString('utf8')}`);
  return run.stdout.toString('utf8');
}

/**
 * The agent's change as the agent server's `GET /api/file/archive?format=git-delta&base_ref=` makes it
 * (file_router.py `_create_git_delta`: a scratch index read from the base, `add -A`, `diff --binary --cached`).
 */
export function serverGitDelta(sandbox: string, baseRef: string): Buffer {
  // get_valid_ref: an explicit base must name a commit (`rev-parse --verify <ref>^{commit}`)
  git(sandbox, ['rev-parse', '--verify', `${baseRef}^{commit}`]);
  const scratch = mkdtempSync(join(tmpdir(), 'openhands-delta-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    git(sandbox, ['read-tree', baseRef], env);
    git(sandbox, ['add', '-A', '--', '.'], env);
    return git(sandbox, ['diff', '--binary', '--cached', baseRef, '--', '.'], env);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
