// `events/search` and `events/count` as event_service.py does them: walk the log by index (forward,
// or backward for TIMESTAMP_DESC) from `page_id` (inclusive; unknown → the start), collect `limit`
// matches, and name the next match as `next_page_id`. Timestamps compare as ISO strings.
import { messageText, type AgentEvent } from './events';
import { qualifiedKind } from './kinds';

export interface EventFilters {
  /** Module-qualified class name. */
  kind?: string;
  source?: string;
  /** Case-insensitive substring of a MessageEvent's text. */
  body?: string;
  /** Normalised naive ISO strings (see normalizeTimestampParam). */
  timestampGte?: string;
  timestampLt?: string;
}

export interface SearchRequest {
  pageId?: string;
  limit: number;
  descending: boolean;
  filters: EventFilters;
}

export interface EventPage {
  items: AgentEvent[];
  next_page_id: string | null;
}

export function eventMatches(event: AgentEvent, filters: EventFilters): boolean {
  if (filters.kind !== undefined && qualifiedKind(event.kind) !== filters.kind) return false;
  if (filters.source !== undefined && event.source !== filters.source) return false;
  if (filters.timestampGte !== undefined && event.timestamp < filters.timestampGte) return false;
  if (filters.timestampLt !== undefined && event.timestamp >= filters.timestampLt) return false;
  if (filters.body !== undefined) {
    const text = messageText(event);
    if (text === null || !text.toLowerCase().includes(filters.body.toLowerCase())) return false;
  }
  return true;
}

export function searchEvents(events: readonly AgentEvent[], request: SearchRequest): EventPage {
  const total = events.length;
  let start = request.pageId ? events.findIndex((event) => event.id === request.pageId) : -1;
  if (start < 0) start = request.descending ? total - 1 : 0;
  const step = request.descending ? -1 : 1;
  const items: AgentEvent[] = [];
  for (let index = start; index >= 0 && index < total; index += step) {
    const event = events[index];
    if (!event || !eventMatches(event, request.filters)) continue;
    if (items.length >= request.limit) return { items, next_page_id: event.id };
    items.push(event);
  }
  return { items, next_page_id: null };
}

export function countEvents(events: readonly AgentEvent[], filters: EventFilters): number {
  let count = 0;
  for (const event of events) if (eventMatches(event, filters)) count++;
  return count;
}
