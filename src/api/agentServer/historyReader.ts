/**
 * How a followed conversation's history is read, page after page (`historyPages.ts` reads each one):
 * what is missing, back from the newest event to the first one held, and then the older history,
 * back to the start. Bounded against a server that pages dishonestly: a page that brings nothing new,
 * a page named twice and the page ceiling each end the read, and the log's budget ends it too.
 */
import { ApiError } from '../errors';
import type { EventLog } from './eventLog';
import type { AgentEvent, AgentEventPage } from './events';
import type { HistoryPages } from './historyPages';

type PageReader = Pick<HistoryPages, 'read'>;

export interface MissingRead {
  /** The events the log does not hold yet, oldest first. */
  events: AgentEvent[];
  /** Where the older history goes on, when a first read stopped after its newest page. */
  older: string | undefined;
  /** Why the read stopped short, in order; secret-free. */
  notices: string[];
  /** A first read reached the start: the history is whole. */
  complete: boolean;
}

/**
 * Pages back from the newest stored event until one already held (or the start). The first read of a
 * conversation (an empty log) stops after one page, so the newest part shows at once, and says where
 * the older history goes on. A page that brings nothing new, the page ceiling or the log's budget end
 * the read with what it has (and a notice); a page named twice fails it.
 */
export async function readMissing(
  pages: PageReader,
  log: EventLog,
  maxPages: number,
  signal: AbortSignal,
): Promise<MissingRead> {
  const firstRead = log.size === 0;
  const missing: AgentEvent[] = [];
  const missingIds = new Set<string>();
  const notices: string[] = [];
  let missingBytes = 0;
  const seenPages = new Set<string>();
  let pageId: string | undefined;
  let stuck = false;
  for (let pageCount = 1; ; pageCount++) {
    let page: AgentEventPage;
    try {
      page = await pages.read(pageId, signal);
    } catch (error) {
      // an event larger than a skim may read: what is newer than it is shown, and the gap said
      if (!(error instanceof ApiError) || error.overLimitBytes === undefined) throw error;
      notices.push(error.message);
      stuck = true;
      break;
    }
    let reachedKnown = false;
    let fresh = 0;
    for (const event of page.items) {
      if (log.has(event.id)) {
        reachedKnown = true;
        break;
      }
      if (missingIds.has(event.id)) continue;
      missingIds.add(event.id);
      missing.push(event);
      missingBytes += log.sizeOf(event);
      fresh++;
    }
    const next = page.next_page_id ?? undefined;
    if (reachedKnown || next === undefined) break;
    if (fresh === 0) {
      notices.push(ENDLESS_PAGES);
      break;
    }
    // the log takes what fits and says it is full
    if (missingBytes >= log.maxBytes - log.bytes) break;
    if (missing.length >= log.maxEvents - log.size) break;
    if (pageCount >= maxPages) {
      notices.push(pageCeiling(maxPages));
      break;
    }
    if (seenPages.has(next)) throw pagingLoop();
    seenPages.add(next);
    if (firstRead) return { events: missing.reverse(), older: next, notices, complete: false };
    pageId = next;
  }
  return { events: missing.reverse(), older: undefined, notices, complete: firstRead && !stuck };
}

/** Where the older pages go, and what may stop them. */
export interface OlderSink {
  /** The feed is gone: read no further. */
  done(): boolean;
  /** While set, the next page waits for it (a panel painting its first rows). */
  held(): Promise<unknown> | undefined;
  /** Older events, oldest first, into the log; returns those it took. */
  prepend(events: readonly AgentEvent[]): AgentEvent[];
  notice(text: string): void;
}

/**
 * The rest of the history, older pages one after another from `from` (the oldest event held: its
 * page repeats it). True when the read got to the start (or the log is full); false when it stopped
 * short, said in a notice, or the feed is gone. A page named twice fails it.
 */
export async function readOlder(
  pages: PageReader,
  log: EventLog,
  from: string,
  sink: OlderSink,
  maxPages: number,
  signal: AbortSignal,
): Promise<boolean> {
  const seenPages = new Set<string>();
  let pageId: string | undefined = from;
  for (let count = 0; pageId !== undefined && !sink.done() && !log.full; count++) {
    const held = sink.held();
    if (held) await held;
    if (sink.done()) return false;
    if (count >= maxPages) {
      sink.notice(pageCeiling(maxPages));
      return false;
    }
    const page = await pages.read(pageId, signal);
    const refused = log.refused;
    const added = sink.prepend([...page.items].reverse());
    const next = page.next_page_id ?? undefined;
    // each honest page but the last brings older events; the one it starts from is held already
    // (a page of that one event alone, when the events are large, is a step all the same)
    const startOnly = page.items.length === 1 && page.items[0]?.id === pageId;
    if (next !== undefined && added.length === 0 && !startOnly && log.refused === refused) {
      sink.notice(ENDLESS_PAGES);
      return false;
    }
    if (next !== undefined && seenPages.has(next)) throw pagingLoop();
    if (next !== undefined) seenPages.add(next);
    pageId = next;
  }
  return true;
}

const ENDLESS_PAGES =
  'The history shown is incomplete: the sandbox kept offering more of it without sending anything new.';

function pageCeiling(pages: number): string {
  return `The history shown is incomplete: it was read up to its limit of ${pages} pages.`;
}

function pagingLoop(): ApiError {
  return new ApiError({
    kind: 'invalid_response',
    message: 'The sandbox sent the same part of the history twice; the history was not read further.',
  });
}
