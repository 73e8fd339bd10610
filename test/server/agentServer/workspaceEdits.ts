// What the control API does to a sandbox directory so tests can build a workspace: write files (null
// deletes), stage paths as an agent's `git add`/`git mv` would, and commit named files as the base
// the agent started from. Commits carry a fixed author, committer and date, so hashes are stable,
// and move `refs/remotes/origin/<branch>` with them (unless `origin: false`): the real base detection
// only takes a commit as the base through origin; without it, it compares against the empty tree.
import { existsSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Git } from './git/gitCommand';

/** UTF-8 text, `{base64}` bytes, or null to delete. */
export type WorkspaceFile = string | { base64: string } | null;

export interface WorkspaceInput {
  files?: Record<string, WorkspaceFile>;
  /** Commit the named files with this message; they become the base of git/changes. */
  commit?: string;
  /** Default true: point origin/<branch> at the new commit. */
  origin?: boolean;
}

export interface WorkspaceState {
  /** The sandbox directory (absolute). */
  dir: string;
  /** HEAD's commit, null before the first commit. */
  head: string | null;
}

/** A bad path in the input (absolute, outside the directory, inside `.git`): the caller's mistake. */
export class WorkspaceInputError extends Error {}

const COMMIT_ENV: NodeJS.ProcessEnv = {
  GIT_AUTHOR_NAME: 'OpenHands Test',
  GIT_AUTHOR_EMAIL: 'test@openhands.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'OpenHands Test',
  GIT_COMMITTER_EMAIL: 'test@openhands.invalid',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};
/** The names a test gives are file names, not pathspec patterns. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

/** A relative POSIX path that stays inside the directory and out of `.git`. */
export function checkedPath(name: string): string {
  const normalized = path.posix.normalize(name.replace(/\\/g, '/'));
  const escapes = normalized === '..' || normalized.startsWith('../');
  const gitInternal = normalized === '.git' || normalized.startsWith('.git/');
  if (path.posix.isAbsolute(normalized) || escapes || gitInternal || normalized === '.' || name === '') {
    throw new WorkspaceInputError(`Not a path inside the workspace: ${JSON.stringify(name)}`);
  }
  return normalized.replace(/\/$/, '');
}

function fileExists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

/** Writes and deletes; returns the checked relative paths. */
export function writeWorkspaceFiles(dir: string, files: Record<string, WorkspaceFile>): string[] {
  const written: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const relative = checkedPath(name);
    const target = path.join(dir, relative);
    if (content === null) rmSync(target, { recursive: true, force: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, typeof content === 'string' ? content : Buffer.from(content.base64, 'base64'));
    }
    written.push(relative);
  }
  return written;
}

async function mustRun(git: Git, args: string[], dir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await git.run(args, dir, env);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.toString().trim()}`);
  return result.stdout.toString().trim();
}

/** Puts the paths' current state (present or gone) into the index, as `git add -A`/`git mv` do. */
export async function stagePaths(git: Git, dir: string, paths: readonly string[]): Promise<void> {
  const present = paths.filter((relative) => fileExists(path.join(dir, relative)));
  const gone = paths.filter((relative) => !present.includes(relative));
  if (gone.length > 0) {
    await mustRun(git, ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...gone], dir, LITERAL);
  }
  if (present.length > 0) await mustRun(git, ['add', '-A', '-f', '--', ...present], dir, LITERAL);
}

/** Stages `paths` and commits the index: the agent server's own files stay untracked (git/changes lists them). */
export async function commitPaths(
  git: Git,
  dir: string,
  paths: readonly string[],
  message: string,
  origin: boolean,
): Promise<void> {
  await stagePaths(git, dir, paths);
  await mustRun(git, ['commit', '-q', '--no-verify', '--allow-empty', '-m', message], dir, COMMIT_ENV);
  if (!origin) return;
  const branch = await git.run(['symbolic-ref', '--short', '-q', 'HEAD'], dir);
  if (branch.code === 0) {
    await mustRun(git, ['update-ref', `refs/remotes/origin/${branch.stdout.toString().trim()}`, 'HEAD'], dir);
  }
}

export async function headOf(git: Git, dir: string): Promise<string | null> {
  if (!existsSync(path.join(dir, '.git'))) return null;
  const result = await git.run(['rev-parse', '--verify', '-q', 'HEAD'], dir);
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

/** The control operation: write, then commit what was written when asked. */
export async function applyWorkspaceInput(
  git: Git,
  dir: string,
  input: WorkspaceInput,
): Promise<WorkspaceState> {
  const paths = writeWorkspaceFiles(dir, input.files ?? {});
  if (input.commit !== undefined) await commitPaths(git, dir, paths, input.commit, input.origin ?? true);
  return { dir, head: await headOf(git, dir) };
}
