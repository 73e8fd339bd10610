import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Git } from './git';
import { foldName, linkTargetProblem, parentFolders, pathProblem, resolveLinkTarget } from './pathRules';
import { LINK_MODE, sectionPath, type PatchReading, type PatchSection } from './patchSections';

/** A file of the change that may not be applied, and why, in words a user reads. */
export interface RefusedPath {
  path: string;
  reason: string;
}

/** What the checks found: nothing of the patch may be applied while `patch` holds a problem. */
export interface PatchVerdict {
  /** Problems of the patch as a whole. */
  patch: string[];
  /** Per section (by its index in the reading), why it may not be applied. */
  sections: Map<number, string[]>;
}

/** Every refusal of `verdict` as a path and a reason, the patch's own first. */
export function refusedPaths(verdict: PatchVerdict, reading: PatchReading): RefusedPath[] {
  const refused: RefusedPath[] = verdict.patch.map((reason) => ({ path: '', reason }));
  for (const [index, reasons] of verdict.sections) {
    const section = reading.sections[index];
    if (section) refused.push({ path: sectionPath(section), reason: reasons.join('; ') });
  }
  return refused;
}

/** The links a local repository holds: in the working tree (read as asked) and in the index. */
export interface LocalLinks {
  /** Whether `path` (relative, `/`-separated) is a symlink in the working tree or the index. */
  isLink(path: string): Promise<boolean>;
  /** A link's target, or a small file's text (a file a patch turns into a link); undefined otherwise. */
  currentTarget(path: string): Promise<string | undefined>;
}

/**
 * Checks a patch by its text alone: every path it names is relative, normalised and outside `.git`;
 * none is under a link the same patch makes; every link it makes stays in the repository. `local`, when
 * given, adds the repository's own links (tree and index) and what a renamed or re-moded link points at.
 */
export async function checkPatch(reading: PatchReading, local?: LocalLinks): Promise<PatchVerdict> {
  const verdict: PatchVerdict = { patch: [...reading.problems], sections: new Map() };
  const refuse = (index: number, reason: string) => {
    const reasons = verdict.sections.get(index) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    verdict.sections.set(index, reasons);
  };
  const madeLinks = new Map<string, string>();
  const linkAfter = await Promise.all(reading.sections.map((section) => isLinkAfter(section, local)));
  reading.sections.forEach((section, index) => {
    if (linkAfter[index] && section.newPath !== undefined)
      madeLinks.set(foldName(section.newPath), section.newPath);
  });
  /** The first of `paths` that is a link (made by the patch, or in the repository), described. */
  const firstLink = async (paths: readonly string[]): Promise<string | undefined> => {
    for (const path of paths) {
      const made = madeLinks.get(foldName(path));
      if (made !== undefined) return `${made}, a link the same change makes`;
      if (await local?.isLink(path)) return `${path}, a link in your repository`;
    }
    return undefined;
  };

  for (const [index, section] of reading.sections.entries()) {
    for (const name of section.names) {
      const problem = pathProblem(name);
      if (problem) {
        refuse(index, `${name}: ${problem}`);
        continue;
      }
      const above = await firstLink(parentFolders(name));
      if (above) refuse(index, `${name}: it is under ${above} (writing there would write where it points)`);
    }
    if (!linkAfter[index] || section.newPath === undefined || pathProblem(section.newPath)) continue;
    const target = await linkTarget(section, local);
    if (typeof target !== 'string') {
      refuse(index, `${section.newPath}: ${target.problem}`);
      continue;
    }
    const problem = linkTargetProblem(section.newPath, target);
    if (problem) {
      refuse(index, `${section.newPath}: ${problem}`);
      continue;
    }
    // A link to another link, or to a path under one, points wherever that one does.
    const resolved = (resolveLinkTarget(section.newPath, target) ?? []).join('/');
    const through = resolved === '' ? undefined : await firstLink([...parentFolders(resolved), resolved]);
    if (through) refuse(index, `${section.newPath}: a link to “${target}”, and that is under ${through}`);
  }
  return verdict;
}

async function isLinkAfter(section: PatchSection, local: LocalLinks | undefined): Promise<boolean> {
  if (section.deleted) return false;
  if (section.newMode !== undefined) return section.newMode === LINK_MODE;
  // No mode given: git keeps the old file's type, which only the repository knows.
  if (section.oldMode !== undefined) return section.oldMode === LINK_MODE;
  const source = section.oldPath;
  return source !== undefined && pathProblem(source) === undefined && (await local?.isLink(source)) === true;
}

/** The target a link gets from the section: its one new line, or (no hunk) what the old path holds now. */
async function linkTarget(
  section: PatchSection,
  local: LocalLinks | undefined,
): Promise<string | { problem: string }> {
  if (section.binary) return { problem: 'a link given as binary data, whose target cannot be checked' };
  if (section.hunks > 0) {
    if (section.newSide?.length !== 1 || section.newSide[0] === undefined) {
      return { problem: 'a link whose target is not one line' };
    }
    return section.newSide[0];
  }
  const source = section.oldPath;
  const current =
    source === undefined || pathProblem(source) ? undefined : await local?.currentTarget(source);
  return current ?? { problem: 'a link whose target the patch does not show' };
}

// A file turned into a link by a mode change alone keeps its bytes as the target: read no more than this.
const MAX_TARGET_BYTES = 4096;

/** The links of the repository at `git.cwd`: its index's (one `ls-files` call) and its tree's (lstat). */
export async function localLinks(git: Git): Promise<LocalLinks> {
  const indexed = await git.ok(['ls-files', '-s', '-z'], { maxOutputBytes: 512 * 1024 * 1024 });
  const indexLinks = new Set<string>();
  for (const record of indexed.stdout.toString('utf8').split('\0')) {
    if (record.startsWith('120000 ')) indexLinks.add(foldName(record.slice(record.indexOf('\t') + 1)));
  }
  const treeLinks = new Map<string, Promise<boolean>>();
  const inTree = (path: string) => {
    let known = treeLinks.get(path);
    if (!known) {
      known = lstat(join(git.cwd, ...path.split('/'))).then(
        (entry) => entry.isSymbolicLink(),
        () => false,
      );
      treeLinks.set(path, known);
    }
    return known;
  };
  const underLink = async (path: string) => {
    for (const folder of parentFolders(path)) if (await inTree(folder)) return true;
    return false;
  };
  return {
    // Folded: on a case-insensitive file system `D` in the index is the folder `d/` of a path.
    isLink: async (path) => indexLinks.has(foldName(path)) || (await inTree(path)),
    async currentTarget(path) {
      // Never read through a link above it.
      if (await underLink(path)) return undefined;
      const absolute = join(git.cwd, ...path.split('/'));
      const entry = await lstat(absolute).catch(() => undefined);
      if (entry?.isSymbolicLink()) return readlink(absolute);
      if (!entry?.isFile() || entry.size > MAX_TARGET_BYTES) return undefined;
      return (await readFile(absolute)).toString('utf8');
    },
  };
}
