import { ApplyRefusedError } from './applyRefused';
import { commandFailed, gitIn, type Git } from './git';
import { findRepositoryRoot } from './localRepository';
import { readPatch, type ReadPatch } from './patchFiles';
import {
  fileCount,
  planSections,
  refusalsOf,
  subPatch,
  WHITESPACE,
  type ApplyPlan,
  type PlanOptions,
} from './patchPlan';
import { touchedPaths } from './patchSelection';
import { restoreIndex, restoreSnapshot, takeSnapshot, type PathSnapshot } from './pathSnapshot';

export { ApplyRefusedError, describeRefusals, type ApplyRefusal } from './applyRefused';
export { GitCommandError, type GitRunner } from './git';
export { filesInPatch, type PatchFile } from './patchFiles';
export type { RefusedPath } from './patchGuard';
export {
  planApply,
  refusalsOf,
  type ApplyPlan,
  type ApplyProgress,
  type FileOutcome,
  type PlannedFile,
  type PlanOptions,
} from './patchPlan';
export { RestoreFailedError } from './pathSnapshot';

export interface ApplyOptions extends PlanOptions {
  /** Set the touched paths' uncommitted changes aside in a stash instead of refusing. */
  stashFirst?: boolean;
  stashMessage?: string;
}

export interface ApplyResult {
  /** Applied as they were. */
  applied: string[];
  /** Applied by a clean 3-way merge with the local version. */
  merged: string[];
  /** Left out by only/skip. */
  skipped: string[];
  /** Merged with conflict markers, unmerged in the index for the user to resolve. */
  conflicted: string[];
  stashed?: { message: string; paths: string[] };
}

const DEFAULT_STASH_MESSAGE = "OpenHands: local changes set aside before applying the agent's change";
const APPLY_TIMEOUT_MS = 5 * 60_000;

/**
 * Applies the selected files of `patch` (a binary git diff) to the repository `folder` is in, all or
 * nothing: it refuses before writing when a file is refused by the checks, would conflict or a touched
 * path has uncommitted changes, and when anything fails after the first write (a cancel included) every
 * touched path gets its bytes and index entry back. Applied files are left as unstaged changes.
 */
export async function applyPatch(
  folder: string,
  patch: Buffer,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const root = await findRepositoryRoot(folder, options.runGit, options.signal);
  if (!root) throw new ApplyRefusedError('not-a-repository', [], folder);
  const git = gitIn(root, options.runGit, options.signal);
  options.onProgress?.('Reading the change…');
  const read = await readPatch(git, patch);
  let { plan, sections } = await planSections(git, read, options);
  if (plan.files.length === 0) throw new ApplyRefusedError('empty');
  refuseUnsafe(plan);
  if (plan.dirty.length > 0 && !options.stashFirst) throw new ApplyRefusedError('dirty', plan.dirty);
  // A dirty file's outcome may change once its edits are set aside; the others' will not.
  refuseConflicts(plan, plan.dirty);

  const snapshot = await takeSnapshot(git, touchedPaths(plan.files));
  let stash: string | undefined;
  try {
    let stashed: ApplyResult['stashed'];
    if (plan.dirty.length > 0) {
      options.onProgress?.('Setting your edits aside…');
      const message = options.stashMessage ?? DEFAULT_STASH_MESSAGE;
      stash = await stashPaths(git, plan.dirty, message);
      if (stash) stashed = { message, paths: plan.dirty };
      ({ plan, sections } = await planSections(git, read, options));
      if (plan.dirty.length > 0) throw new ApplyRefusedError('dirty', plan.dirty);
      refuseConflicts(plan, []);
    }
    const written = await writeChange(git, read, plan, sections, snapshot, options);
    const selected = new Set(plan.files.map((file) => file.path));
    const result: ApplyResult = {
      ...written,
      skipped: unique(read.files.filter((file) => !selected.has(file.path)).map((file) => file.path)),
    };
    if (stashed) result.stashed = stashed;
    return result;
  } catch (failure) {
    // Put back with no signal: a cancelled apply must still be undone.
    const undo = gitIn(root, options.runGit);
    await restoreSnapshot(undo, snapshot, failure);
    // Its edits are back in the tree; a stash left behind only repeats them.
    if (stash) await dropStash(undo, stash).catch(() => undefined);
    throw failure;
  }
}

function refuseUnsafe(plan: ApplyPlan): void {
  const refused = refusalsOf(plan.files);
  if (refused.length === 0) return;
  throw new ApplyRefusedError('unsafe', unique(refused.map((file) => file.path)), undefined, refused);
}

/** Refuses when a selected file conflicts, leaving out the files that touch one of `except`. */
function refuseConflicts(plan: ApplyPlan, except: readonly string[]): void {
  const conflicts = plan.files.filter(
    (file) => file.outcome === 'conflict' && !touchedPaths([file]).some((path) => except.includes(path)),
  );
  if (conflicts.length > 0) {
    throw new ApplyRefusedError('conflict', unique(conflicts.map((file) => file.path)));
  }
}

/**
 * Writes the change: first the files that need a merge, with --3way, then the clean ones directly (a
 * clean file merged in three ways could conflict where the direct apply does not), each phase one git
 * call given only its own files' sections. Merging first, every merge runs under the repository's own
 * .gitattributes, as the plan's check did: none the change brings can pick a merge driver. --3way
 * stages what it merges: those index entries go back to what they were, so every applied file is an
 * unstaged change.
 */
async function writeChange(
  git: Git,
  read: ReadPatch,
  plan: ApplyPlan,
  sections: readonly number[],
  snapshot: PathSnapshot,
  options: ApplyOptions,
): Promise<Omit<ApplyResult, 'skipped' | 'stashed'>> {
  const clean = plan.files.filter((file) => file.outcome === 'clean');
  const merge = plan.files.filter((file) => file.outcome === 'merge');
  const sectionsOf = (outcome: 'clean' | 'merge') =>
    sections.filter((_, index) => plan.files[index]?.outcome === outcome);
  let conflicted: string[] = [];
  if (merge.length > 0) {
    options.onProgress?.(`Merging ${fileCount(merge.length)} with your version…`);
    // --3way compares the working tree with the index by stat data: a stale entry reads as modified.
    await git.run(['update-index', '-q', '--refresh']);
    const args = ['apply', '--3way', WHITESPACE];
    const output = await git.run(args, {
      input: subPatch(read, sectionsOf('merge')),
      timeoutMs: APPLY_TIMEOUT_MS,
    });
    // Exit 1 with "with conflicts" means written with conflict markers; anything else wrote nothing.
    if (output.exitCode !== 0 && !/with conflicts/.test(output.stderr)) throw commandFailed(args, output);
    const mergedPaths = touchedPaths(merge);
    conflicted = await unmergedPaths(git, mergedPaths);
    await restoreIndex(
      git,
      snapshot,
      mergedPaths.filter((path) => !conflicted.includes(path)),
    );
  }
  if (clean.length > 0) {
    options.onProgress?.(`Writing ${fileCount(clean.length)}…`);
    await git.ok(['apply', WHITESPACE], {
      input: subPatch(read, sectionsOf('clean')),
      timeoutMs: APPLY_TIMEOUT_MS,
    });
  }
  return {
    applied: unique(clean.map((file) => file.path)),
    merged: unique(merge.map((file) => file.path).filter((path) => !conflicted.includes(path))),
    conflicted,
  };
}

async function unmergedPaths(git: Git, paths: readonly string[]): Promise<string[]> {
  // Only unmerged entries are listed: the whole index's are few, and one call reads them.
  const output = await git.ok(['ls-files', '-u', '-z']);
  const unmerged = new Set<string>();
  for (const record of output.stdout.toString('utf8').split('\0')) {
    if (record !== '') unmerged.add(record.slice(record.indexOf('\t') + 1));
  }
  return paths.filter((path) => unmerged.has(path));
}

/** Stashes `paths` (untracked ones too) and returns the stash's commit; none when git saved nothing. */
async function stashPaths(git: Git, paths: readonly string[], message: string): Promise<string | undefined> {
  const before = await stashTop(git);
  await git.ok(['stash', 'push', '--include-untracked', '-m', message, '--', ...paths]);
  const after = await stashTop(git);
  return after !== before ? after : undefined;
}

/** Drops the stash the apply made, once its edits are back in the working tree, if it is still on top. */
async function dropStash(git: Git, stash: string): Promise<void> {
  if ((await stashTop(git)) === stash) await git.run(['stash', 'drop', '-q']);
}

async function stashTop(git: Git): Promise<string | undefined> {
  const output = await git.run(['rev-parse', '--verify', '--quiet', 'refs/stash']);
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() : undefined;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
