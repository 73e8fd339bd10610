import { gitIn, stderrLines, type Git, type GitAccess } from './git';
import { findRepositoryRoot } from './localRepository';
import {
  MARKER_MIN_REST,
  readPatchSections,
  sectionPath,
  type PatchReading,
  type PatchSection,
} from './patchSections';

export type PatchFileStatus = 'added' | 'deleted' | 'modified' | 'renamed';

/** One file a patch changes, as git reads the patch. */
export interface PatchFile {
  /** The path after the change (the old one for a deletion), relative to the repository root, `/`-separated. */
  path: string;
  /** A rename's path before the change. */
  oldPath?: string;
  status: PatchFileStatus;
  binary: boolean;
  /** The modes the patch states (0o100644, 0o100755, 0o120000 a link): what can run is judged by them. */
  oldMode?: number;
  newMode?: number;
}

/** A patch read twice, by our reader and by git, which agree: its files and their sections, index for index. */
export interface ReadPatch {
  patch: Buffer;
  reading: PatchReading;
  files: PatchFile[];
}

/** The files `patch` changes, in the patch's order (a type change, file to symlink, is a deletion then an addition). */
export async function filesInPatch(
  folder: string,
  patch: Buffer,
  access: GitAccess = {},
): Promise<PatchFile[]> {
  // From a subfolder git apply leaves out the paths outside it: read the patch at the root.
  const root = (await findRepositoryRoot(folder, access.runGit, access.signal)) ?? folder;
  return (await readPatch(gitIn(root, access.runGit, access.signal), patch)).files;
}

/**
 * Reads `patch` section by section, then asks git (`apply --numstat` of those sections alone) which
 * files it sees: a patch git reads as other files than ours, or as more or fewer, is one problem of the
 * whole patch, and nothing of it is applied.
 */
export async function readPatch(git: Git, patch: Buffer): Promise<ReadPatch> {
  const reading = readPatchSections(patch);
  const files = reading.sections.map(fileOf);
  if (reading.sections.length === 0) {
    if (patch.toString('latin1').trim() !== '' && reading.problems.length === 0) {
      reading.problems.push('it holds no file git would apply');
    }
    return { patch, reading, files };
  }
  const numstat = await git.run(['apply', '--numstat', '-z'], {
    input: sectionsPatch(patch, reading.sections),
  });
  if (numstat.exitCode !== 0) {
    const reason = stderrLines(numstat.stderr, 1)[0]?.replace(/^(error|fatal):\s*/, '') ?? 'no reason given';
    reading.problems.push(`git cannot read it (${reason.slice(0, 200)})`);
    return { patch, reading, files };
  }
  const seen = parseNumstat(numstat.stdout.toString('utf8'));
  const agrees =
    seen.length === files.length && seen.every((entry, index) => entry.path === files[index]?.path);
  if (!agrees) {
    reading.problems.push(
      `git reads it as other files than the check did (${seen.length} against ${files.length})`,
    );
    return { patch, reading, files };
  }
  seen.forEach((entry, index) => {
    const file = files[index];
    if (file) file.binary = entry.binary;
  });
  return { patch, reading, files };
}

/** The bytes of `sections` alone, in order: all git is given of a patch. */
export function sectionsPatch(patch: Buffer, sections: readonly PatchSection[]): Buffer {
  const parts: Buffer[] = [];
  for (const section of sections) {
    const bytes = patch.subarray(section.start, section.end);
    parts.push(bytes);
    // Only the last line of a patch may lack its newline; joined, it must not run into the next.
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) parts.push(Buffer.from('\n'));
  }
  const joined = Buffer.concat(parts);
  // A hunk's closing `\ ` line counts only when more than 12 bytes of the patch remain from its start
  // (our reader saw the rest of the patch): blank lines after it, which git skips, keep it counted.
  const lastLine = joined.lastIndexOf(0x0a, joined.length - 2) + 1;
  const rest = joined.length - lastLine;
  if (joined.subarray(lastLine, lastLine + 2).toString('latin1') === '\\ ' && rest <= MARKER_MIN_REST) {
    return Buffer.concat([joined, Buffer.alloc(MARKER_MIN_REST + 1 - rest, 0x0a)]);
  }
  return joined;
}

function fileOf(section: PatchSection): PatchFile {
  return { ...fileKind(section), ...modesOf(section) };
}

function fileKind(section: PatchSection): PatchFile {
  const path = sectionPath(section);
  if (section.deleted) return { path, status: 'deleted', binary: section.binary };
  // A copy leaves its source alone: for this change it is a new file.
  if (section.created || section.move === 'copy') return { path, status: 'added', binary: section.binary };
  if (section.move === 'rename' && section.oldPath !== undefined) {
    return { path, oldPath: section.oldPath, status: 'renamed', binary: section.binary };
  }
  return { path, status: 'modified', binary: section.binary };
}

function modesOf(section: PatchSection): Pick<PatchFile, 'oldMode' | 'newMode'> {
  // a copy's source mode is not this file's old one: the file is new here
  const oldMode = section.move === 'copy' ? undefined : section.oldMode;
  return {
    ...(oldMode === undefined ? {} : { oldMode }),
    ...(section.newMode === undefined ? {} : { newMode: section.newMode }),
  };
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
