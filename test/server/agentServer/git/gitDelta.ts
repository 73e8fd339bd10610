// AS file_router.py, `GET /api/file/archive?format=git-delta`: a binary-safe patch of the working
// tree against the base, built in a throwaway index (read-tree <base>, add -A, diff --cached) so the
// repository's own index is never touched. Excludes become `:(glob,exclude)` pathspecs.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pyExists, pyIsDir } from '../pyPath';
import { pyRepr } from '../pyText';
import { GitCommandError, type Git } from './gitCommand';
import { GIT_EMPTY_TREE_HASH, getValidRef, validateGitRepository } from './gitRefs';

/** `_DEFAULT_ARCHIVE_EXCLUDES`. */
export const DEFAULT_ARCHIVE_EXCLUDES: readonly string[] = [
  '.git/',
  'node_modules/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.ruff_cache/',
  'dist/',
  'build/',
  '.next/',
  'target/',
  '*.pyc',
];

const DESCENT_SKIP = new Set(['node_modules', 'venv', 'site-packages', 'vendor']);

/** The route's ValueError: a 400 whose detail is the message. */
export class ArchiveRequestError extends Error {}

export interface GitDelta {
  patch: Buffer;
  /** The full base commit, "" when the base is the empty tree. */
  baseCommit: string;
}

function isSymlink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * `_resolve_git_repo_root`: the folder itself when it holds `.git`, else the one repository found
 * up to three levels down (hidden and vendored folders skipped), else the folder as given.
 */
export function resolveGitRepoRoot(target: string, maxDepth = 3): string {
  if (pyExists(path.join(target, '.git'))) return target;
  const found: string[] = [];
  const frontier: [string, number][] = [[target, 0]];
  while (frontier.length > 0) {
    const [current, depth] = frontier.pop() ?? [target, maxDepth];
    if (depth >= maxDepth) continue;
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.startsWith('.') || DESCENT_SKIP.has(name)) continue;
      const child = path.join(current, name);
      if (isSymlink(child) || !pyIsDir(child)) continue;
      if (pyExists(path.join(child, '.git'))) {
        found.push(child);
        if (found.length > 1) return target;
      } else frontier.push([child, depth + 1]);
    }
  }
  return found.length === 1 ? (found[0] ?? target) : target;
}

/** `_excludes_to_git_pathspecs`: "dir/" drops contents only; a bare name matches at any depth. */
export function excludesToGitPathspecs(excludes: readonly string[]): string[] {
  const specs: string[] = [];
  for (const raw of excludes) {
    const dirOnly = raw.endsWith('/');
    const pattern = raw.replace(/\/+$/, '');
    if (!pattern) continue;
    const prefix = pattern.includes('/') ? '' : '**/';
    if (!dirOnly) specs.push(`:(glob,exclude)${prefix}${pattern}`);
    specs.push(`:(glob,exclude)${prefix}${pattern}/**`);
  }
  return specs;
}

async function headIsDetached(git: Git, root: string): Promise<boolean> {
  try {
    return (await git.command(['git', '--no-pager', 'rev-parse', '--abbrev-ref', 'HEAD'], root)) === 'HEAD';
  } catch (error) {
    if (error instanceof GitCommandError) return false;
    throw error;
  }
}

/** `subprocess.run(..., check=True)`: a failure is the SDK's GitCommandError with a fixed message. */
async function mustRun(git: Git, args: string[], root: string, indexFile: string): Promise<Buffer> {
  let result;
  try {
    result = await git.run(args, root, { GIT_INDEX_FILE: indexFile });
  } catch {
    throw new GitCommandError('Timed out generating git delta', ['git', ...args], -1, 'timed out');
  }
  if (result.code !== 0) {
    throw new GitCommandError(
      'Failed to generate git delta',
      ['git', ...args],
      result.code,
      result.stderr.toString(),
    );
  }
  return result.stdout;
}

/**
 * `_create_git_delta(root, base_ref, …)`. Default base: the auto-detected ref, `HEAD` when detached.
 * `scratchDir` holds the throwaway index (the real server puts it beside its temporary patch file).
 */
export async function createGitDelta(
  git: Git,
  root: string,
  baseRef: string | null,
  excludes: readonly string[],
  scratchDir: string,
): Promise<GitDelta> {
  await validateGitRepository(git, root);
  let effectiveBase = baseRef;
  if (effectiveBase === null && (await headIsDetached(git, root))) effectiveBase = 'HEAD';
  let ref: string;
  try {
    ref = (await getValidRef(git, root, effectiveBase)) || GIT_EMPTY_TREE_HASH;
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    throw new ArchiveRequestError(
      `base_ref ${baseRef === null ? 'None' : pyRepr(baseRef)} could not be resolved`,
    );
  }
  const indexFile = path.join(scratchDir, `delta-${randomBytes(8).toString('hex')}.patch.index`);
  const pathspecs = excludesToGitPathspecs(excludes);
  let patch: Buffer;
  try {
    await mustRun(git, ['read-tree', ref], root, indexFile);
    await mustRun(git, ['add', '-A', '--', '.', ...pathspecs], root, indexFile);
    patch = await mustRun(
      git,
      ['diff', '--binary', '--cached', ref, '--', '.', ...pathspecs],
      root,
      indexFile,
    );
  } finally {
    rmSync(indexFile, { force: true });
  }
  if (ref === GIT_EMPTY_TREE_HASH) return { patch, baseCommit: '' };
  try {
    return {
      patch,
      baseCommit: await git.command(['git', '--no-pager', 'rev-parse', '--verify', `${ref}^{commit}`], root),
    };
  } catch (error) {
    if (error instanceof GitCommandError) return { patch, baseCommit: '' };
    throw error;
  }
}
