// Marks of a conversation panel's opening on the process's performance timeline (the extension
// host's, or the page's), which `npm run bench` reads to say where the time goes
// (bench/workbench/panelOpen/). Invisible to users; bounded: one entry per step at most, the
// first since the bench last cleared it (a page's whole life, in the page).

export const OPENING_MARK_PREFIX = 'openhands.opening.';

/** The steps, in the order an opening takes them. */
export const OPENING_STEPS = [
  // the extension host
  'panelCreated',
  'htmlSet',
  'agentResolved',
  'socketOpen',
  'newestPageRead',
  'pageReady',
  'firstRowsPosted',
  'historyComplete',
  // the page
  'pageScript',
  'firstMessage',
  'firstRows',
  'firstRowsPainted',
] as const;

export type OpeningStep = (typeof OPENING_STEPS)[number];

/** Marks `step` unless it is marked already. */
export function markOpening(step: OpeningStep): void {
  const name = OPENING_MARK_PREFIX + step;
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
}

/** Forgets every step's mark, so the next opening marks them anew. */
export function clearOpeningMarks(): void {
  for (const step of OPENING_STEPS) performance.clearMarks(OPENING_MARK_PREFIX + step);
}

/** Each step marked: when, in epoch ms (the timeline's origin plus the mark's time). */
export function openingMarks(): Partial<Record<OpeningStep, number>> {
  const marks: Partial<Record<OpeningStep, number>> = {};
  for (const step of OPENING_STEPS) {
    const entry = performance.getEntriesByName(OPENING_MARK_PREFIX + step, 'mark')[0];
    if (entry) marks[step] = performance.timeOrigin + entry.startTime;
  }
  return marks;
}
