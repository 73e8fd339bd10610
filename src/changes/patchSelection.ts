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

// Windows caps a whole command line at 32767 characters; leave room for the rest of the command.
const MAX_ARGUMENT_CHARS = 24_000;

/**
 * The pathspec for one git call about `paths`: the paths themselves when they fit on a command line,
 * else none (the whole repository; the caller keeps what it asked about). One call, however many.
 */
export function pathspecFor(paths: readonly string[]): readonly string[] {
  let length = 0;
  for (const path of paths) {
    length += path.length + 1;
    if (length > MAX_ARGUMENT_CHARS) return [];
  }
  return paths;
}
