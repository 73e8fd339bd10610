import { gitIn, type Git, type GitAccess } from './git';
import { findRepositoryRoot } from './localRepository';

export type PatchFileStatus = 'added' | 'deleted' | 'modified' | 'renamed';

/** One file a patch changes, as git reads the patch. */
export interface PatchFile {
  /** The path after the change (the old one for a deletion), relative to the repository root, `/`-separated. */
  path: string;
  /** A rename's path before the change. */
  oldPath?: string;
  status: PatchFileStatus;
  binary: boolean;
}

/** The files `patch` changes, in the patch's order (a type change, file to symlink, is a deletion then an addition). */
export async function filesInPatch(
  folder: string,
  patch: Buffer,
  access: GitAccess = {},
): Promise<PatchFile[]> {
  // From a subfolder git apply leaves out the paths outside it: read the patch at the root.
  const root = (await findRepositoryRoot(folder, access.runGit, access.signal)) ?? folder;
  return readPatchFiles(gitIn(root, access.runGit, access.signal), patch);
}

export async function readPatchFiles(git: Git, patch: Buffer): Promise<PatchFile[]> {
  if (patch.toString('latin1').trim() === '') return [];
  const numstat = await git.ok(['apply', '--numstat', '-z'], { input: patch });
  const summary = await git.ok(['apply', '--summary'], { input: patch });
  return matchSummary(parseNumstat(numstat.stdout.toString('utf8')), summary.stdout.toString('utf8'));
}

interface NumstatEntry {
  path: string;
  binary: boolean;
}

/** `added\tdeleted\tpath\0` per patch; a binary patch counts `-\t-`. */
function parseNumstat(text: string): NumstatEntry[] {
  const entries: NumstatEntry[] = [];
  for (const record of text.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(record);
    if (!match?.[3]) continue;
    entries.push({ path: match[3], binary: match[1] === '-' && match[2] === '-' });
  }
  return entries;
}

/**
 * `git apply --summary` prints, patch by patch and with names unquoted, a create, delete, rename, copy,
 * rewrite or mode-change line (none for a plain edit). Each patch's name is known from --numstat, so
 * the lines are matched at a cursor against it: no line splitting, so no name can be misread.
 */
function matchSummary(entries: NumstatEntry[], summary: string): PatchFile[] {
  let cursor = 0;
  const files = entries.map((entry): PatchFile => {
    const found = summaryFor(summary, cursor, entry.path);
    cursor = found.next;
    const file: PatchFile = { path: entry.path, status: found.status, binary: entry.binary };
    if (found.oldPath !== undefined) file.oldPath = found.oldPath;
    return file;
  });
  if (summary.slice(cursor).trim() !== '') {
    throw new Error('The patch names files in a way that could not be read (git apply --summary).');
  }
  return files;
}

interface SummaryMatch {
  status: PatchFileStatus;
  oldPath?: string;
  next: number;
}

function summaryFor(summary: string, at: number, name: string): SummaryMatch {
  const created = /^ (create|delete) mode [0-7]{6} /.exec(summary.slice(at, at + 32));
  if (created && summary.startsWith(`${name}\n`, at + created[0].length)) {
    return {
      status: created[1] === 'create' ? 'added' : 'deleted',
      next: at + created[0].length + name.length + 1,
    };
  }
  for (const keyword of [' rename ', ' copy '] as const) {
    if (!summary.startsWith(keyword, at)) continue;
    const moved = movedFrom(summary, at + keyword.length, name);
    if (!moved) continue;
    const next = skipNamelessModeChange(summary, moved.next);
    // A copy leaves its source alone: for this change it is a new file.
    return keyword === ' rename '
      ? { status: 'renamed', oldPath: moved.oldPath, next }
      : { status: 'added', next };
  }
  const rewrite = ` rewrite ${name} (`;
  if (summary.startsWith(rewrite, at)) {
    const end = percentEnd(summary, at + rewrite.length);
    if (end !== undefined) return { status: 'modified', next: skipNamelessModeChange(summary, end) };
  }
  const modeChange = /^ mode change [0-7]{6} => [0-7]{6} /.exec(summary.slice(at, at + 40));
  if (modeChange && summary.startsWith(`${name}\n`, at + modeChange[0].length)) {
    return { status: 'modified', next: at + modeChange[0].length + name.length + 1 };
  }
  return { status: 'modified', next: at };
}

/**
 * A rename or copy names both paths as `old => new (NN%)`, or `dir/{old => new} (NN%)` when they share
 * leading folders. Knowing the new path, the old one is what is left.
 */
function movedFrom(summary: string, at: number, name: string): { oldPath: string; next: number } | undefined {
  const prefixes: string[] = [];
  for (let slash = name.lastIndexOf('/'); slash >= 0; slash = name.lastIndexOf('/', slash - 1)) {
    prefixes.push(name.slice(0, slash + 1));
    if (slash === 0) break;
  }
  for (const prefix of prefixes) {
    const open = `${prefix}{`;
    if (!summary.startsWith(open, at)) continue;
    const moved = findArrow(summary, at + open.length, `${name.slice(prefix.length)}} (`);
    if (moved) return { oldPath: prefix + moved.before, next: moved.next };
  }
  const moved = findArrow(summary, at, `${name} (`);
  return moved ? { oldPath: moved.before, next: moved.next } : undefined;
}

/** The text before ` => <tail>NN%)\n`, the first such from `at`. */
function findArrow(summary: string, at: number, tail: string): { before: string; next: number } | undefined {
  const marker = ` => ${tail}`;
  for (let found = summary.indexOf(marker, at); found >= 0; found = summary.indexOf(marker, found + 1)) {
    const end = percentEnd(summary, found + marker.length);
    if (end !== undefined) return { before: summary.slice(at, found), next: end };
  }
  return undefined;
}

/** After `NN%)\n` at `at`, or undefined. */
function percentEnd(summary: string, at: number): number | undefined {
  const match = /^\d{1,3}%\)\n/.exec(summary.slice(at, at + 8));
  return match ? at + match[0].length : undefined;
}

function skipNamelessModeChange(summary: string, at: number): number {
  const match = /^ mode change [0-7]{6} => [0-7]{6}\n/.exec(summary.slice(at, at + 40));
  return match ? at + match[0].length : at;
}
