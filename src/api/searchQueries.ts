import type { StartTaskSortOrder } from './models';

// What the app server's searches and counts can be asked: the client turns these into query parameters,
// and helpers that page through a search (sandboxConversations.ts) ask in the same words.

export type DateInput = Date | string;

export interface ConversationFilters {
  titleContains?: string;
  createdAtGte?: DateInput;
  createdAtLt?: DateInput;
  updatedAtGte?: DateInput;
  updatedAtLt?: DateInput;
  /** Newer and hosted servers only; the OSS server ignores it (see `listSandboxConversations`). */
  sandboxIdEq?: string;
}

export interface PageQuery {
  pageId?: string;
  /** 1–100; above 100 the server refuses the call (1.11: 422; earlier versions: 500), so the client checks first. */
  limit?: number;
}

export interface ConversationSearchQuery extends ConversationFilters, PageQuery {
  includeSubConversations?: boolean;
}

export interface StartTaskFilters {
  conversationIdEq?: string;
  createdAtGte?: DateInput;
}

export interface StartTaskSearchQuery extends StartTaskFilters, PageQuery {
  sortOrder?: StartTaskSortOrder;
}
