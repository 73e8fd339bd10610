// Python's text semantics where the agent server's git and file routes depend on them: `str.strip()`,
// `str.splitlines()`, `str.split()`, `repr(str)`, `shlex.join`, `urllib.parse.quote` and `str(Path)`.
// JavaScript's built-ins differ at the edges (trim() strips U+FEFF but not U+001C…U+001F or U+0085).

/** `str.isspace()` characters: what `strip()` and `split()` cut. */
const PY_SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);
const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`);

export function pyStrip(text: string): string {
  return text.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** `str.split()` without arguments: runs of whitespace, no empty items. */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === '' ? [] : stripped.split(SPACE_RUN);
}

// Python counts the file, group and record separators (U+001C…U+001E) as line boundaries.
// eslint-disable-next-line no-control-regex
const LINE_BOUNDARY = /\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]/;

/** `str.splitlines()`: every line boundary Python knows, one trailing boundary adds no empty line. */
export function pySplitlines(text: string): string[] {
  const lines = text.split(LINE_BOUNDARY);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** What `str.isprintable()` rejects (plus the backslash): `repr` escapes these. */
const NEEDS_ESCAPE = /[\\\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

function escapeCodePoint(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** `repr(str)`: quotes chosen as Python does, non-printable characters escaped. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replace(NEEDS_ESCAPE, (char) => {
    if (char === ' ') return ' ';
    if (char === '\\') return '\\\\';
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return escapeCodePoint(char.codePointAt(0) ?? 0);
  });
  return `${quote}${quote === "'" ? body.replace(/'/g, "\\'") : body}${quote}`;
}

/** `shlex.quote`: safe words stay bare, everything else goes in single quotes. */
export function pyShellQuote(word: string): string {
  if (word === '') return "''";
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

export function pyShellJoin(words: readonly string[]): string {
  return words.map(pyShellQuote).join(' ');
}

/** `urllib.parse.quote(text)` (safe="/"), as Starlette uses it for a download's file name. */
export function pyUrlQuote(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.\-~/]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `str(PurePosixPath(text))`: no empty or "." parts, no trailing slash; "" is ".". */
export function pyPathString(text: string): string {
  const leading = text.startsWith('//') && !text.startsWith('///') ? '//' : text.startsWith('/') ? '/' : '';
  const parts = text.split('/').filter((part) => part !== '' && part !== '.');
  const joined = leading + parts.join('/');
  return joined === '' ? '.' : joined;
}

/** `str(float)` for a file time (positive, far below 1e16): Python always shows a fraction. */
export function pyTimeString(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}.0` : String(seconds);
}
