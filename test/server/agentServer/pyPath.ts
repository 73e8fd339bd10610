// `pathlib.Path` checks the agent server's routes make, with Python's answers: `resolve()` follows the
// symbolic links of the part that exists and keeps the rest as written; `exists()`, `is_file()` and
// `is_dir()` follow links and say false on any error.
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

export function pyResolve(absolute: string): string {
  let current = path.parse(absolute).root;
  for (const part of absolute.split(path.sep)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    try {
      current = realpathSync(next);
    } catch {
      current = next;
    }
  }
  return current;
}

export function pyStat(target: string): Stats | null {
  try {
    return statSync(target);
  } catch {
    return null;
  }
}

export const pyExists = (target: string): boolean => pyStat(target) !== null;
export const pyIsFile = (target: string): boolean => pyStat(target)?.isFile() ?? false;
export const pyIsDir = (target: string): boolean => pyStat(target)?.isDirectory() ?? false;
