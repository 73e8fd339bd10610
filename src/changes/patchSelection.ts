import type { PatchFile } from './patchFiles';

/** Which of a patch's files to take. A rename is named by either of its paths. */
export interface FileSelection {
  only?: readonly string[];
  skip?: readonly string[];
}

export function isSelected(file: PatchFile, selection: FileSelection): boolean {
  const names = file.oldPath === undefined ? [file.path] : [file.path, file.oldPath];
  if (selection.only && !names.some((name) => selection.only?.includes(name))) return false;
  return !names.some((name) => selection.skip?.includes(name));
}

/** Every path the files change: both sides of a rename, each once. */
export function touchedPaths(files: readonly PatchFile[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    if (file.oldPath !== undefined) paths.add(file.oldPath);
    paths.add(file.path);
  }
  return [...paths];
}

/** git apply matches --include/--exclude as wildmatch patterns: a path is taken literally only escaped. */
export function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]]/g, '\\$&');
}

// Windows caps a whole command line at 32767 characters; leave room for the rest of the command.
const MAX_ARGUMENT_CHARS = 24_000;

/** `items` in runs whose joined length stays under the command-line budget. */
export function chunkByLength(items: readonly string[], maxChars = MAX_ARGUMENT_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = 0;
  for (const item of items) {
    if (chunk.length > 0 && length + item.length + 1 > maxChars) {
      chunks.push(chunk);
      chunk = [];
      length = 0;
    }
    chunk.push(item);
    length += item.length + 1;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * The --include/--exclude arguments for the git apply calls that together take `group` out of `all`:
 * one call with no limit for everything, one with the fewer excludes, or as many include runs as the
 * command line needs. git matches a rename by its new path.
 */
export function limitArguments(group: readonly PatchFile[], all: readonly PatchFile[]): string[][] {
  const taken = new Set(group.map((file) => file.path));
  const left = [...new Set(all.map((file) => file.path).filter((path) => !taken.has(path)))];
  if (left.length === 0) return [[]];
  const includes = [...taken].map((path) => `--include=${escapeGlob(path)}`);
  const excludes = left.map((path) => `--exclude=${escapeGlob(path)}`);
  const excludeRuns = chunkByLength(excludes);
  // Excludes work only all in one call: split, each call would take what the others leave out.
  if (excludes.length < includes.length && excludeRuns.length === 1) return excludeRuns;
  return chunkByLength(includes);
}
