/**
 * The model catalogue read whole, within bounds: OpenHands 1.11 pages `config/models/search` and
 * `config/providers/search` (at most 100 a page; LiteLLM's list alone is a few thousand models). Pages
 * are read until the last, a page cap, an item cap, or a page id seen before (a server that loops).
 */
import type { CatalogueModel, CatalogueProvider } from '../models/modelSetup';
import type { Page } from '../models/common';

/** Items kept at most, whatever the server holds. */
export const MAX_CATALOGUE_ITEMS = 5000;
const PAGE_LIMIT = 100;

export interface CatalogueQuery {
  /** A case-insensitive part of the name. */
  query?: string;
  /** Models only: this provider's. */
  provider?: string;
  /** Only verified (true) or only unverified (false) entries. */
  verified?: boolean;
  /** Keep at most this many (default and cap `MAX_CATALOGUE_ITEMS`). */
  maxItems?: number;
}

export interface CatalogueList<T> {
  /** Verified first, then the rest, each in the server's order (hidden models last). */
  items: T[];
  /** False when a bound stopped the reading before the last page. */
  complete: boolean;
}

export async function readAllPages<T>(
  readPage: (pageId: string | undefined, limit: number) => Promise<Page<T>>,
  maxItems = MAX_CATALOGUE_ITEMS,
): Promise<CatalogueList<T>> {
  const cap = Math.max(1, Math.min(Math.floor(maxItems), MAX_CATALOGUE_ITEMS));
  const items: T[] = [];
  const seen = new Set<string>();
  let pageId: string | undefined;
  for (;;) {
    const page = await readPage(pageId, PAGE_LIMIT);
    const room = cap - items.length;
    items.push(...page.items.slice(0, room));
    const next = page.next_page_id;
    if (page.items.length > room) return { items, complete: false };
    if (next === null) return { items, complete: true };
    if (items.length >= cap || seen.has(next) || page.items.length === 0) return { items, complete: false };
    seen.add(next);
    pageId = next;
  }
}

/** Verified before unverified, hidden models after both; the server's order within each. */
export function verifiedFirst<T extends { verified: boolean; hidden?: boolean }>(items: readonly T[]): T[] {
  const rank = (item: T): number => (item.hidden ? 2 : item.verified ? 0 : 1);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

/** The name the settings and the start request take: `provider/name`. */
export function modelId(model: Pick<CatalogueModel, 'provider' | 'name'>): string {
  return model.provider ? `${model.provider}/${model.name}` : model.name;
}

/** Whether the catalogue lists `id` (hidden models count: a saved one is still valid). */
export function catalogueKnows(models: readonly CatalogueModel[], id: string): boolean {
  return models.some((model) => modelId(model) === id);
}

export type { CatalogueModel, CatalogueProvider };
