// Offset paging with the real server's "fetch limit+1" probe: `next_page_id` is the next offset as a
// string only when at least one more item exists.
import type { Page } from './models';

export function pageOf<T>(items: readonly T[], offset: number, limit: number): Page<T> {
  const window = items.slice(offset, offset + limit + 1);
  const hasMore = window.length > limit;
  return { items: window.slice(0, limit), next_page_id: hasMore ? String(offset + limit) : null };
}
