/**
 * The base bytes of a binary file the agent changed or deleted, read from the whole change's
 * `git diff --binary` patch: the agent server's diff route has no base for a binary file (1.34 fails
 * with a 500 decoding it as text), but the patch carries each binary file's reverse hunk, which turns
 * the agent's version back into the base. Hostile input: every size is checked before it is
 * allocated, and anything git would not have written gives undefined.
 */
import { inflateSync } from 'node:zlib';

const DIFF_HEADER = 'diff --git ';
const BASE85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const BASE85_VALUE = new Map([...BASE85].map((char, index) => [char, index]));

interface BinaryHunk {
  kind: 'literal' | 'delta';
  /** The inflated size git states; the data must inflate to exactly this. */
  size: number;
  data: Buffer;
}

/**
 * The base of `path` (a repository-relative name git writes unquoted) given the agent's current bytes
 * (`current`, empty for a deleted file); undefined when the patch has no binary hunks for it, or they
 * do not decode, or the base would be larger than `maxBytes`.
 */
export function binaryBase(
  patch: Buffer,
  path: string,
  current: Buffer,
  maxBytes: number,
): Buffer | undefined {
  const hunks = binaryHunks(patch, path, maxBytes);
  const reverse = hunks?.[1];
  if (!reverse) return undefined;
  const data = inflated(reverse, maxBytes);
  if (!data) return undefined;
  return reverse.kind === 'literal' ? data : applyDelta(current, data, maxBytes);
}

/** The forward and reverse hunks of the path's section; undefined when it has none. */
function binaryHunks(patch: Buffer, path: string, maxBytes: number): BinaryHunk[] | undefined {
  // headers and base85 are ASCII; a name is compared as the bytes git wrote
  const text = patch.toString('latin1');
  const name = Buffer.from(path, 'utf8').toString('latin1');
  if (/[\s"\\]/.test(name)) return undefined; // git quotes or splits such names: not read here
  const header = `${DIFF_HEADER}a/${name} b/${name}\n`;
  const start = text.startsWith(header) ? 0 : text.indexOf(`\n${header}`) + 1;
  if (start === 0 && !text.startsWith(header)) return undefined;
  const next = text.indexOf(`\n${DIFF_HEADER}`, start + header.length);
  const lines = text.slice(start, next === -1 ? text.length : next + 1).split('\n');
  const at = lines.indexOf('GIT binary patch');
  if (at === -1) return undefined;
  const hunks: BinaryHunk[] = [];
  let cursor = at + 1;
  while (hunks.length < 2) {
    const match = /^(literal|delta) (\d{1,10})$/.exec(lines[cursor] ?? '');
    if (!match) break;
    const size = Number(match[2]);
    if (size > maxBytes) return undefined;
    const chunks: Buffer[] = [];
    for (cursor++; (lines[cursor] ?? '') !== ''; cursor++) {
      const chunk = base85Line(lines[cursor] ?? '');
      if (!chunk) return undefined;
      chunks.push(chunk);
    }
    cursor++;
    hunks.push({ kind: match[1] as BinaryHunk['kind'], size, data: Buffer.concat(chunks) });
  }
  return hunks.length === 2 ? hunks : undefined;
}

/** One line of a hunk: its length as a letter (A–Z 1–26, a–z 27–52), then base85 in groups of five. */
function base85Line(line: string): Buffer | undefined {
  const lead = line.charCodeAt(0);
  const length =
    lead >= 65 && lead <= 90 ? lead - 64 : lead >= 97 && lead <= 122 ? lead - 96 + 26 : undefined;
  const body = line.slice(1);
  if (length === undefined || body.length !== Math.ceil(length / 4) * 5) return undefined;
  const out = Buffer.alloc(Math.ceil(length / 4) * 4);
  for (let group = 0; group < body.length / 5; group++) {
    let value = 0;
    for (let index = 0; index < 5; index++) {
      const digit = BASE85_VALUE.get(body[group * 5 + index] ?? '');
      if (digit === undefined) return undefined;
      value = value * 85 + digit;
    }
    if (value > 0xffffffff) return undefined;
    out.writeUInt32BE(value, group * 4);
  }
  return out.subarray(0, length);
}

function inflated(hunk: BinaryHunk, maxBytes: number): Buffer | undefined {
  try {
    // never more than git said, and never more than the caller takes
    const data = inflateSync(hunk.data, { maxOutputLength: Math.max(1, Math.min(hunk.size, maxBytes)) });
    return data.length === hunk.size ? data : undefined;
  } catch {
    return hunk.size === 0 ? Buffer.alloc(0) : undefined;
  }
}

/** Git's delta: the source and result sizes, then copies from the source and inserted bytes. */
function applyDelta(source: Buffer, delta: Buffer, maxBytes: number): Buffer | undefined {
  let at = 0;
  const size = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = delta[at++];
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
    return undefined;
  };
  const sourceSize = size();
  const resultSize = size();
  if (sourceSize !== source.length || resultSize === undefined || resultSize > maxBytes) return undefined;
  const result = Buffer.alloc(resultSize);
  let written = 0;
  while (at < delta.length) {
    const command = delta[at++] ?? 0;
    if (command & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++)
        if (command & (1 << bit)) offset += (delta[at++] ?? 0) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++)
        if (command & (1 << (4 + bit))) length += (delta[at++] ?? 0) * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (at > delta.length || offset + length > source.length || written + length > resultSize)
        return undefined;
      source.copy(result, written, offset, offset + length);
      written += length;
    } else if (command !== 0) {
      if (at + command > delta.length || written + command > resultSize) return undefined;
      delta.copy(result, written, at, at + command);
      at += command;
      written += command;
    } else return undefined;
  }
  return written === resultSize ? result : undefined;
}
