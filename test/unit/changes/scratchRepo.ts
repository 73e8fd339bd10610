// Real git in real temporary repositories, for the changes suites: a git with a fixed identity, a
// suite's temporary folder, a merge left in conflict, a repository's bytes, status and index for
// "nothing changed" checks, and what a refusal is.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { withoutSafetyOptions } from '../../../src/changes/git';
import { ApplyRefusedError } from '../../../src/changes/patchApply';

const GIT_DEFAULTS = ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false'];

function testEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  return {
    ...clean,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    LC_ALL: 'C',
    ...env,
  };
}

/** git for the tests themselves, with a fixed identity and none of the caller's repository variables. */
export function git(cwd: string, args: string[], env: Record<string, string> = {}): Buffer {
  return execFileSync('git', [...GIT_DEFAULTS, ...args], {
    cwd,
    env: testEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The same git given `input`, its exit code and stderr returned rather than thrown. */
export function gitWithInput(
  cwd: string,
  args: string[],
  input: Buffer,
): { exitCode: number; stderr: string } {
  const run = spawnSync('git', [...GIT_DEFAULTS, ...args], { cwd, env: testEnv({}), input });
  return { exitCode: run.status ?? -1, stderr: run.stderr.toString('utf8') };
}
export const gitText = (cwd: string, args: string[]) => git(cwd, args).toString('utf8');

/** A suite's own temporary folder: made before its first test, removed with all in it after its last. */
export function useScratchFolder(prefix: string): { readonly path: string } {
  const folder = { path: '' };
  before(() => {
    folder.path = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => {
    rmSync(folder.path, { recursive: true, force: true });
  });
  return folder;
}

export function write(repo: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

export function commitAll(repo: string, message: string): void {
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', message]);
}

/** Leaves `repo` (on main, app.txt tracked) in a merge that conflicts on app.txt, changed on both sides. */
export function mergeInConflict(repo: string): void {
  write(repo, 'app.txt', 'ours\n');
  git(repo, ['commit', '-q', '-am', 'ours']);
  git(repo, ['checkout', '-q', '-b', 'theirs', 'HEAD~1']);
  write(repo, 'app.txt', 'theirs\n');
  git(repo, ['commit', '-q', '-am', 'theirs']);
  git(repo, ['checkout', '-q', 'main']);
  assert.throws(() => git(repo, ['merge', '-q', 'theirs']), 'the merge stops on the conflict');
}

/** Every file under `repo` but .git, by path, with its bytes. */
export function treeBytes(repo: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(repo, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const relative = path
      .slice(repo.length + 1)
      .split('\\')
      .join('/');
    if (relative === '.git' || relative.startsWith('.git/') || entry.isDirectory()) continue;
    // A link is its target: never read through it.
    files.set(
      relative,
      entry.isSymbolicLink() ? Buffer.from(`-> ${readlinkSync(path)}`) : readFileSync(path),
    );
  }
  return files;
}

export function differingPaths(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((path) => !(a.get(path) && b.get(path)?.equals(a.get(path) ?? Buffer.alloc(0))));
}

/** What a test compares to prove nothing changed: the bytes, the status, the staged diff, the index. */
export interface RepoState {
  tree: Map<string, Buffer>;
  status: string;
  cached: string;
  index: string;
}

export function repoState(repo: string): RepoState {
  return {
    tree: treeBytes(repo),
    status: gitText(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all']),
    cached: gitText(repo, ['diff', '--cached', '--binary']),
    index: gitText(repo, ['ls-files', '-s', '--debug']).replace(/^\s+(ctime|mtime|dev|uid|size):.*\n/gm, ''),
  };
}

export function assertUnchanged(repo: string, before: RepoState, what: string): void {
  const after = repoState(repo);
  assert.deepEqual(differingPaths(before.tree, after.tree), [], `${what}: no file's bytes changed`);
  assert.equal(after.status, before.status, `${what}: git status is the same`);
  assert.equal(after.cached, before.cached, `${what}: the staged diff is the same`);
  assert.equal(after.index, before.index, `${what}: the index entries are the same`);
}

export function statusPaths(repo: string): string[] {
  return gitText(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])
    .split('\0')
    .filter((record) => record.length > 3)
    .map((record) => record.slice(3))
    .sort();
}

/** A `git apply` that writes (not a check, not a read of the patch). */
export function isWritingApply(args: readonly string[]): boolean {
  const command = withoutSafetyOptions(args);
  return command[0] === 'apply' && !command.some((arg) => /^--(check|numstat|summary)$/.test(arg));
}

export async function refusal(work: Promise<unknown>): Promise<ApplyRefusedError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof ApplyRefusedError, `a refusal, not ${String(error)}`);
    return error;
  }
  assert.fail('the apply should have been refused');
}
