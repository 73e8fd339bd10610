// SDK git/git_changes.py: `GET /api/git/changes`. `git diff --name-status <base>` (a rename becomes
// DELETED old + ADDED new), then every untracked file as ADDED, then the same for each `./*/.git`
// repository one level down with its folder as prefix, sorted by path. The quirks are the real
// ones: lines are split on whitespace, so a tracked file whose name has a space fails the whole
// call (400); nested repositories filter the top level by plain prefix ("app" also hides "apple.txt").
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pyExists, pyResolve } from '../pyPath';
import { pyPathString, pySplit, pySplitlines, pyStrip } from '../pyText';
import { GitCommandError, GitError, type Git } from './gitCommand';
import { getValidRef, validateGitRepository } from './gitRefs';

export type GitChangeStatus = 'MOVED' | 'ADDED' | 'DELETED' | 'UPDATED';

export interface GitChange {
  status: GitChangeStatus;
  path: string;
}

const STATUS_OF: Record<string, GitChangeStatus> = { M: 'UPDATED', A: 'ADDED', D: 'DELETED', U: 'UPDATED' };

function formatError(message: string, stderr = 'Invalid output format'): GitCommandError {
  return new GitCommandError(message, ['git', 'diff', '--name-status'], 0, stderr);
}

function parseNameStatusLine(line: string): GitChange[] {
  const parts = pySplit(line);
  if (parts.length < 2) throw formatError(`Unexpected git diff output format: ${line}`);
  let status = parts[0] ?? '';
  if (status.startsWith('R') && parts.length === 3) {
    return [
      { status: 'DELETED', path: pyPathString(parts[1] ?? '') },
      { status: 'ADDED', path: pyPathString(parts[2] ?? '') },
    ];
  }
  if (status.startsWith('C') && parts.length === 3)
    return [{ status: 'ADDED', path: pyPathString(parts[2] ?? '') }];
  if (parts.length !== 2) throw formatError(`Unexpected git diff output format: ${line}`);
  const changedPath = parts[1] ?? '';
  if (status === '??') status = 'A';
  else if (status === '*') status = 'M';
  const mapped = STATUS_OF[status];
  if (!mapped) throw formatError(`Unexpected git status: ${status}`, `Unexpected status code: ${status}`);
  return [{ status: mapped, path: pyPathString(changedPath) }];
}

/** `get_changes_in_repo`: GitRepositoryError when `repoDir` is not a repository. */
export async function getChangesInRepo(git: Git, repoDir: string, ref?: string | null): Promise<GitChange[]> {
  const repo = await validateGitRepository(git, repoDir);
  const base = await getValidRef(git, repo, ref);
  if (!base) return [];
  const diffOutput = await git.command(['git', '--no-pager', 'diff', '--name-status', base], repo);
  const changes: GitChange[] = [];
  for (const line of diffOutput ? pySplitlines(diffOutput) : []) {
    if (!pyStrip(line)) continue;
    changes.push(...parseNameStatusLine(line));
  }
  let untracked: string[] = [];
  try {
    const output = await git.command(
      ['git', '--no-pager', 'ls-files', '--others', '--exclude-standard'],
      repo,
    );
    untracked = output ? pySplitlines(output) : [];
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
  }
  for (const file of untracked) {
    if (pyStrip(file)) changes.push({ status: 'ADDED', path: pyPathString(pyStrip(file)) });
  }
  return changes;
}

/** `glob.glob("./*\/.git", root_dir=cwd)`: visible entries one level down holding a `.git`. */
function nestedGitDirs(cwd: string): string[] {
  let names: string[];
  try {
    names = readdirSync(cwd);
  } catch {
    return [];
  }
  return names.filter((name) => !name.startsWith('.') && pyExists(path.join(cwd, name, '.git')));
}

/**
 * The JSON of a GitChange: `to_posix_path` turns every backslash into "/", also those of git's
 * C-quoted names (`"caf\303\251.txt"` is sent as `"caf/303/251.txt"`, quotes included).
 */
export function wireChanges(changes: readonly GitChange[]): GitChange[] {
  return changes.map((change) => ({ status: change.status, path: change.path.replace(/\\/g, '/') }));
}

/** `get_git_changes(cwd, ref)`; relative `cwd`s are resolved by the caller. */
export async function getGitChanges(git: Git, cwd: string, ref?: string | null): Promise<GitChange[]> {
  const gitDirs = nestedGitDirs(pyResolve(cwd));
  const changes = (await getChangesInRepo(git, cwd, ref)).filter(
    (change) => !gitDirs.some((gitDir) => change.path.startsWith(gitDir)),
  );
  for (const gitDir of gitDirs) {
    let nested: GitChange[];
    try {
      nested = await getChangesInRepo(git, path.join(cwd, gitDir), ref);
    } catch (error) {
      if (error instanceof GitError) continue;
      throw error;
    }
    for (const change of nested)
      changes.push({ status: change.status, path: pyPathString(`${gitDir}/${change.path}`) });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
