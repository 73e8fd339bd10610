// App conversation reads: search (newest first, sub-conversations hidden by default), count
// (everything, sub-conversations included) and batch get (the only one filling sub_conversation_ids).
import { MAX_CONVERSATION_BATCH_IDS_EXCLUSIVE, pythonListRepr } from '../batch';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { sqlLikeContains } from '../like';
import type { ConversationRecord } from '../models';
import { pageOf } from '../paging';
import { limitParam, optionalParam, pageOffsetParam, requiredListParam, type QueryParams } from '../query';
import type { Route, RouteRequest } from '../route';
import { datetime, uuid } from '../scalars';
import { findConversation } from '../state';
import { parseWireTime } from '../time';
import { bool, INVALID, str, type ValidationIssue } from '../validation';
import { conversationView } from '../views';

type ConversationFilter = (conversation: ConversationRecord) => boolean;

/**
 * The filters search and count share; `null` when one of them was malformed. `sandbox_id__eq` only
 * when the server is configured as a newer one: the OSS server ignores unknown query parameters.
 */
function readFilters(
  query: QueryParams,
  issues: ValidationIssue[],
  context: ServerContext,
): ConversationFilter | null {
  const titleContains = optionalParam(query, 'title__contains', str(), issues);
  const sandboxId = context.options.filterConversationsBySandbox
    ? optionalParam(query, 'sandbox_id__eq', str(), issues)
    : undefined;
  const bounds = (['created_at__gte', 'created_at__lt', 'updated_at__gte', 'updated_at__lt'] as const).map(
    (name) => [name, optionalParam(query, name, datetime(), issues)] as const,
  );
  if (titleContains === INVALID || sandboxId === INVALID || bounds.some(([, value]) => value === INVALID)) {
    return null;
  }
  const titleMatches = titleContains === undefined ? () => true : sqlLikeContains(titleContains);
  return (conversation) => {
    if (!titleMatches(conversation.title)) return false;
    if (sandboxId !== undefined && conversation.sandbox_id !== sandboxId) return false;
    for (const [name, bound] of bounds) {
      if (bound === undefined || bound === INVALID) continue;
      const value = parseWireTime(
        name.startsWith('created') ? conversation.created_at : conversation.updated_at,
      );
      if (name.endsWith('__gte') ? value < bound : value >= bound) return false;
    }
    return true;
  };
}

function newestFirst(conversations: readonly ConversationRecord[]): ConversationRecord[] {
  return conversations
    .map((conversation, index) => ({ conversation, index }))
    .sort(
      (a, b) =>
        parseWireTime(b.conversation.created_at) - parseWireTime(a.conversation.created_at) ||
        b.index - a.index,
    )
    .map(({ conversation }) => conversation);
}

function search(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filter = readFilters(request.query, issues, context);
  const offset = pageOffsetParam(request.query, issues);
  const limit = limitParam(request.query, issues);
  const includeSubConversations = optionalParam(request.query, 'include_sub_conversations', bool(), issues);
  if (issues.length > 0 || filter === null || limit === INVALID || includeSubConversations === INVALID) {
    return validationFailed(issues);
  }
  const matching = newestFirst(context.state.conversations).filter(
    (conversation) =>
      filter(conversation) && (includeSubConversations === true || !conversation.parent_conversation_id),
  );
  const page = pageOf(matching, offset, limit);
  return json({
    items: page.items.map((conversation) =>
      conversationView(conversation, context.state, context.baseUrl(), false),
    ),
    next_page_id: page.next_page_id,
  });
}

function count(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filter = readFilters(request.query, issues, context);
  if (issues.length > 0 || filter === null) return validationFailed(issues);
  return json(context.state.conversations.filter(filter).length);
}

function batchGet(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  // `ids: list[str]`, checked by the handler: too many, then not UUIDs, both as 400s
  const raw = requiredListParam(request.query, 'ids', str(), issues);
  if (raw === INVALID) return validationFailed(issues);
  if (raw.length >= MAX_CONVERSATION_BATCH_IDS_EXCLUSIVE) {
    return json({ detail: 'Too many ids requested. Maximum is 99.' }, 400);
  }
  const parsed = raw.map((id) => uuid()(id, ['query', 'ids'], []));
  const invalid = raw.filter((_, index) => parsed[index] === INVALID);
  if (invalid.length > 0)
    return json({ detail: `Invalid UUID format for ids: ${pythonListRepr(invalid)}` }, 400);
  const ids = parsed.filter((id): id is string => id !== INVALID);
  return json(
    ids.map((id) => {
      const conversation = findConversation(context.state, id);
      return conversation ? conversationView(conversation, context.state, context.baseUrl(), true) : null;
    }),
  );
}

export const conversationRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/search$/, handle: search },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/count$/, handle: count },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations$/, handle: batchGet },
];
