import { gitIn, type Git, type GitAccess } from './git';
import { findRepositoryRoot } from './localRepository';

/** How a file differs: between HEAD and the index (staged), or the index and the working tree (unstaged). */
export type FileChangeKind = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed';

export interface FileChange {
  /** As git spells it, relative to the repository root, `/`-separated. */
  path: string;
  kind: FileChangeKind;
  /** For a rename or a copy: the path it came from. */
  from?: string;
}

export interface Upstream {
  /** As git writes it short: `origin/main`. */
  name: string;
  /** The remote it belongs to (`origin`); `.` for a local branch followed as upstream. */
  remote?: string;
  /** The branch on that remote (`main`). */
  branch?: string;
  /** Its commit here; undefined when the remote-tracking branch is gone. */
  commit?: string;
}

export interface Submodule {
  path: string;
  /** The commit the index records for it. */
  commit: string;
  /** Whether it differs from that: another commit checked out, edits or new files inside. */
  changed: boolean;
}

/** What the user has locally, as `git status` sees it: every path exactly as git spells it. */
export interface LocalState {
  root: string;
  /** HEAD's commit; undefined on a branch with no commit yet. */
  head?: string;
  /** The checked-out branch; undefined when HEAD is detached. */
  branch?: string;
  detached: boolean;
  upstream?: Upstream;
  /** Commits on HEAD the upstream lacks, and the other way round; undefined without an upstream commit. */
  ahead?: number;
  behind?: number;
  staged: FileChange[];
  unstaged: FileChange[];
  /** Untracked and not ignored. */
  untracked: string[];
  /** Paths in a merge conflict. */
  unmerged: string[];
  submodules: Submodule[];
  /**
   * Everything is on the upstream: a branch with an upstream commit, no commit ahead, nothing staged,
   * unstaged, untracked or in conflict, no submodule changed. Being behind keeps it pushed.
   */
  cleanAndPushed: boolean;
}

// A repository of many untracked files (an unignored node_modules) still answers within this.
const MAX_STATUS_BYTES = 256 * 1024 * 1024;
const GITLINK_MODE = '160000';

/** The local state of the repository `folder` is in; undefined when it is in no work tree. */
export async function readLocalState(
  folder: string,
  access: GitAccess = {},
): Promise<LocalState | undefined> {
  const root = await findRepositoryRoot(folder, access.runGit, access.signal);
  if (!root) return undefined;
  const git = gitIn(root, access.runGit, access.signal);
  const status = await git.ok(
    ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--find-renames'],
    { maxOutputBytes: MAX_STATUS_BYTES },
  );
  const parsed = parseStatus(status.stdout.toString('utf8'));
  const upstream = parsed.upstreamName
    ? await readUpstream(git, parsed.branch, parsed.upstreamName)
    : undefined;
  const submodules = await readSubmodules(git, parsed.changedSubmodules);
  const state: LocalState = {
    root,
    head: parsed.head,
    branch: parsed.branch,
    detached: parsed.detached,
    upstream,
    // Without an upstream commit git gives no counts: there is nothing to count against.
    ahead: upstream?.commit ? parsed.ahead : undefined,
    behind: upstream?.commit ? parsed.behind : undefined,
    staged: parsed.staged,
    unstaged: parsed.unstaged,
    untracked: parsed.untracked,
    unmerged: parsed.unmerged,
    submodules,
    cleanAndPushed: false,
  };
  state.cleanAndPushed =
    state.branch !== undefined &&
    state.head !== undefined &&
    upstream?.commit !== undefined &&
    state.ahead === 0 &&
    state.staged.length + state.unstaged.length + state.untracked.length + state.unmerged.length === 0 &&
    !submodules.some((submodule) => submodule.changed);
  return state;
}

interface ParsedStatus {
  head?: string;
  branch?: string;
  detached: boolean;
  upstreamName?: string;
  ahead: number;
  behind: number;
  staged: FileChange[];
  unstaged: FileChange[];
  untracked: string[];
  unmerged: string[];
  changedSubmodules: Set<string>;
}

const KINDS: Readonly<Record<string, FileChangeKind>> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type-changed',
};

/** `git status --porcelain=v2 -z --branch` read record by record (a rename's source is the next record). */
export function parseStatus(text: string): ParsedStatus {
  const parsed: ParsedStatus = {
    detached: false,
    ahead: 0,
    behind: 0,
    staged: [],
    unstaged: [],
    untracked: [],
    unmerged: [],
    changedSubmodules: new Set(),
  };
  const records = text.split('\0');
  for (let index = 0; index < records.length; index++) {
    const record = records[index] ?? '';
    if (record.startsWith('# ')) {
      readHeader(parsed, record.slice(2));
    } else if (record.startsWith('1 ') || record.startsWith('2 ')) {
      // `1 XY sub mH mI mW hH hI path`; a rename or copy adds a score field before the path.
      const fieldCount = record.startsWith('1 ') ? 8 : 9;
      const fields = splitFields(record, fieldCount);
      const from = record.startsWith('2 ') ? records[++index] : undefined;
      const [, xy = '..', sub = 'N...'] = fields;
      const path = fields[fieldCount] ?? '';
      if (sub.startsWith('S')) {
        // A submodule is its own repository: said in `submodules`, never a file change here.
        parsed.changedSubmodules.add(path);
        continue;
      }
      addChange(parsed.staged, xy[0], path, from);
      addChange(parsed.unstaged, xy[1], path, from);
    } else if (record.startsWith('u ')) {
      parsed.unmerged.push(splitFields(record, 10)[10] ?? '');
    } else if (record.startsWith('? ')) {
      parsed.untracked.push(record.slice(2));
    }
  }
  return parsed;
}

function readHeader(parsed: ParsedStatus, header: string): void {
  const space = header.indexOf(' ');
  const name = header.slice(0, space);
  const value = header.slice(space + 1);
  if (name === 'branch.oid' && value !== '(initial)') parsed.head = value;
  else if (name === 'branch.head') {
    if (value === '(detached)') parsed.detached = true;
    else parsed.branch = value;
  } else if (name === 'branch.upstream') parsed.upstreamName = value;
  else if (name === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value);
    parsed.ahead = Number(match?.[1] ?? 0);
    parsed.behind = Number(match?.[2] ?? 0);
  }
}

/** The first `count` space-separated fields, then the rest (a path, which may hold spaces) as one. */
function splitFields(record: string, count: number): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let field = 0; field < count; field++) {
    const space = record.indexOf(' ', start);
    if (space < 0) break;
    fields.push(record.slice(start, space));
    start = space + 1;
  }
  fields.push(record.slice(start));
  return fields;
}

function addChange(list: FileChange[], letter: string | undefined, path: string, from?: string): void {
  const kind = letter ? KINDS[letter] : undefined;
  if (!kind) return;
  list.push(kind === 'renamed' || kind === 'copied' ? { path, kind, from } : { path, kind });
}

async function readUpstream(git: Git, branch: string | undefined, name: string): Promise<Upstream> {
  const upstream: Upstream = { name };
  if (branch) {
    // Branch names hold no glob character (git refuses them), so the name matches only itself.
    const output = await git.run([
      'for-each-ref',
      '--format=%(upstream)%00%(upstream:remotename)%00%(upstream:remoteref)',
      `refs/heads/${branch}`,
    ]);
    const [ref, remote, remoteRef] = output.stdout.toString('utf8').replace(/\n$/, '').split('\0');
    if (remote) upstream.remote = remote;
    if (remoteRef?.startsWith('refs/heads/')) upstream.branch = remoteRef.slice('refs/heads/'.length);
    if (ref) {
      const commit = await git.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
      if (commit.exitCode === 0) upstream.commit = commit.stdout.toString('utf8').trim();
    }
  }
  return upstream;
}

/** Every gitlink of the index; `changed` from the status records of submodules. */
async function readSubmodules(git: Git, changed: ReadonlySet<string>): Promise<Submodule[]> {
  const output = await git.ok(['ls-files', '--stage', '-z'], { maxOutputBytes: MAX_STATUS_BYTES });
  const submodules: Submodule[] = [];
  for (const record of output.stdout.toString('utf8').split('\0')) {
    if (!record.startsWith(`${GITLINK_MODE} `)) continue;
    const tab = record.indexOf('\t');
    const path = record.slice(tab + 1);
    const commit = record.split(' ')[1] ?? '';
    submodules.push({ path, commit, changed: changed.has(path) });
  }
  return submodules;
}
