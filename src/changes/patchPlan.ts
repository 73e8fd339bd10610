import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ApplyRefusedError } from './applyRefused';
import { gitIn, type Git, type GitAccess } from './git';
import { findRepositoryRoot, headCommit, resolveCommit } from './localRepository';
import { readPatch, sectionsPatch, type PatchFile, type ReadPatch } from './patchFiles';
import { checkPatch, localLinks, refusedPaths, type RefusedPath } from './patchGuard';
import { LINK_MODE, sectionPath, type PatchSection } from './patchSections';
import { isSelected, pathspecFor, touchedPaths, type FileSelection } from './patchSelection';

/**
 * clean: applies as it is; merge: applies by a 3-way merge without conflicts; conflict: does not;
 * refused: the checks keep it from git (outside the repository, in .git, through a link).
 */
export type FileOutcome = 'clean' | 'merge' | 'conflict' | 'refused';

export interface PlannedFile extends PatchFile {
  outcome: FileOutcome;
  /** Why a file conflicts (in git's words where it has them) or is refused (in ours). */
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
  /**
   * The base is the user's own state, handed to the agent when the conversation started: then
   * `headMatchesBase` says whether the user's files are still that state (not whether HEAD is).
   */
  handedOver?: boolean;
}

/** Where a long apply is: a sentence for a progress bar. */
export type ApplyProgress = (step: string) => void;

export interface PlanOptions extends GitAccess, FileSelection {
  /** The commit the agent's change was made on. */
  baseCommit?: string;
  /**
   * Paths whose uncommitted edits are part of the change's base (what a hand-off gave the agent): not
   * in its way, so neither refused as dirty nor stashed.
   */
  baseEdits?: readonly string[];
  onProgress?: ApplyProgress;
}

// The agent's whitespace is its content: never fix it, never fail on it (whatever apply.whitespace says).
export const WHITESPACE = '--whitespace=nowarn';
// A check of thousands of files names each failing one on stderr.
export const CHECK_STDERR_BYTES = 32 * 1024 * 1024;

/** What applying `patch` to the repository `folder` is in would do, file by file. Changes nothing. */
export async function planApply(
  folder: string,
  patch: Buffer,
  options: PlanOptions = {},
): Promise<ApplyPlan> {
  const root = await findRepositoryRoot(folder, options.runGit, options.signal);
  if (!root) throw new ApplyRefusedError('not-a-repository', [], folder);
  const git = gitIn(root, options.runGit, options.signal);
  options.onProgress?.('Reading the change…');
  return planFiles(git, await readPatch(git, patch), options);
}

/**
 * The plan for the selected files of `read` (the patch, read once by the caller). The checks come
 * first: a patch git might read otherwise is refused whole, and a file the checks refuse never reaches
 * git. Then a fixed number of git calls, however many files: one check of all, one of those it did not
 * name, one 3-way check of the rest.
 */
export async function planFiles(git: Git, read: ReadPatch, options: PlanOptions): Promise<ApplyPlan> {
  return (await planSections(git, read, options)).plan;
}

/** The plan, and for each of its files the index of its section in `read`. */
export async function planSections(
  git: Git,
  read: ReadPatch,
  options: PlanOptions,
): Promise<{ plan: ApplyPlan; sections: number[] }> {
  const verdict = await checkPatch(read.reading, await localLinks(git));
  if (verdict.patch.length > 0) {
    throw new ApplyRefusedError('unsafe', [], undefined, refusedPaths(verdict, read.reading));
  }
  const selected = read.files.flatMap((file, index) => (isSelected(file, options) ? [index] : []));
  const checkable = selected.filter((index) => !verdict.sections.has(index));
  options.onProgress?.(`Checking ${fileCount(checkable.length)} against your repository…`);
  const [outcomes, dirty, head, base] = await Promise.all([
    checkOutcomes(git, read, checkable, options.onProgress),
    dirtyPaths(git, touchedPaths(checkable.flatMap((index) => read.files[index] ?? []))).then((paths) =>
      paths.filter((path) => !options.baseEdits?.includes(path)),
    ),
    headCommit(git),
    options.baseCommit === undefined ? undefined : resolveCommit(git, options.baseCommit),
  ]);
  const files = selected.map((index): PlannedFile => {
    const file = read.files[index] ?? { path: '', status: 'modified', binary: false };
    const refused = verdict.sections.get(index);
    if (refused) return { ...file, outcome: 'refused', reason: refused.join('; ') };
    return { ...file, ...(outcomes.get(index) ?? { outcome: 'clean' }) };
  });
  const plan: ApplyPlan = { root: git.cwd, files, dirty, baseKnownLocally: base !== undefined };
  if (head !== undefined) plan.head = head;
  if (options.baseCommit !== undefined) {
    plan.baseCommit = options.baseCommit;
    plan.headMatchesBase = head !== undefined && head === base;
  }
  return { plan, sections: selected };
}

/** `1 file`, `2000 files`: a count for a progress line. */
export function fileCount(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

/** The refused files among `files`, each with its reason. */
export function refusalsOf(files: readonly PlannedFile[]): RefusedPath[] {
  return files
    .filter((file) => file.outcome === 'refused')
    .map((file) => ({ path: file.path, reason: file.reason ?? '' }));
}

interface Outcome {
  outcome: FileOutcome;
  reason?: string;
}

/** Outcomes by section index (clean when absent). */
async function checkOutcomes(
  git: Git,
  read: ReadPatch,
  indexes: readonly number[],
  onProgress: ApplyProgress | undefined,
): Promise<Map<number, Outcome>> {
  const outcomes = new Map<number, Outcome>();
  if (indexes.length === 0) return outcomes;
  const direct = await checkDirect(git, read, indexes);
  if (direct.passed) return outcomes;
  // git names every file that does not apply; if the others pass together, only the named need a merge.
  let suspects = indexes.filter((index) => direct.named.has(index));
  const rest = indexes.filter((index) => !direct.named.has(index));
  if (suspects.length === 0 || (rest.length > 0 && !(await checkDirect(git, read, rest)).passed)) {
    suspects = [...indexes];
  }
  onProgress?.(`Checking ${fileCount(suspects.length)} for a three-way merge…`);
  const scratch = new ScratchIndex(git);
  try {
    const merged = await git.run(['apply', '--check', '--3way', WHITESPACE], {
      input: subPatch(read, suspects),
      env: { GIT_INDEX_FILE: await scratch.path() },
      maxStderrBytes: CHECK_STDERR_BYTES,
    });
    const mergeLines = merged.stderr.split('\n');
    const cleanly = new Set<string>();
    const withConflicts = new Set<string>();
    for (const line of mergeLines) {
      const applied = /^Applied patch to '(.*)' (cleanly|with conflicts)\.$/.exec(line);
      if (applied?.[1] !== undefined) (applied[2] === 'cleanly' ? cleanly : withConflicts).add(applied[1]);
    }
    const mergeErrors = namedErrors(read, suspects, mergeLines, true);
    for (const index of suspects) {
      const section = read.reading.sections[index];
      const name = section ? sectionPath(section) : '';
      if (cleanly.has(name) && !mergeErrors.has(index) && section && !touchesLink(section)) {
        outcomes.set(index, { outcome: 'merge' });
        continue;
      }
      const reason = withConflicts.has(name)
        ? 'a 3-way merge with the local version leaves conflicts'
        : section && touchesLink(section) && cleanly.has(name)
          ? 'a link is never merged: it applies only as it is'
          : (mergeErrors.get(index) ?? direct.named.get(index) ?? 'git apply refused the file');
      outcomes.set(index, { outcome: 'conflict', reason });
    }
  } finally {
    await scratch.dispose();
  }
  return outcomes;
}

function touchesLink(section: PatchSection): boolean {
  return section.oldMode === LINK_MODE || section.newMode === LINK_MODE;
}

/** The sections at `indexes`, as one patch. */
export function subPatch(read: ReadPatch, indexes: readonly number[]): Buffer {
  return sectionsPatch(
    read.patch,
    indexes.flatMap((index) => read.reading.sections[index] ?? []),
  );
}

async function checkDirect(
  git: Git,
  read: ReadPatch,
  indexes: readonly number[],
): Promise<{ passed: boolean; named: Map<number, string> }> {
  const output = await git.run(['apply', '--check', WHITESPACE], {
    input: subPatch(read, indexes),
    maxStderrBytes: CHECK_STDERR_BYTES,
  });
  if (output.exitCode === 0) return { passed: true, named: new Map() };
  return { passed: false, named: namedErrors(read, indexes, output.stderr.split('\n'), false) };
}

// The 3-way check falls back to a direct apply and repeats the direct check's complaints.
const DIRECT_COMPLAINT = /patch failed|patch does not apply|falling back/i;
const MAX_REASON_CHARS = 200;

/**
 * The sections git's `error:` lines name, with the first reason for each. git names a file by its old
 * or new path (`error: <name>: <why>`, `error: patch failed: <name>:<line>`, `'<name>'`); a name may hold
 * `: `, so every split is tried against the names the patch has.
 */
function namedErrors(
  read: ReadPatch,
  indexes: readonly number[],
  lines: readonly string[],
  skipDirectComplaints: boolean,
): Map<number, string> {
  const byName = new Map<string, number[]>();
  for (const index of indexes) {
    const section = read.reading.sections[index];
    for (const name of new Set([section?.oldPath, section?.newPath])) {
      if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), index]);
    }
  }
  const named = new Map<number, string>();
  const note = (name: string, reason: string) => {
    for (const index of byName.get(name) ?? []) if (!named.has(index)) named.set(index, cleanReason(reason));
  };
  for (const line of lines) {
    if (!line.startsWith('error: ')) continue;
    if (skipDirectComplaints && DIRECT_COMPLAINT.test(line)) continue;
    const text = line.slice('error: '.length).replace(/^patch failed: /, '');
    // `'<name>'`: from the first quote to the last (a name may hold quotes).
    const quoted = /'(.*)'/.exec(text)?.[1];
    if (quoted !== undefined) note(quoted, text);
    for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
      const name = text.slice(0, colon);
      if (byName.has(name))
        note(name, line.startsWith('error: patch failed: ') ? 'patch does not apply' : text.slice(colon + 1));
    }
  }
  return named;
}

function cleanReason(reason: string): string {
  const text = reason.trim() || 'patch does not apply';
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
  if (paths.length === 0) return [];
  // One call however many paths: past what a command line holds, the whole tree's status is read.
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...pathspecFor(paths)];
  const output = await git.ok(args, { maxOutputBytes: 512 * 1024 * 1024 });
  const dirty = new Set<string>();
  const records = output.stdout.toString('utf8').split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record.length < 4) continue;
    dirty.add(record.slice(3));
    // A staged rename or copy is followed by its source path.
    if (/[RC]/.test(record.slice(0, 2))) dirty.add(records[++i] ?? '');
  }
  return paths.filter((path) => dirty.has(path));
}
