import { createHash } from 'node:crypto';
import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCommandError, gitIn, type Git, type GitAccess } from './git';
import { handedOverTree } from './handedOverTree';
import {
  HandoffRefusedError,
  MAX_LISTED_COMMITS,
  sizeText,
  type HandedCommit,
  type HandoffKind,
  type HandoffManifest,
  type HandoffPart,
  type PartName,
} from './handoffManifest';
import { readTickedFiles } from './handoffUntracked';
import { readLocalState, type LocalState } from './localState';

export const DEFAULT_MAX_HANDOFF_BYTES = 50 * 1024 * 1024;

export interface HandoffOptions extends GitAccess {
  kind: HandoffKind;
  /** The untracked files the user ticked, each exactly as `readLocalState` lists it. */
  untracked?: readonly string[];
  /** All parts together at most (50 MB unless said). */
  maxBytes?: number;
  /** Where the parts folder is made: the system's temp folder unless said. */
  tmpRoot?: string;
}

/** A hand-off built: its manifest and the folder of its parts (one file per part, by name). */
export interface Handoff {
  manifest: HandoffManifest;
  /** The caller removes it once the parts are sent. */
  folder: string;
  state: LocalState;
}

// Flags that make a patch the same whatever the user configured (prefixes, colour, external tools) and
// binary-safe (`--full-index` so git apply can check each binary file's base).
const PATCH_FLAGS = [
  '--binary',
  '--full-index',
  '--find-renames',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  // A submodule is its own repository: its recorded commit travels with HEAD, its local state stays.
  '--ignore-submodules=all',
];

/**
 * Builds what the sandbox needs to reproduce the user's work tree of `folder`: for `commits`, the commits
 * ahead of the upstream as a git bundle, for `archive` (no git provider) HEAD's tracked files as a tar;
 * then the staged and unstaged edits as binary patches against HEAD and the ticked untracked files.
 */
export async function buildHandoff(folder: string, options: HandoffOptions): Promise<Handoff> {
  const state = await readLocalState(folder, options);
  if (!state) throw new HandoffRefusedError('not-a-repository', `${folder} is not in a git work tree.`);
  const head = state.head;
  if (!head) {
    throw new HandoffRefusedError('no-commit', 'The repository has no commit yet: commit once, then start.');
  }
  if (state.unmerged.length > 0) {
    throw new HandoffRefusedError(
      'conflict',
      `Finish the merge first: ${state.unmerged.slice(0, 5).join(', ')} ${state.unmerged.length === 1 ? 'is' : 'are'} in conflict.`,
      state.unmerged[0],
    );
  }
  const git = gitIn(state.root, options.runGit, options.signal);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_HANDOFF_BYTES;
  const base = options.kind === 'commits' ? await baseCommit(git, state, head) : undefined;
  const ticked = await readTickedFiles(state, options.untracked ?? [], maxBytes);

  const partsFolder = await mkdtemp(join(options.tmpRoot ?? tmpdir(), 'openhands-handoff-'));
  try {
    const parts = new Parts(partsFolder, maxBytes);
    for (const file of ticked) parts.reserve(file.content.length);
    const { commits, commitCount } =
      base === undefined ? { commits: [], commitCount: 0 } : await listCommits(git, base);
    // A bundle, not a format-patch series: fetching it gives the very commits (same ids, authors, dates,
    // merges, empty commits, binary files and modes), so the agent's branch shares the user's history.
    if (base !== undefined && commitCount > 0) {
      const holds = `${commitCount} commit${commitCount === 1 ? '' : 's'} ahead of ${base.slice(0, 12)}`;
      await parts.fromGit(git, 'commits.bundle', holds, ['bundle', 'create', '-', 'HEAD', `^${base}`]);
    }
    if (options.kind === 'archive') {
      await parts.fromGit(git, 'head.tar', `the tracked files at ${head.slice(0, 12)}`, [
        'archive',
        '--format=tar',
        head,
      ]);
    }
    const largest = () => largestEdited(state);
    const staged = ['diff', '--cached', ...PATCH_FLAGS, head];
    await parts.fromGit(git, 'staged.patch', 'the staged edits', staged, largest);
    await parts.fromGit(git, 'unstaged.patch', 'the unstaged edits', ['diff', ...PATCH_FLAGS], largest);
    const untracked = [];
    for (const [index, file] of ticked.entries()) {
      const name: PartName = `untracked-${index + 1}`;
      await parts.write(name, `the untracked file ${file.path}`, file.content);
      untracked.push({ path: file.path, part: name, type: file.type, bytes: file.content.length });
    }
    const headTree = (await git.ok(['rev-parse', `${head}^{tree}`])).stdout.toString('utf8').trim();
    const manifest: HandoffManifest = {
      version: 1,
      kind: options.kind,
      head,
      headTree,
      branch: state.branch,
      base,
      upstream: state.upstream?.commit ? { ...state.upstream, commit: state.upstream.commit } : undefined,
      commits,
      commitCount,
      editedFiles: editedFiles(state),
      untracked,
      submodules: await recordedSubmodules(git, head, state),
      submodulesLeft: state.submodules
        .filter((submodule) => submodule.changed)
        .map((submodule) => submodule.path),
      handedOver: await handedOverTree(git, state, head, ticked, partsFolder),
      parts: parts.written,
      totalBytes: parts.written.reduce((sum, part) => sum + part.bytes, 0),
    };
    return { manifest, folder: partsFolder, state };
  } catch (error) {
    await rm(partsFolder, { recursive: true, force: true });
    throw error;
  }
}

/** Removes a hand-off's parts folder (they are copies of the user's work); nothing when it is gone. */
export async function removeHandoff(handoff: Pick<Handoff, 'folder'>): Promise<void> {
  await rm(handoff.folder, { recursive: true, force: true });
}

/** Where the commits ahead start: the upstream's commit, or where HEAD and it parted when both moved. */
async function baseCommit(git: Git, state: LocalState, head: string): Promise<string> {
  const upstream = state.upstream?.commit;
  if (!upstream) {
    const what = state.branch ?? 'HEAD';
    throw new HandoffRefusedError(
      'no-upstream',
      `${what} follows no branch on a remote, so the sandbox has nothing to start from: push it first, or bring the whole repository.`,
    );
  }
  const output = await git.run(['merge-base', head, upstream]);
  if (output.exitCode !== 0) {
    throw new HandoffRefusedError(
      'no-upstream',
      `${state.branch ?? 'HEAD'} shares no history with ${state.upstream?.name ?? 'its upstream'}: bring the whole repository instead.`,
    );
  }
  return output.stdout.toString('utf8').trim();
}

async function listCommits(
  git: Git,
  base: string,
): Promise<{ commits: HandedCommit[]; commitCount: number }> {
  const count = await git.ok(['rev-list', '--count', `${base}..HEAD`]);
  const log = await git.ok([
    'log',
    '-z',
    '--no-color',
    '--format=%H %s',
    `--max-count=${MAX_LISTED_COMMITS}`,
    `${base}..HEAD`,
  ]);
  const commits = log.stdout
    .toString('utf8')
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => ({
      sha: record.slice(0, record.indexOf(' ')),
      subject: record.slice(record.indexOf(' ') + 1),
    }))
    .reverse();
  return { commits, commitCount: Number(count.stdout.toString('utf8').trim()) };
}

/** The submodules as HEAD records them (the index may hold another commit for one). */
async function recordedSubmodules(
  git: Git,
  head: string,
  state: LocalState,
): Promise<{ path: string; commit: string }[]> {
  if (state.submodules.length === 0) return [];
  const paths = state.submodules.map((submodule) => submodule.path);
  const output = await git.ok(['ls-tree', '-z', head, '--', ...paths]);
  return output.stdout
    .toString('utf8')
    .split('\0')
    .filter((record) => record.startsWith('160000 commit '))
    .map((record) => ({
      path: record.slice(record.indexOf('\t') + 1),
      commit: record.split(' ')[2]?.split('\t')[0] ?? '',
    }));
}

function editedFiles(state: LocalState): string[] {
  const paths = new Set<string>();
  for (const change of [...state.staged, ...state.unstaged]) {
    if (change.from !== undefined) paths.add(change.from);
    paths.add(change.path);
  }
  return [...paths];
}

/** The largest file in the working tree among those with staged or unstaged edits. */
async function largestEdited(state: LocalState): Promise<{ path: string; bytes: number } | undefined> {
  let largest: { path: string; bytes: number } | undefined;
  for (const path of editedFiles(state)) {
    const entry = await lstat(join(state.root, ...path.split('/'))).catch(() => undefined);
    if (entry?.isFile() && entry.size > (largest?.bytes ?? -1)) largest = { path, bytes: entry.size };
  }
  return largest;
}

/** The parts written so far, within one size budget for them all. */
class Parts {
  readonly written: HandoffPart[] = [];
  private used = 0;

  constructor(
    private readonly folder: string,
    private readonly maxBytes: number,
  ) {}

  /** Bytes counted now, written later (the ticked files, checked before anything is built). */
  reserve(bytes: number): void {
    this.used += bytes;
  }

  /** `culprit`, when the part is too big: the file to name in the refusal. */
  async fromGit(
    git: Git,
    name: PartName,
    holds: string,
    args: readonly string[],
    culprit?: () => Promise<{ path: string; bytes: number } | undefined>,
  ): Promise<void> {
    const left = this.maxBytes - this.used;
    let output;
    try {
      output = await git.ok(args, { maxOutputBytes: Math.max(0, left), timeoutMs: 300_000 });
    } catch (error) {
      if (error instanceof GitCommandError && error.kind === 'too-much-output') {
        const file = await culprit?.();
        const largest = file ? ` (the largest, ${file.path}, is ${sizeText(file.bytes)})` : '';
        throw new HandoffRefusedError(
          'too-big',
          `There is no room for ${holds}: a hand-off holds at most ${sizeText(this.maxBytes)}, and they need more than the ${sizeText(left)} left${largest}. Commit and push them, or start from the remote only.`,
          file?.path,
        );
      }
      throw error;
    }
    if (output.stdout.length === 0) return;
    this.used += output.stdout.length;
    await this.save(name, holds, output.stdout);
  }

  async write(name: PartName, holds: string, content: Buffer): Promise<void> {
    // Counted by `reserve` already.
    await this.save(name, holds, content);
  }

  private async save(name: PartName, holds: string, content: Buffer): Promise<void> {
    await writeFile(join(this.folder, name), content, { mode: 0o600 });
    const sha256 = createHash('sha256').update(content).digest('hex');
    this.written.push({ name, holds, bytes: content.length, sha256 });
  }
}
