import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ApplyRefusedError } from './applyRefused';
import { gitIn, stderrLines, type Git, type GitAccess } from './git';
import { findRepositoryRoot, headCommit, resolveCommit } from './localRepository';
import { readPatchFiles, type PatchFile } from './patchFiles';
import {
  chunkByLength,
  escapeGlob,
  isSelected,
  limitArguments,
  touchedPaths,
  type FileSelection,
} from './patchSelection';

/** clean: applies as it is; merge: applies by a 3-way merge without conflicts; conflict: does not. */
export type FileOutcome = 'clean' | 'merge' | 'conflict';

export interface PlannedFile extends PatchFile {
  outcome: FileOutcome;
  /** Why a file conflicts, in git's words where it has them. */
  reason?: string;
}

export interface ApplyPlan {
  root: string;
  /** The selected files (all of the patch's without only/skip), in the patch's order. */
  files: PlannedFile[];
  /** Paths the patch touches (old and new) that have uncommitted local changes, untracked included. */
  dirty: string[];
  /** Local HEAD's sha; none on an unborn branch. */
  head?: string;
  /** The agent's base, when given. */
  baseCommit?: string;
  /** undefined when no base was given; false when local HEAD is not the base. */
  headMatchesBase?: boolean;
  /** Whether the base commit exists in the local repository (3-way merges need its blobs). */
  baseKnownLocally: boolean;
}

export interface PlanOptions extends GitAccess, FileSelection {
  /** The commit the agent's change was made on. */
  baseCommit?: string;
}

// The agent's whitespace is its content: never fix it, never fail on it (whatever apply.whitespace says).
export const WHITESPACE = '--whitespace=nowarn';

/** What applying `patch` to the repository `folder` is in would do, file by file. Changes nothing. */
export async function planApply(
  folder: string,
  patch: Buffer,
  options: PlanOptions = {},
): Promise<ApplyPlan> {
  const root = await findRepositoryRoot(folder, options.runGit, options.signal);
  if (!root) throw new ApplyRefusedError('not-a-repository', [], folder);
  const git = gitIn(root, options.runGit, options.signal);
  return planFiles(git, patch, await readPatchFiles(git, patch), options);
}

/** The plan for the selected ones of `allFiles` (the patch's files, read once by the caller). */
export async function planFiles(
  git: Git,
  patch: Buffer,
  allFiles: readonly PatchFile[],
  options: PlanOptions,
): Promise<ApplyPlan> {
  const files = allFiles.filter((file) => isSelected(file, options));
  const [outcomes, dirty, head, base] = await Promise.all([
    checkOutcomes(git, patch, files, allFiles),
    dirtyPaths(git, touchedPaths(files)),
    headCommit(git),
    options.baseCommit === undefined ? undefined : resolveCommit(git, options.baseCommit),
  ]);
  const plan: ApplyPlan = {
    root: git.cwd,
    files: files.map((file) => ({ ...file, ...(outcomes.get(file.path) ?? { outcome: 'clean' }) })),
    dirty,
    baseKnownLocally: base !== undefined,
  };
  if (head !== undefined) plan.head = head;
  if (options.baseCommit !== undefined) {
    plan.baseCommit = options.baseCommit;
    plan.headMatchesBase = head !== undefined && head === base;
  }
  return plan;
}

interface Outcome {
  outcome: FileOutcome;
  reason?: string;
}

/** Outcomes by path. The whole selection is checked at once first, so a clean patch costs one call. */
async function checkOutcomes(
  git: Git,
  patch: Buffer,
  files: readonly PatchFile[],
  allFiles: readonly PatchFile[],
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  if (files.length === 0) return outcomes;
  const whole = await checkTogether(git, patch, files, allFiles);
  if (whole.passed) return outcomes;
  // Narrow down to the files git named; if the rest passes together, only those need a look each.
  let suspects = [...new Set(files.map((file) => file.path))];
  const named = suspects.filter((path) => namedIn(whole.stderr, path));
  if (named.length > 0 && named.length < suspects.length) {
    const rest = files.filter((file) => !named.includes(file.path));
    if ((await checkTogether(git, patch, rest, allFiles)).passed) suspects = named;
  }
  const scratch = new ScratchIndex(git);
  try {
    for (const path of suspects) outcomes.set(path, await checkOne(git, patch, path, scratch));
  } finally {
    await scratch.dispose();
  }
  return outcomes;
}

async function checkTogether(
  git: Git,
  patch: Buffer,
  files: readonly PatchFile[],
  allFiles: readonly PatchFile[],
): Promise<{ passed: boolean; stderr: string }> {
  const limits = limitArguments(files, allFiles);
  if (limits.length !== 1 || !limits[0]) return { passed: false, stderr: '' };
  const output = await git.run(['apply', '--check', WHITESPACE, ...limits[0]], { input: patch });
  return { passed: output.exitCode === 0, stderr: output.stderr };
}

function namedIn(stderr: string, path: string): boolean {
  return stderr.includes(` ${path}:`) || stderr.includes(`'${path}'`);
}

async function checkOne(git: Git, patch: Buffer, path: string, scratch: ScratchIndex): Promise<Outcome> {
  const include = `--include=${escapeGlob(path)}`;
  const direct = await git.run(['apply', '--check', WHITESPACE, include], { input: patch });
  if (direct.exitCode === 0) return { outcome: 'clean' };
  // --check --3way exits 0 even when the merge leaves conflicts: only its stderr tells.
  const merged = await git.run(['apply', '--check', '--3way', WHITESPACE, include], {
    input: patch,
    env: { GIT_INDEX_FILE: await scratch.path() },
  });
  const conflicts = /with conflicts/.test(merged.stderr);
  if (merged.exitCode === 0 && !conflicts) return { outcome: 'merge' };
  return { outcome: 'conflict', reason: conflictReason(direct.stderr, merged.stderr, conflicts) };
}

// The 3-way check falls back to a direct apply and repeats the direct check's complaints.
const DIRECT_COMPLAINT = /patch failed|patch does not apply|falling back/i;

function conflictReason(direct: string, merged: string, conflicts: boolean): string {
  const mergeError = stderrLines(merged, 20).find(
    (line) => /^error:/.test(line) && !DIRECT_COMPLAINT.test(line),
  );
  if (mergeError) return cleanLine(mergeError);
  if (conflicts) return 'a 3-way merge with the local version leaves conflicts';
  return cleanLine(stderrLines(direct, 1)[0] ?? stderrLines(merged, 1)[0] ?? 'git apply refused the file');
}

const MAX_REASON_CHARS = 200;

function cleanLine(line: string): string {
  const text = line.replace(/^(error|fatal|warning):\s*/i, '').trim();
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

/**
 * A copy of the index, made fresh, for the 3-way checks: --3way compares the working tree with the
 * index by stat data, so a stale entry would read as modified. Refreshing the real one would write
 * it, and a plan changes nothing.
 */
class ScratchIndex {
  private folder: string | undefined;
  private indexPath: Promise<string> | undefined;

  constructor(private readonly git: Git) {}

  path(): Promise<string> {
    this.indexPath ??= this.make();
    return this.indexPath;
  }

  private async make(): Promise<string> {
    this.folder = await mkdtemp(join(tmpdir(), 'openhands-plan-'));
    const copy = join(this.folder, 'index');
    const located = (await this.git.ok(['rev-parse', '--git-path', 'index'])).stdout.toString('utf8').trim();
    const real = isAbsolute(located) ? located : join(this.git.cwd, located);
    // No index yet (a new repository): git starts the scratch one empty.
    await copyFile(real, copy).catch(() => undefined);
    await this.git.run(['update-index', '-q', '--refresh'], { env: { GIT_INDEX_FILE: copy } });
    return copy;
  }

  async dispose(): Promise<void> {
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
  }
}

/** Which of `paths` have uncommitted changes, staged, unstaged or untracked. */
export async function dirtyPaths(git: Git, paths: readonly string[]): Promise<string[]> {
  const dirty = new Set<string>();
  for (const chunk of chunkByLength(paths)) {
    const output = await git.ok(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...chunk]);
    const records = output.stdout.toString('utf8').split('\0');
    for (let i = 0; i < records.length; i++) {
      const record = records[i] ?? '';
      if (record.length < 4) continue;
      dirty.add(record.slice(3));
      // A staged rename or copy is followed by its source path.
      if (/[RC]/.test(record.slice(0, 2))) dirty.add(records[++i] ?? '');
    }
  }
  return paths.filter((path) => dirty.has(path));
}
