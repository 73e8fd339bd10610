import { lstat, open, readlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { HandoffRefusedError, sizeText } from './handoffManifest';
import type { LocalState } from './localState';
import { linkTargetProblem, parentFolders, pathProblem } from './pathRules';

/** An untracked file the user ticked, checked: its bytes (a link: its target) and how git would record it. */
export interface TickedFile {
  path: string;
  type: 'file' | 'executable' | 'link';
  content: Buffer;
}

/**
 * The ticked files, read. Only a path `git status` lists as untracked may go (so never an ignored file,
 * nothing outside the repository or inside .git); never through a link, and a link only to a place in
 * the repository. Refused with the file's name when one is not such a file or would pass `maxBytes`.
 */
export async function readTickedFiles(
  state: LocalState,
  ticked: readonly string[],
  maxBytes: number,
): Promise<TickedFile[]> {
  const untracked = new Set(state.untracked);
  const submodules = state.submodules.map((submodule) => `${submodule.path}/`);
  const files: TickedFile[] = [];
  let total = 0;
  for (const path of new Set(ticked)) {
    const problem = pathProblem(path);
    if (problem) throw new HandoffRefusedError('unsafe-path', `${path} cannot be sent: ${problem}.`, path);
    if (!untracked.has(path) || submodules.some((folder) => path.startsWith(folder))) {
      throw new HandoffRefusedError(
        'not-untracked',
        `${path} is not an untracked file of this repository: only files git lists as untracked are sent (never an ignored one).`,
        path,
      );
    }
    const file = await readTicked(state.root, path, { maxBytes, used: total });
    total += file.content.length;
    files.push(file);
  }
  return files;
}

interface Budget {
  maxBytes: number;
  used: number;
}

async function readTicked(root: string, path: string, budget: Budget): Promise<TickedFile> {
  const left = budget.maxBytes - budget.used;
  // The file may have changed since git looked: a folder above it that is now a link would lead elsewhere.
  for (const folder of parentFolders(path)) {
    const entry = await lstat(join(root, ...folder.split('/'))).catch(() => undefined);
    if (!entry?.isDirectory()) {
      throw new HandoffRefusedError(
        'unsafe-path',
        `${path} cannot be sent: ${folder} is not a folder.`,
        path,
      );
    }
  }
  const absolute = join(root, ...path.split('/'));
  const entry = await lstat(absolute).catch(() => undefined);
  if (entry?.isSymbolicLink()) {
    const target = await readlink(absolute);
    const problem = linkTargetProblem(path, target);
    if (problem) throw new HandoffRefusedError('unsafe-path', `${path} cannot be sent: ${problem}.`, path);
    return { path, type: 'link', content: Buffer.from(target, 'utf8') };
  }
  if (!entry?.isFile()) {
    throw new HandoffRefusedError('not-untracked', `${path} is no longer a file: it cannot be sent.`, path);
  }
  if (entry.size > left) throw tooBig(path, entry.size, budget);
  // O_NOFOLLOW: a link swapped in since the lstat is refused, not read through.
  const handle = await open(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const content = await handle.readFile();
    if (content.length > left) throw tooBig(path, content.length, budget);
    // git records a file as executable by its owner's execute bit.
    const type = (entry.mode & 0o100) !== 0 ? 'executable' : 'file';
    return { path, type, content };
  } finally {
    await handle.close();
  }
}

function tooBig(path: string, size: number, budget: Budget): HandoffRefusedError {
  const taken = budget.used > 0 ? ` and the files before it take ${sizeText(budget.used)}` : '';
  return new HandoffRefusedError(
    'too-big',
    `${path} is ${sizeText(size)}: a hand-off holds at most ${sizeText(budget.maxBytes)}${taken}. Untick it, or commit and push it.`,
    path,
  );
}
