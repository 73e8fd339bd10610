import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Git } from './git';
import type { TickedFile } from './handoffUntracked';
import type { LocalState } from './localState';

const SCRATCH_INDEX = '.handed-over-index';
// An internal record, never pushed: a fixed identity, so a repository without user.name still makes it.
const RECORD_IDENTITY = {
  GIT_AUTHOR_NAME: 'OpenHands hand-off',
  GIT_AUTHOR_EMAIL: 'openhands@localhost',
  GIT_COMMITTER_NAME: 'OpenHands hand-off',
  GIT_COMMITTER_EMAIL: 'openhands@localhost',
};

/**
 * The tree the user hands over (HEAD, every staged and unstaged edit, the ticked untracked files) and a
 * commit of it on top of HEAD, made in the user's repository with a scratch index: neither the user's
 * index nor any ref moves. A later Apply takes that commit as the agent's base, so the agent's patch holds
 * only the agent's work; the sandbox's verify step writes the same tree id when it holds the same files.
 */
export async function handedOverTree(
  git: Git,
  state: LocalState,
  head: string,
  ticked: readonly Pick<TickedFile, 'path'>[],
  scratchFolder: string,
): Promise<{ tree: string; commit: string }> {
  const tree = await workTree(git, state, head, ticked, scratchFolder);
  const message = Buffer.from(`OpenHands hand-off of ${state.branch ?? 'a detached HEAD'}\n`, 'utf8');
  const commit = await git.ok(['commit-tree', tree, '-p', head], { env: RECORD_IDENTITY, input: message });
  return { tree, commit: commit.stdout.toString('utf8').trim() };
}

/**
 * The tree of HEAD plus every staged and unstaged edit and the `ticked` untracked files, as they are in
 * the working tree now; written with a scratch index (nothing of the user's moves). The same tree a
 * hand-off of this state would hand over: Apply compares it with the one that was.
 */
export async function workTree(
  git: Git,
  state: LocalState,
  head: string,
  ticked: readonly Pick<TickedFile, 'path'>[],
  scratchFolder: string,
): Promise<string> {
  const env = { GIT_INDEX_FILE: join(scratchFolder, SCRATCH_INDEX) };
  try {
    await git.ok(['read-tree', head], { env });
    // Every tracked file as it is in the working tree, deletions included.
    await git.ok(['add', '--update'], { env });
    // `add --update` moves a changed submodule's recorded commit: put HEAD's back (its local state stays).
    const changedSubmodules = state.submodules.filter((submodule) => submodule.changed).map((s) => s.path);
    if (changedSubmodules.length > 0) {
      const recorded = await git.ok(['ls-tree', '-z', head, '--', ...changedSubmodules], { env });
      await git.ok(['update-index', '-z', '--index-info'], { env, input: recorded.stdout });
    }
    // Files HEAD does not have: staged new ones (and renames' new names), intent-to-add ones, the ticked.
    const added = [
      ...state.staged.filter((change) => change.kind !== 'modified' && change.kind !== 'deleted'),
      ...state.unstaged.filter((change) => change.kind === 'added'),
    ].map((change) => change.path);
    const present = await existing(state.root, [...added, ...ticked.map((file) => file.path)]);
    if (present.length > 0) {
      const pathspecs = Buffer.from(present.map((path) => `${path}\0`).join(''), 'utf8');
      // --force: a staged file the user force-added is ignored to git; a ticked one never is (status listed it).
      await git.ok(['add', '--force', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        env,
        input: pathspecs,
      });
    }
    return (await git.ok(['write-tree'], { env })).stdout.toString('utf8').trim();
  } finally {
    await rm(env.GIT_INDEX_FILE, { force: true });
  }
}

/** Those of `paths` that are in the working tree (a staged file since deleted is not handed over). */
async function existing(root: string, paths: readonly string[]): Promise<string[]> {
  const present: string[] = [];
  for (const path of new Set(paths)) {
    const found = await lstat(join(root, ...path.split('/'))).then(
      () => true,
      () => false,
    );
    if (found) present.push(path);
  }
  return present;
}
