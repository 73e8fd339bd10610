import { ApiError } from './errors';
import type { Page } from './models/common';

export type PageFetcher<T> = (
  pageId: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<Page<T>>;

/**
 * Follows `next_page_id` until the server says there is no next page. A server that hands back the
 * same page id twice would loop forever, so that is an error.
 */
export async function* iteratePages<T>(
  fetchPage: PageFetcher<T>,
  options: { signal?: AbortSignal; startPageId?: string } = {},
): AsyncGenerator<Page<T>> {
  const seen = new Set<string>();
  let pageId = options.startPageId;
  for (;;) {
    const page = await fetchPage(pageId, options.signal);
    yield page;
    const next = page.next_page_id;
    if (next === null || next === undefined || next === '') return;
    if (seen.has(next)) {
      throw new ApiError({
        kind: 'invalid_response',
        message: `The server returned page id "${next}" twice; stopped paging to avoid a loop.`,
      });
    }
    seen.add(next);
    pageId = next;
  }
}

/** Every item of every page, up to `maxItems` (a guard against unbounded lists). */
export async function collectAll<T>(
  fetchPage: PageFetcher<T>,
  options: { signal?: AbortSignal; maxItems?: number } = {},
): Promise<T[]> {
  const maxItems = options.maxItems ?? 10_000;
  const items: T[] = [];
  for await (const page of iteratePages(fetchPage, options)) {
    items.push(...page.items);
    if (items.length >= maxItems) return items.slice(0, maxItems);
  }
  return items;
}
