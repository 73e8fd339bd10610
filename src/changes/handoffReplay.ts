import type { HandedUntrackedFile, HandoffManifest, PartName } from './handoffManifest';

/**
 * The commands a sandbox runs to rebuild the user's work tree from a hand-off: a pure description, run
 * later by the caller through the agent server's `execute_bash_command` (`/bin/sh -c`, so POSIX sh only).
 * Every text that came from the user (a path, a branch) or the caller (a folder) is single-quoted whole.
 */

export interface ReplayPlaces {
  /**
   * The sandbox's working copy, absolute. `commits`: the clone of the upstream the server made.
   * `archive`: a folder of its own (made when missing), not the agent server's working folder.
   */
  workingCopy: string;
  /** Where the caller uploaded the parts, each under its name; absolute and outside the working copy. */
  partsFolder: string;
}

export interface ReplayStep {
  /** What it does, in words (for a log or a failure). */
  purpose: string;
  /** One sh command, run in the working copy. */
  command: string;
}

// Fixed, so the record commit of an archive hand-off is made in any sandbox, whatever its git config.
const SANDBOX_IDENTITY =
  "-c user.name='OpenHands hand-off' -c user.email=openhands@localhost -c commit.gpgsign=false";

/** `text` as one sh word, whatever it holds: single quotes, with each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  if (text.includes('\0')) throw new Error('A shell word cannot hold a NUL character.');
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The steps, in order, that rebuild the handed-over tree in `places.workingCopy`. */
export function replaySteps(manifest: HandoffManifest, places: ReplayPlaces): ReplayStep[] {
  const part = (name: PartName) => shellQuote(`${places.partsFolder.replace(/\/+$/, '')}/${name}`);
  const has = (name: PartName) => manifest.parts.some((handed) => handed.name === name);
  const head = shellQuote(manifest.head);
  const steps: ReplayStep[] = [];
  if (manifest.kind === 'commits') {
    const base = shellQuote(manifest.base ?? manifest.head);
    steps.push({
      purpose: 'have the base commit (a shallow clone may lack it when the remote moved on)',
      command:
        `git cat-file -e ${shellQuote(`${manifest.base ?? manifest.head}^{commit}`)} 2>/dev/null || ` +
        `if [ "$(git rev-parse --is-shallow-repository)" = true ]; then git fetch --quiet --depth=1 origin ${base}; ` +
        `else git fetch --quiet origin ${base}; fi`,
    });
    if (has('commits.bundle')) {
      steps.push({
        purpose: `fetch the ${manifest.commitCount} commits ahead from the bundle`,
        command: `git fetch --quiet ${part('commits.bundle')} HEAD && test "$(git rev-parse FETCH_HEAD)" = ${head}`,
      });
    }
    steps.push({
      purpose: 'check out the user’s HEAD',
      command:
        manifest.branch === undefined
          ? `git checkout --quiet --detach ${head}`
          : `git checkout --quiet -B ${shellQuote(manifest.branch)} ${head}`,
    });
  } else {
    const onBranch =
      manifest.branch === undefined
        ? ''
        : ` && git symbolic-ref HEAD ${shellQuote(`refs/heads/${manifest.branch}`)}`;
    // A tar holds a submodule as an empty folder: its recorded commit goes into the index by hand.
    const gitlinks = manifest.submodules
      .map(
        (submodule) =>
          ` && git update-index --add --cacheinfo 160000 ${shellQuote(submodule.commit)} ${shellQuote(submodule.path)}`,
      )
      .join('');
    steps.push({
      purpose: 'unpack the tracked files at the user’s HEAD and commit them',
      command:
        `git init --quiet${onBranch} && tar -xf ${part('head.tar')} && git add --all --force${gitlinks} && ` +
        `git ${SANDBOX_IDENTITY} commit --quiet --no-verify --allow-empty -m ${shellQuote(`Your HEAD, ${manifest.head}`)}`,
    });
  }
  if (has('staged.patch')) {
    steps.push({
      purpose: 'apply the staged edits to the index and the files',
      command: `git apply --index --whitespace=nowarn -- ${part('staged.patch')}`,
    });
  }
  if (has('unstaged.patch')) {
    steps.push({
      purpose: 'apply the unstaged edits to the files',
      command: `git apply --whitespace=nowarn -- ${part('unstaged.patch')}`,
    });
  }
  for (const file of manifest.untracked) {
    steps.push({
      purpose: `write the untracked file ${file.path}`,
      command: writeUntracked(file, part(file.part)),
    });
  }
  return steps;
}

function writeUntracked(file: HandedUntrackedFile, partPath: string): string {
  const slash = file.path.lastIndexOf('/');
  const folder = slash > 0 ? `mkdir -p -- ${shellQuote(file.path.slice(0, slash))} && ` : '';
  const path = shellQuote(file.path);
  if (file.type === 'link') return `${folder}ln -s -- "$(cat -- ${partPath})" ${path}`;
  // cp makes the file with the sandbox's umask: the mode git records is set after.
  const mode = file.type === 'executable' ? '0755' : '0644';
  return `${folder}cp -- ${partPath} ${path} && chmod ${mode} -- ${path}`;
}

/** The steps as one sh script: stops at the first failure, every step in the working copy. */
export function replayScript(manifest: HandoffManifest, places: ReplayPlaces): string {
  const lines = ['set -e'];
  if (manifest.kind === 'archive') lines.push(`mkdir -p -- ${shellQuote(places.workingCopy)}`);
  lines.push(`cd -- ${shellQuote(places.workingCopy)}`);
  for (const step of replaySteps(manifest, places)) lines.push(step.command);
  return `${lines.join('\n')}\n`;
}

/**
 * Run in the working copy after the replay: prints `tree <id>` (the id git gives HEAD plus every file
 * there now, ignored files aside), then each file's mode, blob hash and path (`git ls-files --stage -z`),
 * all from a scratch index, so neither the sandbox's index nor its files change. The tree id equals the
 * manifest's `handedOver.tree` when the sandbox holds exactly what was handed over.
 */
export const VERIFY_COMMAND =
  '( scratch="$(mktemp -d)" && trap \'rm -rf -- "$scratch"\' EXIT && export GIT_INDEX_FILE="$scratch/index" && ' +
  'git read-tree HEAD && git add --all && printf \'tree %s\\n\' "$(git write-tree)" && git ls-files --stage -z )';

/** Where the sandbox keeps its commit of the handed-over tree, so git never prunes it while the agent works. */
export const HANDED_OVER_REF = 'refs/openhands/handed-over';

/**
 * Run in the working copy once the verify step wrote `tree` there: a commit of it on top of HEAD, kept
 * under `HANDED_OVER_REF`; prints `commit <id>`. The agent server's git routes take only a commit as
 * their base (`rev-parse <ref>^{commit}`), so this commit is what Apply and the Changes list diff
 * against: the patch then holds the agent's work alone, not the user's handed edits.
 */
export function recordCommand(tree: string): string {
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new Error('A tree id is 40 or 64 hexadecimal digits.');
  return (
    `commit="$(printf 'OpenHands hand-off\\n' | git ${SANDBOX_IDENTITY} commit-tree ${tree} -p HEAD)" && ` +
    `git update-ref ${HANDED_OVER_REF} "$commit" && printf 'commit %s\\n' "$commit"`
  );
}

/** The commit `recordCommand` printed; undefined when it printed something else. */
export function parseRecordOutput(stdout: string): string | undefined {
  return /^commit ([0-9a-f]{40,64})\n?$/.exec(stdout)?.[1];
}

export interface VerifiedFile {
  mode: string;
  blob: string;
  path: string;
}

/** What `VERIFY_COMMAND` printed; undefined when it is not that. */
export function parseVerifyOutput(stdout: string): { tree: string; files: VerifiedFile[] } | undefined {
  const match = /^tree ([0-9a-f]{40,64})\n/.exec(stdout);
  if (!match?.[1]) return undefined;
  const files: VerifiedFile[] = [];
  for (const record of stdout.slice(match[0].length).split('\0')) {
    if (record === '') continue;
    const entry = /^(\d{6}) ([0-9a-f]{40,64}) \d\t(.*)$/s.exec(record);
    if (!entry?.[1] || !entry[2] || entry[3] === undefined) return undefined;
    files.push({ mode: entry[1], blob: entry[2], path: entry[3] });
  }
  return { tree: match[1], files };
}
