/**
 * A text a row shows, kept as the pieces it is made of (an event's strings and the separators between
 * them), so clipping it builds only what the row keeps. Joining first made a copy of the whole (eight
 * parts of 60,000 characters: 480,000), and a clip of it, a V8 slice, kept that copy alive for as long
 * as the row: the transcript held as much again as the event log.
 */
import type { Clip } from '../../shared/rows';

export type TextPieces = readonly string[];

/** The non-empty parts, `separator` between them (as `parts.filter(Boolean).join(separator)` would). */
export function joinPieces(parts: ReadonlyArray<string | TextPieces>, separator: string): TextPieces {
  const pieces: string[] = [];
  for (const part of parts) {
    const partPieces = typeof part === 'string' ? [part] : part;
    if (!partPieces.some(Boolean)) continue;
    if (pieces.length > 0) pieces.push(separator);
    // one by one: a hostile content list can have more parts than the call stack takes arguments
    for (const piece of partPieces) pieces.push(piece);
  }
  return pieces;
}

/** The text whole when it is at most `max` characters, else its first `max` and its whole length. */
export function clipPieces(text: string | TextPieces, max: number): [string, Clip | undefined] {
  const pieces = typeof text === 'string' ? [text] : text;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  if (length <= max) return [pieces.length === 1 ? (pieces[0] ?? '') : pieces.join(''), undefined];
  let kept = '';
  for (const piece of pieces) {
    if (kept.length >= max) break;
    // a slice of a string the event log holds anyway, or a short separator: nothing new held
    kept += piece.slice(0, max - kept.length);
  }
  return [kept, { fullLength: length }];
}

/** How much of each text a row shows. */
export interface ClipLimits {
  /** Message markdown and notice details. */
  text: number;
  /** Terminal output and tool results. */
  output: number;
  /** Lines of a compact diff. */
  diffLines: number;
}

export const DISPLAY_LIMITS: ClipLimits = { text: 20_000, output: 8_000, diffLines: 200 };
/** "Show all" still has a ceiling: the page must stay responsive. */
export const EXPANDED_LIMITS: ClipLimits = { text: 2_000_000, output: 2_000_000, diffLines: 20_000 };

/** A text with lines under it (why an image cannot be shown). */
export function withLines(text: TextPieces, lines: readonly string[]): TextPieces {
  return lines.length === 0 ? text : joinPieces([text, ...lines], '\n\n');
}
