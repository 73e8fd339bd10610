import { stat } from 'node:fs/promises';
import { commandFailed, gitIn, type Git, type GitRunner } from './git';

export interface LocalRemote {
  name: string;
  fetchUrl?: string;
  /** Only when set apart from the fetch URL (`remote.<name>.pushurl`). */
  pushUrl?: string;
}

/** What a local clone says about itself: where it is and which commit it is on. */
export interface LocalRepository {
  root: string;
  /** HEAD's commit; none on an unborn branch. */
  head?: string;
  /** The checked-out branch; none when HEAD is detached. */
  branch?: string;
  remotes: LocalRemote[];
}

/** The repository root `folder` is in, or undefined when it is in no work tree (or does not exist). */
export async function findRepositoryRoot(
  folder: string,
  runner?: GitRunner,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const isFolder = await stat(folder).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
  if (!isFolder) return undefined;
  const args = ['rev-parse', '--show-toplevel'];
  const output = await gitIn(folder, runner, signal).run(args);
  if (output.exitCode === 0) return output.stdout.toString('utf8').replace(/\r?\n$/, '') || undefined;
  // Outside a work tree (or in a bare repository or its .git): not a place to apply a change to.
  if (/not a git repository|must be run in a work tree/i.test(output.stderr)) return undefined;
  throw commandFailed(args, output);
}

export async function openLocalRepository(
  folder: string,
  runner?: GitRunner,
  signal?: AbortSignal,
): Promise<LocalRepository | undefined> {
  const root = await findRepositoryRoot(folder, runner, signal);
  if (!root) return undefined;
  const git = gitIn(root, runner, signal);
  const [head, branch, remotes] = await Promise.all([headCommit(git), currentBranch(git), listRemotes(git)]);
  return { root, head, branch, remotes };
}

export async function headCommit(git: Git): Promise<string | undefined> {
  const output = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() : undefined;
}

/** The full sha of `commit` when the repository has that commit; a non-hex name is never looked up. */
export async function resolveCommit(git: Git, commit: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{4,64}$/i.test(commit)) return undefined;
  const output = await git.run(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`]);
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() : undefined;
}

async function currentBranch(git: Git): Promise<string | undefined> {
  const output = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() || undefined : undefined;
}

async function listRemotes(git: Git): Promise<LocalRemote[]> {
  // Exit 1 means no remote is configured.
  const output = await git.run(['config', '-z', '--get-regexp', '^remote\\..+\\.(url|pushurl)$']);
  const remotes = new Map<string, LocalRemote>();
  for (const record of output.stdout.toString('utf8').split('\0')) {
    const newline = record.indexOf('\n');
    if (newline < 0) continue;
    const key = record.slice(0, newline);
    const value = record.slice(newline + 1);
    const match = /^remote\.(.+)\.(url|pushurl)$/i.exec(key);
    if (!match?.[1] || !match[2]) continue;
    const remote = remotes.get(match[1]) ?? { name: match[1] };
    // The first url is the one git fetches from.
    if (match[2].toLowerCase() === 'url') remote.fetchUrl ??= value;
    else remote.pushUrl ??= value;
    remotes.set(match[1], remote);
  }
  return [...remotes.values()];
}

/**
 * Whether `folder` is ignored by the repository it sits in (a build or test folder inside a checkout):
 * that repository's work is not the folder's, so it is not offered for a hand-off.
 */
export async function isIgnoredFolder(
  folder: string,
  runner?: GitRunner,
  signal?: AbortSignal,
): Promise<boolean> {
  // check-ignore takes no literal pathspecs; `.` holds nothing a pathspec could read as magic
  const output = await gitIn(folder, runner, signal).run(['check-ignore', '-q', '--', '.'], {
    env: { GIT_LITERAL_PATHSPECS: '0' },
  });
  return output.exitCode === 0;
}
