/**
 * A git patch read the way `git apply` reads it (apply.c: find_header, parse_git_diff_header,
 * parse_fragment, parse_binary), section by section, with every name each section gives. The sections'
 * bytes are all git is ever given: whatever lies between them (text git skips) is dropped, and a patch
 * whose reading is in doubt is refused whole rather than guessed at.
 */

/** One file's part of the patch. */
export interface PatchSection {
  /** Where its bytes are in the patch: `patch.subarray(start, end)` is the section whole. */
  start: number;
  end: number;
  /** Every path the section names (the `diff --git` line's, `---`/`+++`, rename and copy lines), decoded. */
  names: string[];
  /** The path before the change; none for a new file. */
  oldPath?: string;
  /** The path after the change; none for a deletion. */
  newPath?: string;
  move?: 'rename' | 'copy';
  created: boolean;
  deleted: boolean;
  /** The file modes the section states (`old mode`, `new mode`, `new file mode`, `deleted file mode`, `index`). */
  oldMode?: number;
  newMode?: number;
  binary: boolean;
  hunks: number;
  /** The lines of the hunks' new side, for a symlink's target (a link is one line); none when over a few. */
  newSide?: string[];
}

export interface PatchReading {
  sections: PatchSection[];
  /** Why the patch as a whole cannot be trusted to mean what it seems to; empty when it reads cleanly. */
  problems: string[];
}

/**
 * The name a section goes by, as git names it in its messages and `--numstat`: its path after the
 * change, or before it for a deletion.
 */
export function sectionPath(section: PatchSection): string {
  return section.newPath ?? section.oldPath ?? section.names[0] ?? '';
}

export const LINK_MODE = 0o120000;
const DEV_NULL = '/dev/null';
// A link's target is one line; anything longer is not read as one.
const MAX_NEW_SIDE_LINES = 4;
const MAX_PROBLEMS = 20;
/** git takes a `\ No newline` line after a hunk only when more bytes than this remain from its start. */
export const MARKER_MIN_REST = 12;
// A binary hunk's first line, as git's parse_binary_hunk tells it (the size after it is read by strtoul).
const BINARY_HUNK = /^(literal|delta) /;
// A hunk's header as git's parse_fragment_header reads it; what follows the second `@@` is free text.
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

interface Line {
  start: number;
  /** After the newline, or the end of the text. */
  end: number;
  /** Without its newline. */
  body: string;
  complete: boolean;
}

function lineAt(text: string, at: number): Line {
  const newline = text.indexOf('\n', at);
  if (newline < 0) return { start: at, end: text.length, body: text.slice(at), complete: false };
  return { start: at, end: newline + 1, body: text.slice(at, newline), complete: true };
}

/** Reads `patch`'s sections; never throws. */
export function readPatchSections(patch: Buffer): PatchReading {
  // latin1: one character per byte, so offsets are byte offsets and names keep their bytes until decoded.
  const text = patch.toString('latin1');
  const sections: PatchSection[] = [];
  const problems: string[] = [];
  const complain = (problem: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  let at = 0;
  let lineNumber = 1;
  while (at < text.length) {
    const line = lineAt(text, at);
    if (line.body.startsWith('diff --git ')) {
      const section = readGitSection(text, line, complain, lineNumber);
      if (section) {
        sections.push(section);
        lineNumber += countLines(text, at, section.end);
        at = section.end;
        continue;
      }
    } else if (line.body.startsWith('--- ')) {
      const next = lineAt(text, line.end);
      if (next.body.startsWith('+++ ') && lineAt(text, next.end).body.startsWith('@@ -')) {
        complain(`line ${lineNumber} starts a file that is not in git's own patch format`);
      }
    } else if (line.complete && HUNK_HEADER.test(line.body)) {
      // Only a line git reads as a hunk header (find_header); git skips any other `@@ -` line.
      complain(`line ${lineNumber} holds a hunk outside any file`);
    }
    at = line.end;
    lineNumber++;
  }
  return { sections, problems };
}

function countLines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

interface HeaderState {
  names: string[];
  defaultName?: string;
  minus?: string;
  minusNull: boolean;
  plus?: string;
  plusNull: boolean;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  oldMode?: number;
  newMode?: number;
  newFileMode?: number;
  deletedFileMode?: number;
  indexMode?: number;
}

type HeaderLine = (state: HeaderState, rest: string) => string | undefined;

// git's table of extended header lines, in its order; the first line that is none of them ends the header.
const HEADER_LINES: readonly (readonly [string, HeaderLine])[] = [
  ['--- ', (state, rest) => takeName(rest, 'tab', true, state, 'minus')],
  ['+++ ', (state, rest) => takeName(rest, 'tab', true, state, 'plus')],
  ['old mode ', (state, rest) => takeMode(rest, (mode) => (state.oldMode = mode))],
  ['new mode ', (state, rest) => takeMode(rest, (mode) => (state.newMode = mode))],
  ['deleted file mode ', (state, rest) => takeMode(rest, (mode) => (state.deletedFileMode = mode))],
  ['new file mode ', (state, rest) => takeMode(rest, (mode) => (state.newFileMode = mode))],
  ['copy from ', (state, rest) => takeName(rest, 'none', false, state, 'copyFrom')],
  ['copy to ', (state, rest) => takeName(rest, 'none', false, state, 'copyTo')],
  ['rename old ', (state, rest) => takeName(rest, 'none', false, state, 'renameFrom')],
  ['rename new ', (state, rest) => takeName(rest, 'none', false, state, 'renameTo')],
  ['rename from ', (state, rest) => takeName(rest, 'none', false, state, 'renameFrom')],
  ['rename to ', (state, rest) => takeName(rest, 'none', false, state, 'renameTo')],
  ['similarity index ', () => undefined],
  ['dissimilarity index ', () => undefined],
  ['index ', (state, rest) => takeIndexMode(rest, state)],
];

function readGitSection(
  text: string,
  first: Line,
  complain: (problem: string) => void,
  lineNumber: number,
): PatchSection | undefined {
  const state: HeaderState = { names: [], minusNull: false, plusNull: false };
  const headerProblem = readHeaderNames(first.body.slice('diff --git '.length), state);
  let at = first.end;
  let headerLines = 0;
  const problems: string[] = headerProblem ? [headerProblem] : [];
  for (;;) {
    const line = lineAt(text, at);
    if (!line.complete || line.body.startsWith('@@ -')) break;
    const entry = HEADER_LINES.find(([prefix]) => line.body.startsWith(prefix));
    if (!entry) break;
    const problem = entry[1](state, line.body.slice(entry[0].length));
    if (problem) problems.push(problem);
    headerLines++;
    at = line.end;
  }
  // A `diff --git` line with nothing after it is text to git, not a file.
  if (headerLines === 0) return undefined;

  // A link's target is a few lines at most: only that many are kept, however long the hunks.
  const newSide: string[] = [];
  let hunks = 0;
  while (lineAt(text, at).body.startsWith('@@ -')) {
    const hunk = readHunk(text, at);
    if (typeof hunk === 'string') {
      problems.push(hunk);
      break;
    }
    hunks++;
    at = hunk.end;
    for (const line of hunk.newSide) if (newSide.length <= MAX_NEW_SIDE_LINES) newSide.push(line);
  }
  let binary = false;
  if (hunks === 0) {
    const line = lineAt(text, at);
    if (line.body === 'GIT binary patch' && line.complete) {
      binary = true;
      const end = readBinary(text, line.end);
      if (end === undefined) problems.push('its binary data is cut short');
      else at = end;
    } else if (
      line.complete &&
      line.body.endsWith(' differ') &&
      (line.body.startsWith('Binary files ') || line.body.startsWith('Files '))
    ) {
      binary = true;
      at = line.end;
    }
  }

  const section = sectionOf(state, first.start, at, { binary, hunks });
  if (newSide.length <= MAX_NEW_SIDE_LINES && hunks > 0) section.newSide = newSide;
  if (section.oldPath === undefined && section.newPath === undefined) problems.push('it names no file');
  if (!binary && hunks === 0 && !changesMetadata(section)) problems.push('it changes nothing');
  for (const problem of problems)
    complain(`the file at line ${lineNumber} (${section.names[0] ?? 'unnamed'}): ${problem}`);
  return section;
}

function sectionOf(
  state: HeaderState,
  start: number,
  end: number,
  body: { binary: boolean; hunks: number },
): PatchSection {
  const created = state.newFileMode !== undefined || state.minusNull;
  const deleted = state.deletedFileMode !== undefined || state.plusNull;
  const move = state.renameFrom !== undefined || state.renameTo !== undefined ? 'rename' : undefined;
  const copy = state.copyFrom !== undefined || state.copyTo !== undefined ? 'copy' : undefined;
  const section: PatchSection = {
    start,
    end,
    names: [...new Set(state.names)],
    created,
    deleted,
    binary: body.binary,
    hunks: body.hunks,
  };
  const oldPath = created
    ? undefined
    : (state.renameFrom ?? state.copyFrom ?? state.minus ?? state.defaultName);
  const newPath = deleted ? undefined : (state.renameTo ?? state.copyTo ?? state.plus ?? state.defaultName);
  if (oldPath !== undefined) section.oldPath = oldPath;
  if (newPath !== undefined) section.newPath = newPath;
  if (move ?? copy) section.move = move ?? copy;
  const oldMode = state.deletedFileMode ?? state.oldMode ?? (created ? undefined : state.indexMode);
  const newMode = state.newFileMode ?? state.newMode ?? (deleted ? undefined : state.indexMode);
  if (oldMode !== undefined) section.oldMode = oldMode;
  if (newMode !== undefined) section.newMode = newMode;
  return section;
}

function changesMetadata(section: PatchSection): boolean {
  return (
    section.created ||
    section.deleted ||
    section.move !== undefined ||
    (section.oldMode !== undefined && section.newMode !== undefined && section.oldMode !== section.newMode)
  );
}

// ---------------------------------------------------------------------------------------------
// Names

type NameField = 'minus' | 'plus' | 'renameFrom' | 'renameTo' | 'copyFrom' | 'copyTo';

/**
 * A name as git's find_name reads it: C-quoted, or up to the line's end (a tab ends it on `---`/`+++`,
 * a carriage return always); `---`/`+++` names lose their first folder (`a/`, `b/`).
 */
function takeName(
  rest: string,
  terminator: 'tab' | 'none',
  stripFolder: boolean,
  state: HeaderState,
  field: NameField,
): string | undefined {
  const devNull =
    rest.startsWith(DEV_NULL) && (rest.length === DEV_NULL.length || /\s/.test(rest.charAt(DEV_NULL.length)));
  if (stripFolder && devNull) {
    if (field === 'minus') state.minusNull = true;
    if (field === 'plus') state.plusNull = true;
    return undefined;
  }
  let raw: string;
  if (rest.startsWith('"')) {
    const quoted = unquote(rest, 0);
    if (!quoted) return 'a quoted file name that cannot be read';
    raw = quoted.value;
  } else {
    const end = rest.search(terminator === 'tab' ? /[\t\r]/ : /\r/);
    raw = end < 0 ? rest : rest.slice(0, end);
  }
  if (stripFolder) {
    const slash = raw.indexOf('/');
    if (slash <= 0) return 'a file name without its a/ or b/ folder';
    raw = raw.slice(slash + 1);
  }
  const name = decodeName(raw);
  if (name === undefined) return 'a file name that is not UTF-8';
  state[field] = name;
  state.names.push(name);
  return undefined;
}

/** The `diff --git` line's names: each quoted one, and the name an unquoted line gives twice (git_header_name). */
function readHeaderNames(rest: string, state: HeaderState): string | undefined {
  const candidates: string[] = [];
  for (let at = rest.indexOf('"'); at >= 0;) {
    const quoted = unquote(rest, at);
    if (!quoted) return 'a quoted file name that cannot be read';
    const name = stripFirstFolder(quoted.value);
    if (name !== undefined) candidates.push(name);
    at = rest.indexOf('"', quoted.end);
  }
  if (candidates.length === 0) {
    const first = stripFirstFolder(rest);
    if (first !== undefined) {
      for (let length = 0; length < first.length; length++) {
        const char = first.charAt(length);
        if (char !== ' ' && char !== '\t') continue;
        const second = stripFirstFolder(first.slice(length + 1));
        if (second !== undefined && second === first.slice(0, length)) {
          candidates.push(second);
          break;
        }
      }
    }
  }
  for (const candidate of candidates) {
    const name = decodeName(candidate);
    if (name === undefined) return 'a file name that is not UTF-8';
    state.names.push(name);
  }
  if (candidates.length === 1 || (candidates.length === 2 && candidates[0] === candidates[1])) {
    state.defaultName = decodeName(candidates[0] ?? '');
  }
  return undefined;
}

function stripFirstFolder(name: string): string | undefined {
  const slash = name.indexOf('/');
  return slash > 0 ? name.slice(slash + 1) : undefined;
}

const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

/** git's C quoting from the `"` at `at`: the bytes (as latin1) and the index after the closing quote. */
export function unquote(text: string, at: number): { value: string; end: number } | undefined {
  let value = '';
  for (let i = at + 1; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '"') return { value, end: i + 1 };
    if (char === '\n') return undefined;
    if (char !== '\\') {
      value += char;
      continue;
    }
    const next = text.charAt(++i);
    const escaped = ESCAPES[next];
    if (escaped !== undefined) {
      value += escaped;
    } else if (/^[0-3][0-7][0-7]$/.test(text.slice(i, i + 3))) {
      value += String.fromCharCode(parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** Bytes held as latin1 → the UTF-8 name they spell; undefined when they are not UTF-8. */
function decodeName(bytes: string): string | undefined {
  const buffer = Buffer.from(bytes, 'latin1');
  const name = buffer.toString('utf8');
  return Buffer.from(name, 'utf8').equals(buffer) ? name : undefined;
}

// ---------------------------------------------------------------------------------------------
// Modes, hunks, binary data

function takeMode(rest: string, set: (mode: number) => void): string | undefined {
  const match = /^([0-7]{1,7})\s*$/.exec(rest);
  if (!match?.[1]) return 'a file mode that cannot be read';
  set(parseInt(match[1], 8));
  return undefined;
}

function takeIndexMode(rest: string, state: HeaderState): string | undefined {
  const match = /^[0-9a-f]+\.\.[0-9a-f]+(?: ([0-7]{1,7}))?\s*$/i.exec(rest);
  if (!match) return 'an index line that cannot be read';
  if (match[1]) state.indexMode = parseInt(match[1], 8);
  return undefined;
}

/** One hunk from its `@@` line (git's parse_fragment): its end and its new side's first lines. */
function readHunk(text: string, at: number): { end: number; newSide: string[] } | string {
  const header = lineAt(text, at);
  const range = HUNK_HEADER.exec(header.body);
  if (!range || !header.complete) return 'a hunk header that cannot be read';
  let oldLines = range[1] === undefined ? 1 : Number(range[1]);
  let newLines = range[2] === undefined ? 1 : Number(range[2]);
  const newSide: string[] = [];
  let cursor = header.end;
  while (oldLines > 0 || newLines > 0) {
    const line = lineAt(text, cursor);
    if (!line.complete) return 'a hunk cut short';
    const kind = line.body.charAt(0);
    if (kind === '' || kind === ' ') {
      oldLines--;
      newLines--;
      if (newSide.length <= MAX_NEW_SIDE_LINES) newSide.push(line.body.slice(1));
    } else if (kind === '-') {
      oldLines--;
    } else if (kind === '+') {
      newLines--;
      if (newSide.length <= MAX_NEW_SIDE_LINES) newSide.push(line.body.slice(1));
    } else if (!(kind === '\\' && line.body.startsWith('\\ ') && line.end - line.start >= 12)) {
      return 'a hunk holds a line git cannot read';
    }
    if (oldLines < 0 || newLines < 0) return 'a hunk holds more lines than its header says';
    cursor = line.end;
  }
  // git takes a `\ ` line after the hunk's last line when more than 12 bytes of the patch remain from
  // it, however short the line itself (apply.c parse_fragment: `12 < size`).
  if (text.startsWith('\\ ', cursor) && text.length - cursor > MARKER_MIN_REST)
    cursor = lineAt(text, cursor).end;
  return { end: cursor, newSide };
}

/**
 * After `GIT binary patch`: a forward hunk and an optional reverse one, each ended by an empty line.
 * Like git (parse_binary_hunk), any line starting `literal ` or `delta ` after the forward hunk starts
 * the reverse one, whatever follows, so a broken one stays in the section for git to refuse.
 */
function readBinary(text: string, at: number): number | undefined {
  let cursor = readBinaryHunk(text, at);
  if (cursor === undefined) return undefined;
  if (BINARY_HUNK.test(text.slice(cursor, cursor + 8))) cursor = readBinaryHunk(text, cursor);
  return cursor;
}

function readBinaryHunk(text: string, at: number): number | undefined {
  if (!BINARY_HUNK.test(text.slice(at, at + 8))) return undefined;
  let cursor = lineAt(text, at).end;
  for (;;) {
    const line = lineAt(text, cursor);
    if (!line.complete) return undefined;
    cursor = line.end;
    if (line.body === '') return cursor;
  }
}
