/**
 * The agent's branch brought into the user's repository: fetched from the remote that holds the
 * conversation's repository, then checked out as a local branch that tracks it. Never forced: git
 * keeps (or refuses over) the user's uncommitted edits, an existing local branch is only fast-forwarded,
 * and one with commits of its own is left alone. The branch name comes from the server: it is checked
 * by `git check-ref-format --branch`, never starts an argument with `-`, and follows a `--` where git
 * takes one. git runs as the user's own (their hooks and filters, such as LFS, as a checkout in a
 * terminal would run them), without a shell, under a deadline.
 */
import { commandFailed, runGit, type GitOutput, type GitRunner } from './git';

/** A refusal in words, before or instead of any change to the repository. */
export class BranchCheckoutError extends Error {
  constructor(
    readonly reason: 'invalid-branch' | 'not-on-remote' | 'diverged',
    message: string,
  ) {
    super(message);
    this.name = 'BranchCheckoutError';
  }
}

export type CheckoutOutcome =
  /** A new local branch, tracking the remote's. */
  | { kind: 'created'; branch: string; upstream: string }
  /** The existing local branch, fast-forwarded to the remote's (or already there), now checked out. */
  | { kind: 'updated'; branch: string; upstream: string; alreadyCurrent: boolean };

const MAX_BRANCH_CHARS = 255;
/** Fetching may wait on the network; everything else is local. */
const FETCH_TIMEOUT_MS = 120_000;
const LOCAL_TIMEOUT_MS = 30_000;

/** The server's branch name when git takes it as one, exactly as written; undefined otherwise. */
export async function checkedBranchName(
  root: string,
  name: string,
  runner: GitRunner = runGit,
): Promise<string | undefined> {
  // `-x` would be read as an option; `@{-1}` is git's shorthand for another branch
  if (!name || name.length > MAX_BRANCH_CHARS || name.startsWith('-') || name.includes('@{'))
    return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(name)) return undefined;
  const output = await runner(root, ['check-ref-format', '--branch', name], { timeoutMs: LOCAL_TIMEOUT_MS });
  if (output.exitCode !== 0) return undefined;
  return output.stdout.toString('utf8').trim() === name ? name : undefined;
}

/** How many tracked files have uncommitted changes (staged or not); untracked files do not count. */
export async function uncommittedFiles(root: string, runner: GitRunner = runGit): Promise<number> {
  const output = await ok(runner, root, ['status', '--porcelain=v1', '-z', '--untracked-files=no'], {
    timeoutMs: LOCAL_TIMEOUT_MS,
  });
  return output.stdout
    .toString('utf8')
    .split('\0')
    .filter((entry) => /^[ MADRCUT?!]{2} /.test(entry)).length;
}

/**
 * Fetches `branch` from `remote` and checks it out: a new local branch tracking it, or the existing
 * one when the remote's only adds to it. The branch must have passed `checkedBranchName`.
 */
export async function checkOutRemoteBranch(
  root: string,
  remote: string,
  branch: string,
  runner: GitRunner = runGit,
  signal?: AbortSignal,
): Promise<CheckoutOutcome> {
  if ((await checkedBranchName(root, branch, runner)) !== branch)
    throw new BranchCheckoutError(
      'invalid-branch',
      `The server names the agent’s branch “${printable(branch)}”, which is not a valid git branch name: nothing was fetched.`,
    );
  const upstream = `${remote}/${branch}`;
  const trackingRef = `refs/remotes/${remote}/${branch}`;
  const fetched = await runner(
    root,
    ['fetch', '--no-tags', '--', remote, `+refs/heads/${branch}:${trackingRef}`],
    { timeoutMs: FETCH_TIMEOUT_MS, signal },
  );
  if (fetched.exitCode !== 0) {
    if (/couldn't find remote ref|no such ref|not our ref/i.test(fetched.stderr))
      throw new BranchCheckoutError(
        'not-on-remote',
        `${remote} has no branch “${branch}”: the agent may not have pushed it yet.`,
      );
    throw withoutCredentials(commandFailed(['fetch', remote, branch], fetched));
  }
  const localRef = `refs/heads/${branch}`;
  const local = await resolve(runner, root, localRef);
  if (local === undefined) {
    await ok(runner, root, ['checkout', '--no-guess', '--no-track', '-b', branch, trackingRef, '--'], {
      timeoutMs: LOCAL_TIMEOUT_MS,
      signal,
    });
    await track(runner, root, remote, branch);
    return { kind: 'created', branch, upstream };
  }
  // the local branch may only move forward to the agent's: commits of the user's own are never dropped
  const behind = await runner(root, ['merge-base', '--is-ancestor', localRef, trackingRef], {
    timeoutMs: LOCAL_TIMEOUT_MS,
  });
  if (behind.exitCode === 1)
    throw new BranchCheckoutError(
      'diverged',
      `Your local branch “${branch}” has commits that ${upstream} does not: nothing was changed. Merge ${upstream} into it, or rename it, and try again.`,
    );
  if (behind.exitCode !== 0) throw commandFailed(['merge-base', '--is-ancestor', branch, upstream], behind);
  const current = await currentBranch(runner, root);
  if (current !== branch)
    await ok(runner, root, ['checkout', '--no-guess', branch, '--'], { timeoutMs: LOCAL_TIMEOUT_MS, signal });
  const remoteTip = await resolve(runner, root, trackingRef);
  const alreadyCurrent = remoteTip === local;
  if (!alreadyCurrent)
    await ok(runner, root, ['merge', '--ff-only', '--no-edit', trackingRef], {
      timeoutMs: LOCAL_TIMEOUT_MS,
      signal,
    });
  // the existing branch now follows the agent's, as a new one would
  await track(runner, root, remote, branch);
  return { kind: 'updated', branch, upstream, alreadyCurrent };
}

/**
 * What `--track` writes, written directly: `--track` refuses a remote whose fetch refspec does not
 * cover the branch (a single-branch clone), although the fetch above stored it.
 */
async function track(runner: GitRunner, root: string, remote: string, branch: string): Promise<void> {
  const options = { timeoutMs: LOCAL_TIMEOUT_MS };
  await ok(runner, root, ['config', `branch.${branch}.remote`, remote], options);
  await ok(runner, root, ['config', `branch.${branch}.merge`, `refs/heads/${branch}`], options);
}

async function ok(
  runner: GitRunner,
  root: string,
  args: string[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<GitOutput> {
  const output = await runner(root, args, options);
  if (output.exitCode !== 0) throw withoutCredentials(commandFailed(args, output));
  return output;
}

async function resolve(runner: GitRunner, root: string, ref: string): Promise<string | undefined> {
  const output = await runner(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    timeoutMs: LOCAL_TIMEOUT_MS,
  });
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() : undefined;
}

async function currentBranch(runner: GitRunner, root: string): Promise<string | undefined> {
  const output = await runner(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    timeoutMs: LOCAL_TIMEOUT_MS,
  });
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() || undefined : undefined;
}

/** git's message may quote a remote URL with its user and password: the error keeps neither. */
function withoutCredentials<T extends Error>(error: T): T {
  error.message = error.message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1');
  return error;
}

/** A hostile name shown in a message: one line, bounded. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters become visible marks
  const line = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
