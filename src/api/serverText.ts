/**
 * Text a server sent: read (its JSON if any, the readable part of an error body) and made fit to show:
 * one line, no control or direction-changing characters, and clipped. The full text goes to the request
 * log instead.
 */
import { isRecord } from './records';

/** Longest server text quoted in a message; the message itself stays under `MAX_MESSAGE_CHARS`. */
export const MAX_SERVER_TEXT_CHARS = 500;
export const MAX_MESSAGE_CHARS = 1000;
/** Longest server text kept in a log entry. */
export const MAX_LOGGED_TEXT_CHARS = 64 * 1024;

// C0 and C1 controls (newlines and tabs included) and the bidi controls that can reorder what is shown
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

export function showable(text: string, maxChars = MAX_SERVER_TEXT_CHARS): string {
  return clip(
    text
      .replace(UNSHOWABLE, ' ')
      .replace(/\s{2,}/g, ' ')
      .trim(),
    maxChars,
  );
}

export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // never cut a surrogate pair in half
  let end = maxChars - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * Whether JSON text nests deeper than `maxDepth`. Checked before parsing: `JSON.parse` copes with any
 * depth, but everything that walks the value afterwards (validation, redaction, `util.inspect`) recurses.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) depth--;
  }
  return false;
}

/** "in 45 s", "in 12 min", "in 3 h 20 min (at 14:05 UTC)", "in more than a day". */
export function describeWait(ms: number, now: Date = new Date()): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `in ${Math.max(1, seconds)} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  if (minutes >= 24 * 60) return 'in more than a day';
  const at = new Date(now.getTime() + ms);
  const clock = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
  const rest = minutes % 60;
  return `in ${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''} (at ${clock})`;
}

export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The readable part of an error body: FastAPI `detail`, legacy `error`/`message`, or a bare JSON string. */
export function serverText(body: unknown, contentType: string, text: string): string {
  if (typeof body === 'string') return body;
  if (isRecord(body)) {
    for (const key of ['detail', 'error', 'message'] as const) {
      const value = body[key];
      if (typeof value === 'string') return value;
    }
    return '';
  }
  if (/text\/plain/i.test(contentType)) return text.trim();
  return '';
}
