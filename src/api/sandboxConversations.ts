import { ApiError } from './errors';
import type { AppConversation, AppConversationPage } from './models';
import { iteratePages } from './paging';
import type { ConversationSearchQuery } from './searchQueries';
import { withDeadline, type CallOptions } from './signals';

export interface SandboxConversations {
  items: AppConversation[];
  /** False when the scan stopped at its limit before the last page: there may be more. */
  complete: boolean;
}

export interface SandboxConversationsOptions extends CallOptions {
  /** Conversations read (not kept) before giving up; bounds the cost on servers that ignore the filter. */
  maxScanned?: number;
  /** The whole listing, every page included, ends with a `timeout` ApiError after this long. */
  deadlineMs?: number;
}

type SearchConversations = (
  query: ConversationSearchQuery,
  options: CallOptions,
) => Promise<AppConversationPage>;

/**
 * Every conversation running in one sandbox. Newer and hosted servers filter with `sandbox_id__eq`;
 * the OSS app server ignores that parameter and returns everything, so the result is also filtered
 * here, and the scan is bounded.
 */
export async function listSandboxConversations(
  search: SearchConversations,
  sandboxId: string,
  options: SandboxConversationsOptions = {},
): Promise<SandboxConversations> {
  const maxScanned = options.maxScanned ?? 2000;
  const deadlineMs = options.deadlineMs ?? 60_000;
  const deadline = withDeadline(options.signal, deadlineMs);
  const items: AppConversation[] = [];
  let scanned = 0;
  try {
    const pages = iteratePages(
      (pageId, signal) => search({ sandboxIdEq: sandboxId, pageId, limit: 100 }, { signal }),
      { signal: deadline.signal },
    );
    for await (const page of pages) {
      scanned += page.items.length;
      items.push(...page.items.filter((conversation) => conversation.sandbox_id === sandboxId));
      if (page.next_page_id && scanned >= maxScanned) return { items, complete: false };
    }
    return { items, complete: true };
  } catch (error) {
    if (!deadline.timedOut() || options.signal?.aborted) throw error;
    throw new ApiError({
      kind: 'timeout',
      method: 'GET',
      path: '/api/v1/app-conversations/search',
      message: `Listing the conversations of sandbox ${sandboxId} took longer than ${Math.round(deadlineMs / 100) / 10} s; stopped after ${scanned} conversations.`,
    });
  } finally {
    deadline.dispose();
  }
}
