/**
 * The files a `git diff` patch touches, read from its headers alone: the list of changes when the
 * agent server's `/api/git/changes` cannot give one (1.34 fails with a 400 on a modified file whose
 * name holds a space). Renames read as the server reports them: the old path DELETED, the new ADDED.
 */
import type { GitChange } from './workspace';

/** A header line of one file's section. */
const DIFF_HEADER = 'diff --git ';

export function changesInPatch(patch: Buffer | string): GitChange[] {
  const text = typeof patch === 'string' ? patch : patch.toString('utf8');
  const changes: GitChange[] = [];
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!line.startsWith(DIFF_HEADER)) continue;
    let oldPath: string | undefined;
    let newPath: string | undefined;
    let added = false;
    let deleted = false;
    let renamedFrom: string | undefined;
    let renamedTo: string | undefined;
    // the section's extended headers, up to its first hunk, binary data or the next section
    for (let next = at + 1; next < lines.length; next++) {
      const header = lines[next] ?? '';
      if (header.startsWith(DIFF_HEADER) || header.startsWith('@@') || header.startsWith('GIT binary patch'))
        break;
      if (header.startsWith('new file mode')) added = true;
      else if (header.startsWith('deleted file mode')) deleted = true;
      else if (header.startsWith('rename from ')) renamedFrom = unquote(header.slice('rename from '.length));
      else if (header.startsWith('rename to ')) renamedTo = unquote(header.slice('rename to '.length));
      else if (header.startsWith('--- ')) oldPath = stripSide(unquote(header.slice(4)), 'a/');
      else if (header.startsWith('+++ ')) newPath = stripSide(unquote(header.slice(4)), 'b/');
    }
    if (renamedFrom !== undefined && renamedTo !== undefined) {
      changes.push({ status: 'DELETED', path: renamedFrom }, { status: 'ADDED', path: renamedTo });
      continue;
    }
    const path =
      (deleted ? oldPath : newPath) ?? oldPath ?? newPath ?? sameSidesPath(line.slice(DIFF_HEADER.length));
    if (!path) continue;
    changes.push({ status: added ? 'ADDED' : deleted ? 'DELETED' : 'UPDATED', path });
  }
  return changes;
}

/** `a/<path>` → `<path>`; `/dev/null` (the side of an added or deleted file) → undefined. */
function stripSide(path: string, prefix: string): string | undefined {
  if (path === '/dev/null') return undefined;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/**
 * `a/<p> b/<p>` when both sides name the same path (a binary or mode-only change has no `---` line):
 * split where the halves agree, which a space in the name cannot fool.
 */
function sameSidesPath(sides: string): string | undefined {
  if (sides.startsWith('"')) {
    const [left, right] = quotedPair(sides);
    return left && right && left.slice(2) === right.slice(2) ? left.slice(2) : undefined;
  }
  const half = (sides.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const left = sides.slice(0, half);
  const right = sides.slice(half + 1);
  return left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2)
    ? left.slice(2)
    : undefined;
}

function quotedPair(sides: string): [string | undefined, string | undefined] {
  const end = closingQuote(sides);
  if (end < 0) return [undefined, undefined];
  const rest = sides.slice(end + 2);
  return [unquote(sides.slice(0, end + 1)), unquote(rest)];
}

function closingQuote(text: string): number {
  for (let at = 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Git quotes a path with special characters C-style, its non-ASCII bytes as octal escapes. */
export function unquote(path: string): string {
  const trimmed = path.replace(/\t$/, '');
  if (!trimmed.startsWith('"') || !trimmed.endsWith('"') || trimmed.length < 2) return trimmed;
  const bytes: number[] = [];
  const body = trimmed.slice(1, -1);
  for (let at = 0; at < body.length; at++) {
    const char = body[at] ?? '';
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = body[at + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(at + 1, at + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      at += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      at += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
