/**
 * Turning the server's texts into what the page shows: short lines cut to a sane length, long
 * blocks capped (the host clips, but the page never trusts a size), times, counts and the labels of
 * the statuses. Pure (no DOM): unit-tested in Node.
 */

/** A one-line text (title, summary, tool, path…) longer than this is cut with an ellipsis. */
export const MAX_LINE_CHARS = 500;
/** A block (output, result, detail) longer than this shows its start and says how much is left out. */
export const MAX_BLOCK_CHARS = 400_000;
/** Markdown longer than this is shown as plain text: parsing it would stall the page. */
export const MAX_MARKDOWN_CHARS = 150_000;

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return Number.isFinite(value) ? numberFormat.format(Math.max(0, Math.round(value))) : '?';
}

/** One line: line breaks become spaces, and a long text is cut. */
export function oneLine(text: string, max = MAX_LINE_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(/[\r\n\t]+/g, ' ');
}

export interface BoundedText {
  text: string;
  /** Characters not shown (0 when the text is whole). */
  omitted: number;
}

export function boundedText(text: string, max = MAX_BLOCK_CHARS): BoundedText {
  if (text.length <= max) return { text, omitted: 0 };
  return { text: text.slice(0, max), omitted: text.length - max };
}

/** "19:49:07" of the server's naive ISO timestamp, or '' when it is not one. */
export function shortTime(timestamp: string): string {
  const match = /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2}:\d{2})/.exec(timestamp.slice(0, 40));
  return match?.[1] ?? '';
}

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'waiting_for_confirmation',
  'paused',
  'finished',
  'error',
  'stuck',
  'unknown',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The agent's status as one of the known values ('unknown' for null or a value this page does not know). */
export function executionStatus(raw: string | null): ExecutionStatus {
  const value = (raw ?? '').trim().toLowerCase();
  return EXECUTION_STATUSES.find((status) => status === value) ?? 'unknown';
}

export function executionStatusLabel(status: ExecutionStatus): string {
  return status === 'waiting_for_confirmation' ? 'waiting for confirmation' : status;
}

/** RUNNING → "running"; an odd value is shown as sent, cut short. */
export function sandboxStatusLabel(raw: string | null): string {
  if (raw === null || raw.trim() === '') return 'unknown';
  return oneLine(raw.trim().toLowerCase().replace(/_/g, ' '), 40);
}

/** Whole seconds left until `deadline`, never negative. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
