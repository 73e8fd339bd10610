/**
 * A compact diff of a file before and after one edit, for the transcript (the native diff editor
 * comes with the changes view). Lines common at both ends are trimmed first, so a one-line change
 * in a large file costs little; the changed middle is diffed by longest common subsequence when it
 * is small, or shown as removed-then-added when it is not.
 */
import type { DiffLine } from '../../shared/rows';

export interface CompactDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** Unchanged lines kept around each change. */
const CONTEXT = 3;
/** Past this many cells the LCS table costs too much; the block is shown whole. */
const MAX_LCS_CELLS = 250_000;

export function compactDiff(before: string, after: string, maxLines = 200): CompactDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = diffMiddle(a.slice(start, endA), b.slice(start, endB));
  const all: DiffLine[] = [
    ...a.slice(0, start).map((text) => ({ op: ' ' as const, text })),
    ...middle,
    ...a.slice(endA).map((text) => ({ op: ' ' as const, text })),
  ];
  const added = middle.filter((line) => line.op === '+').length;
  const removed = middle.filter((line) => line.op === '-').length;
  return { lines: withContext(all, maxLines), added, removed };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [
      ...a.map((text) => ({ op: '-' as const, text })),
      ...b.map((text) => ({ op: '+' as const, text })),
    ];
  }
  // lengths of the longest common subsequence of a[i..] and b[j..]
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ op: ' ', text: a[i] ?? '' });
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) {
      lines.push({ op: '-', text: a[i++] ?? '' });
    } else {
      lines.push({ op: '+', text: b[j++] ?? '' });
    }
  }
  while (i < a.length) lines.push({ op: '-', text: a[i++] ?? '' });
  while (j < b.length) lines.push({ op: '+', text: b[j++] ?? '' });
  return lines;
}

/** Changed lines with `CONTEXT` lines around them; runs of unchanged lines between become one '…'. */
function withContext(lines: DiffLine[], maxLines: number): DiffLine[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.op === ' ') return;
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(lines.length - 1, index + CONTEXT); k++)
      keep[k] = true;
  });
  const shown: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped) shown.push({ op: '…', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
      shown.push(line);
    } else skipped++;
  });
  if (skipped && shown.length)
    shown.push({ op: '…', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
  if (shown.length <= maxLines) return shown;
  const rest = shown.length - maxLines;
  return [
    ...shown.slice(0, maxLines),
    { op: '…', text: `${rest} more line${rest === 1 ? '' : 's'} of the diff` },
  ];
}
