import { gitIn, type GitAccess } from './git';

/** A push that did not happen: git's own words, which name the reason (rejected, no access, offline). */
export class PushFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushFailedError';
  }
}

/** A push over the network waits for the server: longer than a local git call, never for ever. */
const PUSH_TIMEOUT_MS = 120_000;

/**
 * `git push <remote> <branch>:<upstream branch>` in `root`: never forced, so a remote that moved on
 * refuses it and nothing is lost; the user's credential helpers answer as for any push.
 */
export async function pushToUpstream(
  root: string,
  branch: string,
  upstream: { remote: string; branch: string },
  access: GitAccess = {},
): Promise<void> {
  const git = gitIn(root, access.runGit, access.signal);
  const output = await git.run(
    ['push', upstream.remote, `refs/heads/${branch}:refs/heads/${upstream.branch}`],
    { timeoutMs: PUSH_TIMEOUT_MS },
  );
  if (output.exitCode !== 0) {
    // a remote URL may carry credentials (`https://user:token@host`): they never reach the message
    const said = output.stderr
      .replace(/\/\/[^/@\s]+@/g, '//')
      .trim()
      .split('\n')
      // git's hints are how-tos for a terminal; its own lines say what happened
      .filter((line) => !line.startsWith('hint:'))
      .map((line) => line.trim())
      .slice(-3)
      .join(' ')
      .slice(0, 400);
    throw new PushFailedError(said || `git push ended with exit code ${output.exitCode}.`);
  }
}
