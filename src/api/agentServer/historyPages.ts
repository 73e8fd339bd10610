/**
 * A conversation's history read back from the newest event, a page at a time, each page as large as
 * fits the client's reply cap: events carry pictures (a screenshot, a message's images) of megabytes
 * each, so a page of 100 can exceed any fixed cap. A page refused for its size is asked again with
 * half as many events, down to one; an event too large on its own is skimmed (its strings cut to
 * their heads) and held as an oversized stand-in (`oversizedEvent.ts`), and the page names the next
 * event as usual, so the reading steps past it: nothing lost, nothing read twice.
 *
 * After a page that fits, the next one asks for twice as many again (up to 100), so a stretch of large
 * events costs a refused reply a page, not the rest of the history at one event a page.
 * Bounded: one page is at most 7 refused replies (100, 50, 25, 12, 6, 3, 1 events), each cut off at the
 * cap, and at most one skim of the client's `maxSkimBytes`.
 */
import { ApiError } from '../errors';
import type { AgentServerClient } from './agentServerClient';
import type { AgentEventPage } from './events';
import { oversizedEvent } from './oversizedEvent';

export const MAX_PAGE_EVENTS = 100;

export class HistoryPages {
  /** The size of the next page asked for. */
  private limit = MAX_PAGE_EVENTS;

  constructor(private readonly client: AgentServerClient) {}

  /** The page that starts at `pageId` (inclusive; the newest event when unset), newest first. */
  async read(pageId: string | undefined, signal: AbortSignal): Promise<AgentEventPage> {
    for (let limit = this.limit; ; limit = Math.max(1, Math.floor(limit / 2))) {
      try {
        const page = await this.client.searchEvents(
          { pageId, limit, sortOrder: 'TIMESTAMP_DESC' },
          { signal },
        );
        this.limit = Math.min(MAX_PAGE_EVENTS, limit * 2);
        return page;
      } catch (error) {
        if (!(error instanceof ApiError) || error.overLimitBytes === undefined) throw error;
        if (limit === 1) break;
      }
    }
    this.limit = 2;
    return this.skim(pageId, signal);
  }

  /** The one event at `pageId`, too large for the cap, as its stand-in. */
  private async skim(pageId: string | undefined, signal: AbortSignal): Promise<AgentEventPage> {
    let skimmed: { page: AgentEventPage; bytes: number };
    try {
      skimmed = await this.client.skimEvent({ pageId, sortOrder: 'TIMESTAMP_DESC' }, { signal });
    } catch (error) {
      if (!(error instanceof ApiError) || error.overLimitBytes === undefined) throw error;
      throw new ApiError({
        kind: 'invalid_response',
        message: `One event of the history is larger than ${megabytes(error.overLimitBytes)}, so the history older than it could not be read.`,
        overLimitBytes: error.overLimitBytes,
      });
    }
    const [event] = skimmed.page.items;
    if (!event || skimmed.page.items.length > 1)
      throw new ApiError({
        kind: 'invalid_response',
        message: `The sandbox answered a page of one event with ${skimmed.page.items.length} events.`,
      });
    return {
      items: [oversizedEvent(event, skimmed.bytes, this.client.replyLimitBytes)],
      next_page_id: skimmed.page.next_page_id,
    };
  }
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
