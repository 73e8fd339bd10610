// SDK git/utils.py `validate_git_repository` and `get_valid_ref`: which base the git routes compare
// against. Without an explicit ref: origin/<current branch>, then origin's default branch and the
// merge base with it, else the empty tree. A repository with commits but no origin therefore
// compares against the empty tree (every file ADDED), as the real server does.
import { pyIsDir, pyExists, pyResolve } from '../pyPath';
import { GitCommandError, GitRepositoryError, type Git } from './gitCommand';

/** The well-known hash of git's empty tree. */
export const GIT_EMPTY_TREE_HASH = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export async function validateGitRepository(git: Git, repoDir: string): Promise<string> {
  const repoPath = pyResolve(repoDir);
  if (!pyExists(repoPath)) throw new GitRepositoryError(`Directory does not exist: ${repoPath}`);
  if (!pyIsDir(repoPath)) throw new GitRepositoryError(`Path is not a directory: ${repoPath}`);
  try {
    await git.command(['git', 'rev-parse', '--git-dir'], repoPath);
  } catch (error) {
    if (error instanceof GitCommandError) throw new GitRepositoryError(`Not a git repository: ${repoPath}`);
    throw error;
  }
  return repoPath;
}

/** Swallows GitCommandError only, as the SDK's `except GitCommandError` does. */
async function attempt(git: Git, args: readonly string[], cwd: string): Promise<string | null> {
  try {
    return await git.command(args, cwd);
  } catch (error) {
    if (error instanceof GitCommandError) return null;
    throw error;
  }
}

async function repoHasCommits(git: Git, repoDir: string): Promise<boolean> {
  const count = await attempt(git, ['git', '--no-pager', 'rev-list', '--count', '--all'], repoDir);
  return count !== null && count.trim() !== '0';
}

/**
 * An explicit `override` must resolve to a commit (GitCommandError otherwise), except "HEAD" on an
 * unborn branch, which is the empty tree.
 */
export async function getValidRef(
  git: Git,
  repoDir: string,
  override?: string | null,
): Promise<string | null> {
  if (override !== undefined && override !== null) {
    try {
      return await git.command(
        ['git', '--no-pager', 'rev-parse', '--verify', `${override}^{commit}`],
        repoDir,
      );
    } catch (error) {
      if (error instanceof GitCommandError && override === 'HEAD') return GIT_EMPTY_TREE_HASH;
      throw error;
    }
  }
  if (!(await repoHasCommits(git, repoDir))) return GIT_EMPTY_TREE_HASH;

  const refsToTry: string[] = [];
  const currentBranch = await attempt(
    git,
    ['git', '--no-pager', 'rev-parse', '--abbrev-ref', 'HEAD'],
    repoDir,
  );
  if (currentBranch && currentBranch !== 'HEAD') refsToTry.push(`origin/${currentBranch}`);

  const remoteInfo = await attempt(git, ['git', '--no-pager', 'remote', 'show', 'origin'], repoDir);
  const headLine = remoteInfo?.split('\n').find((line) => line.includes('HEAD branch:'));
  const defaultBranch = headLine?.split(':').pop()?.trim();
  if (defaultBranch) {
    refsToTry.push(`origin/${defaultBranch}`);
    const mergeBase = await attempt(
      git,
      ['git', '--no-pager', 'merge-base', 'HEAD', `origin/${defaultBranch}`],
      repoDir,
    );
    if (mergeBase) refsToTry.push(mergeBase);
  }

  for (const ref of refsToTry) {
    const resolved = await attempt(git, ['git', '--no-pager', 'rev-parse', '--verify', ref], repoDir);
    if (resolved) return resolved;
  }
  return GIT_EMPTY_TREE_HASH;
}
