/**
 * A conversation's whole history from its agent server, oldest first, for an export: page after page
 * of 100, bounded against a server that pages dishonestly (a page named twice, a page that brings
 * nothing, the page and event ceilings). No vscode import.
 */
import { ApiError } from '../errors';
import type { AgentCallOptions, AgentServerClient } from './agentServerClient';
import type { AgentEvent } from './events';

/** The app server's own export stops at 10000 events. */
export const MAX_EXPORTED_EVENTS = 10_000;
const PAGE = 100;

export async function readAllEvents(
  agent: Pick<AgentServerClient, 'searchEvents'>,
  options: AgentCallOptions & { maxEvents?: number } = {},
): Promise<{ events: AgentEvent[]; complete: boolean }> {
  const maxEvents = options.maxEvents ?? MAX_EXPORTED_EVENTS;
  const events: AgentEvent[] = [];
  const seenIds = new Set<string>();
  const seenPages = new Set<string>();
  let pageId: string | undefined;
  for (let pages = 0; pages <= Math.ceil(maxEvents / PAGE); pages++) {
    const page = await agent.searchEvents({ pageId, limit: PAGE, sortOrder: 'TIMESTAMP' }, options);
    let added = 0;
    for (const event of page.items) {
      if (seenIds.has(event.id)) continue;
      if (events.length >= maxEvents) return { events, complete: false };
      seenIds.add(event.id);
      events.push(event);
      added++;
    }
    const next = page.next_page_id ?? undefined;
    if (next === undefined) return { events, complete: true };
    if (seenPages.has(next) || added === 0)
      throw new ApiError({
        kind: 'invalid_response',
        message: 'The agent server named the same page of events twice; the history cannot be read whole.',
      });
    seenPages.add(next);
    pageId = next;
  }
  return { events, complete: false };
}
