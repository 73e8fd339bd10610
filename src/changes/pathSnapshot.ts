import { chmod, lstat, mkdir, readFile, readlink, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Git } from './git';
import { pathspecFor } from './patchSelection';

type WorktreeEntry =
  | { kind: 'absent' }
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'directory' };

/** Some paths as they were: their bytes (or absence) in the working tree and their index entries. */
export interface PathSnapshot {
  paths: readonly string[];
  worktree: ReadonlyMap<string, WorktreeEntry>;
  /** `ls-files -s` records (`mode sha stage\tpath`), every stage, for the paths in the index. */
  index: readonly string[];
  /** Folders that did not exist yet: an apply that creates them leaves them behind otherwise. */
  missingFolders: readonly string[];
}

/** Restoring failed for these paths: the working tree or the index may hold part of a change. */
export class RestoreFailedError extends Error {
  constructor(
    readonly paths: string[],
    /** What went wrong while putting them back. */
    cause: unknown,
    /** What went wrong first, the reason to put them back. */
    readonly failure: unknown,
  ) {
    super(
      `${failure instanceof Error ? failure.message : 'The change failed'} These paths could not be put back ` +
        `as they were and may hold part of the change: ${paths.join(', ')}.`,
      { cause },
    );
    this.name = 'RestoreFailedError';
  }
}

export async function takeSnapshot(git: Git, paths: readonly string[]): Promise<PathSnapshot> {
  const root = resolve(git.cwd);
  const worktree = new Map<string, WorktreeEntry>();
  const missingFolders = new Set<string>();
  for (const path of paths) {
    const absolute = inside(root, path);
    // The checks keep such paths from git; a snapshot never reads through a link either.
    const link = await linkAbove(root, absolute);
    if (link) throw new Error(`The change names a path under a link (${relative(root, link)}): ${path}`);
    worktree.set(path, await readEntry(absolute));
    for (
      let folder = dirname(absolute);
      folder !== root && !(await exists(folder));
      folder = dirname(folder)
    ) {
      missingFolders.add(folder);
    }
  }
  return { paths, worktree, index: await indexRecords(git, paths), missingFolders: [...missingFolders] };
}

/**
 * Puts every path back as the snapshot holds it, bytes and index entry, after `failure`; tries them all
 * before it throws. It never follows a link: what it removes and writes is read with lstat, inside the
 * tree, and a path under a link (one the failed apply made) waits until that link is gone.
 */
export async function restoreSnapshot(git: Git, snapshot: PathSnapshot, failure: unknown): Promise<void> {
  const root = resolve(git.cwd);
  const failed = new Set<string>();
  let firstError: unknown;
  const note = (path: string, error: unknown) => {
    failed.add(path);
    firstError ??= error;
  };
  // Deepest first while clearing (a file the apply put where a folder was), shallowest first while writing.
  const byDepth = [...snapshot.paths].sort((a, b) => depth(b) - depth(a));
  const cleared = new Set<string>();
  // Under a link the apply made: not ours to touch until the link itself (shallower) is cleared.
  const underLink: string[] = [];
  const clear = async (path: string, waitForLink: boolean) => {
    const absolute = inside(root, path);
    const link = await linkAbove(root, absolute);
    if (link && waitForLink) underLink.push(path);
    else if (link) throw new Error(`${path} is under a link (${relative(root, link)}): it was not touched`);
    else if (await clearUnlessSame(absolute, snapshot.worktree.get(path))) cleared.add(path);
  };
  for (const path of byDepth) await clear(path, true).catch((error: unknown) => note(path, error));
  for (const path of underLink) await clear(path, false).catch((error: unknown) => note(path, error));
  for (const path of byDepth.reverse()) {
    if (!cleared.has(path) || failed.has(path)) continue;
    const absolute = inside(root, path);
    await writeEntryInside(root, absolute, snapshot.worktree.get(path)).catch((error: unknown) =>
      note(path, error),
    );
  }
  for (const folder of [...snapshot.missingFolders].sort((a, b) => b.length - a.length)) {
    // Only empty ones, only real folders, never one reached through a link: anything else is not ours.
    if (await linkAbove(root, folder)) continue;
    const entry = await lstat(folder).catch(() => undefined);
    if (entry?.isDirectory()) await rmdir(folder).catch(() => undefined);
  }
  await restoreIndex(git, snapshot, snapshot.paths).catch((error: unknown) => {
    for (const path of snapshot.paths) note(path, error);
  });
  if (failed.size > 0) throw new RestoreFailedError([...failed], firstError, failure);
}

/** Puts back the index entries of `paths` only (the working tree keeps what is there). */
export async function restoreIndex(
  git: Git,
  snapshot: PathSnapshot,
  paths: readonly string[],
): Promise<void> {
  if (paths.length === 0) return;
  const wanted = new Set(paths);
  await git.ok(['update-index', '-z', '--force-remove', '--stdin'], { input: nulJoined(paths) });
  const records = snapshot.index.filter((record) => wanted.has(recordPath(record)));
  if (records.length > 0) await git.ok(['update-index', '-z', '--index-info'], { input: nulJoined(records) });
  // Entries written back carry no stat data; refreshed, git sees them unchanged again (exit 1: some differ).
  await git.run(['update-index', '-q', '--refresh']);
}

async function indexRecords(git: Git, paths: readonly string[]): Promise<string[]> {
  const wanted = new Set(paths);
  const records: string[] = [];
  const output = await git.ok(['ls-files', '-s', '-z', '--', ...pathspecFor(paths)], {
    maxOutputBytes: 512 * 1024 * 1024,
  });
  // A path names a folder's files too (and no pathspec names them all): keep exact matches only.
  for (const record of output.stdout.toString('utf8').split('\0')) {
    if (record !== '' && wanted.has(recordPath(record))) records.push(record);
  }
  return records;
}

function recordPath(record: string): string {
  return record.slice(record.indexOf('\t') + 1);
}

function nulJoined(items: readonly string[]): Buffer {
  return Buffer.from(items.map((item) => `${item}\0`).join(''), 'utf8');
}

/** `path` under `root`; a path that would lead out of it is refused, never read or written. */
function inside(root: string, path: string): string {
  const absolute = resolve(root, ...path.split('/'));
  const back = relative(root, absolute);
  if (back === '' || back.startsWith(`..${sep}`) || back === '..' || isAbsolute(back)) {
    throw new Error(`The change names a path outside the repository: ${path}`);
  }
  return absolute;
}

/** The first symlink between `root` (excluded) and `absolute` (excluded), by lstat; undefined when none. */
async function linkAbove(root: string, absolute: string): Promise<string | undefined> {
  const below = relative(root, dirname(absolute));
  if (below === '') return undefined;
  let folder = root;
  for (const component of below.split(sep)) {
    folder = join(folder, component);
    const entry = await lstat(folder).catch(() => undefined);
    if (!entry) return undefined;
    if (entry.isSymbolicLink()) return folder;
  }
  return undefined;
}

/** Writes an entry back; its missing folders are made one by one, never through a link. */
async function writeEntryInside(
  root: string,
  absolute: string,
  entry: WorktreeEntry | undefined,
): Promise<void> {
  if (!entry || entry.kind === 'absent') return;
  const link = await linkAbove(root, absolute);
  if (link)
    throw new Error(`${relative(root, absolute)} is under a link (${relative(root, link)}): not written`);
  await writeEntry(absolute, entry);
}

function depth(path: string): number {
  return path.split('/').length;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function readEntry(absolute: string): Promise<WorktreeEntry> {
  const entry = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!entry) return { kind: 'absent' };
  if (entry.isSymbolicLink()) return { kind: 'symlink', target: await readlink(absolute) };
  if (entry.isDirectory()) return { kind: 'directory' };
  return { kind: 'file', bytes: await readFile(absolute), mode: entry.mode & 0o7777 };
}

/** Removes what is at `absolute` unless it already is the snapshot's entry; true when it removed or found nothing. */
async function clearUnlessSame(absolute: string, wanted: WorktreeEntry | undefined): Promise<boolean> {
  const current = await readEntry(absolute);
  if (wanted && sameEntry(current, wanted)) return false;
  if (current.kind === 'directory') await rmdir(absolute);
  else if (current.kind !== 'absent') await unlink(absolute);
  return true;
}

function sameEntry(current: WorktreeEntry, wanted: WorktreeEntry): boolean {
  if (current.kind === 'file' && wanted.kind === 'file') {
    return current.mode === wanted.mode && current.bytes.equals(wanted.bytes);
  }
  if (current.kind === 'symlink' && wanted.kind === 'symlink') return current.target === wanted.target;
  return current.kind === wanted.kind && (current.kind === 'absent' || current.kind === 'directory');
}

async function writeEntry(absolute: string, entry: WorktreeEntry | undefined): Promise<void> {
  if (!entry || entry.kind === 'absent') return;
  if (entry.kind === 'directory') {
    await mkdir(absolute, { recursive: true });
    return;
  }
  await mkdir(dirname(absolute), { recursive: true });
  if (entry.kind === 'symlink') {
    await symlink(entry.target, absolute);
    return;
  }
  await writeFile(absolute, entry.bytes, { mode: entry.mode });
  // The mode given on creation passes through the umask.
  await chmod(absolute, entry.mode);
}
