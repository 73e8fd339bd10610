/**
 * Apply on a conversation started from the user's local state: whether the user's files are still what
 * was handed over. The agent's patch is a diff against the handed-over tree, so it applies as it is when
 * they are, and Apply asks about a moved base only when they are not.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitIn, type Git, type GitAccess } from './git';
import { workTree } from './handedOverTree';
import { resolveCommit } from './localRepository';
import { readLocalState } from './localState';
import { pathProblem } from './pathRules';
import { pathspecFor } from './patchSelection';

export interface HandedOverBase {
  tree: string;
  commit: string;
}

export interface BaseSinceHandoff {
  /** The user's files are not the ones handed over (or the repository has no commit to compare). */
  moved: boolean;
  /** The tree the same hand-off would give now; undefined on a branch with no commit. */
  tree?: string;
  /** The commit of the handed-over tree is still in the repository (three-way merges read its files). */
  baseKnown: boolean;
  /**
   * Those of the `dirty` paths asked about that are in the patch's way: changed since the hand-off, or
   * untracked and never handed over. A handed edit still as it was is the patch's base, not in its way
   * (stashing it would take the base from under the patch).
   */
  inTheWay: string[];
}

/**
 * Compares the tree the user would hand over now (HEAD, every staged and unstaged edit, the files handed
 * as untracked) with the one handed over. Trees, not HEAD: committing the handed edits moves HEAD but
 * not one file, so the patch still applies as it is; an edit left uncommitted changes no HEAD yet is
 * exactly what the patch may not expect. Untracked files never handed over are in neither tree: a new
 * one where the agent writes is found by the plan as a file in the way.
 */
export async function baseSinceHandoff(
  root: string,
  handedOver: HandedOverBase,
  /** The untracked files handed over (the record's, which may list only the first of them). */
  handedUntracked: readonly string[],
  /** Paths the patch touches that have uncommitted changes (the plan's `dirty`). */
  dirty: readonly string[],
  access: GitAccess = {},
): Promise<BaseSinceHandoff> {
  const git = gitIn(root, access.runGit, access.signal);
  const baseKnown = (await resolveCommit(git, handedOver.commit)) !== undefined;
  const state = await readLocalState(root, access);
  if (!state?.head) return { moved: true, baseKnown, inTheWay: [...dirty] };
  const scratch = await mkdtemp(join(tmpdir(), 'openhands-handed-'));
  try {
    const tree = await workTree(
      git,
      state,
      state.head,
      // a name that could leave the repository is not one a hand-off sent (the record is workspace state)
      handedUntracked.filter((path) => !pathProblem(path)).map((path) => ({ path })),
      scratch,
    );
    if (tree === handedOver.tree) {
      // the same tracked and handed files: only an untracked file never handed over can be in the way
      const inTheWay = await untrackedElsewhere(git, [tree], dirty);
      return { moved: false, tree, baseKnown, inTheWay };
    }
    if (dirty.length === 0) return { moved: true, tree, baseKnown, inTheWay: [] };
    const changed = await namesOut(git, [
      'diff-tree',
      '-r',
      '-z',
      '--name-only',
      '--no-renames',
      handedOver.tree,
      tree,
      '--',
      ...pathspecFor(dirty),
    ]);
    const elsewhere = new Set(await untrackedElsewhere(git, [handedOver.tree, tree], dirty));
    const inTheWay = dirty.filter((path) => changed.has(path) || elsewhere.has(path));
    return { moved: true, tree, baseKnown, inTheWay };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Those of `paths` in none of `trees`: untracked files the hand-off never sent. */
async function untrackedElsewhere(
  git: Git,
  trees: readonly string[],
  paths: readonly string[],
): Promise<string[]> {
  if (paths.length === 0) return [];
  const known = new Set<string>();
  for (const tree of trees) {
    const listed = await namesOut(git, [
      'ls-tree',
      '-r',
      '-z',
      '--name-only',
      tree,
      '--',
      ...pathspecFor(paths),
    ]);
    for (const path of listed) known.add(path);
  }
  return paths.filter((path) => !known.has(path));
}

async function namesOut(git: Git, args: string[]): Promise<Set<string>> {
  const output = await git.ok(args, { maxOutputBytes: 256 * 1024 * 1024 });
  return new Set(
    output.stdout
      .toString('utf8')
      .split('\0')
      .filter((name) => name !== ''),
  );
}

/**
 * Whether the repository at `root` holds `commit`: the commit of a hand-off is made in the user's own
 * repository and nowhere else, so finding it names the repository the conversation was handed.
 */
export async function holdsCommit(root: string, commit: string, access: GitAccess = {}): Promise<boolean> {
  return (await resolveCommit(gitIn(root, access.runGit, access.signal), commit)) !== undefined;
}
