// SDK git/git_diff.py: `GET /api/git/diff`. `original` is `git show <base>:<file>` in text mode
// (stripped, CRLF turned into LF; "" when the file is not in the base; a binary blob raises
// UnicodeDecodeError, which the router leaves uncaught: a 500), `modified` the current file's lines
// joined by "\n" ("" when it is not UTF-8). A missing or too large file is a GitPathError (400).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pyExists, pyResolve } from '../pyPath';
import { pySplitlines } from '../pyText';
import { decodeUtf8Strictly } from '../pyUtf8';
import { GitCommandError, GitPathError, GitRepositoryError, type Git } from './gitCommand';
import { getValidRef, validateGitRepository } from './gitRefs';

export const MAX_FILE_SIZE_FOR_GIT_DIFF = 1024 * 1024;

export interface GitDiff {
  modified: string | null;
  original: string | null;
}

/** `get_closest_git_repo`: the nearest folder, from the file up, that holds a `.git`. */
function closestGitRepo(file: string): string | null {
  let current = pyResolve(file);
  for (;;) {
    if (pyExists(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** `open(path, encoding="utf-8").read()` then `"\n".join(text.splitlines())`; "" on any failure. */
function currentText(file: string): string {
  try {
    return pySplitlines(decodeUtf8Strictly(readFileSync(file)).replace(/\r\n?/g, '\n')).join('\n');
  } catch {
    return '';
  }
}

/** `get_git_diff(path, ref)`: `file` is already absolute (the server's cwd applied by the caller). */
export async function getGitDiff(git: Git, file: string, ref?: string | null): Promise<GitDiff> {
  const target = pyResolve(file);
  if (!pyExists(target)) throw new GitPathError(`File does not exist: ${target}`);
  let size: number;
  try {
    size = statSync(target).size;
  } catch {
    throw new GitPathError(`Cannot access file: ${target}`);
  }
  if (size > MAX_FILE_SIZE_FOR_GIT_DIFF) {
    throw new GitPathError(
      `File too large for git diff: ${size} bytes (max: ${MAX_FILE_SIZE_FOR_GIT_DIFF} bytes)`,
    );
  }
  const closest = closestGitRepo(target);
  if (!closest) throw new GitRepositoryError(`File is not in a git repository: ${target}`);
  const repo = await validateGitRepository(git, closest);
  const base = await getValidRef(git, repo, ref);
  if (!base) return { modified: '', original: '' };
  const relative = path.relative(repo, target);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw new GitPathError(`File is not within git repository: ${target}`);
  }
  let original: string;
  try {
    original = await git.command(['git', 'show', `${base}:${relative === '' ? '.' : relative}`], repo);
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    original = '';
  }
  return { modified: currentText(target), original };
}
