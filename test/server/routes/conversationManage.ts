// Keeping or closing a conversation, as openhands-ai 1.11.0 serves it
// (app_conversation/app_conversation_router.py):
// - `PATCH /api/v1/app-conversations/{id}` takes `AppConversationUpdateRequest` (title, public,
//   selected_repository, selected_branch, git_provider; unknown keys ignored), sets only the fields
//   sent and answers the AppConversation; 404 `unknown_app_conversation` for an unknown id.
// - `DELETE /api/v1/app-conversations/{id}`: 400 `Invalid conversation ID format`, 404 `Conversation
//   not found`, else `{"success": true}`; the conversation and its sub-conversations go, and the
//   sandbox is deleted afterwards when no other conversation references it (`_finalize_sandbox_delete`).
// - `GET /api/v1/app-conversations/{id}/download`: `application/zip`, streamed (no length), with
//   `meta.json` and `event_NNNNNN_<event id>.json` per event; 404 `Conversation not found: <uuid>`;
//   413 past `export_max_events` (10000).
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { internalServerError, json, validationFailed, type Reply } from '../http';
import { dashedUuid } from '../ids';
import type { ConversationRecord, ProviderType } from '../models';
import type { Route, RouteRequest } from '../route';
import { normalizeUuid, uuid } from '../scalars';
import { findConversation } from '../state';
import { INVALID, isPlainObject, issue, type ValidationIssue } from '../validation';
import { conversationView } from '../views';
import { zipArchive } from '../zipArchive';

/** The service's `export_max_events`. */
export const EXPORT_MAX_EVENTS = 10_000;

const UPDATABLE = ['title', 'selected_repository', 'selected_branch', 'git_provider'] as const;

function update(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const input = bodyInput(request.body);
  if (!input.present) issues.push(missingBodyIssue());
  else if (!isPlainObject(input.value))
    issues.push(
      issue('model_attributes_type', ['body'], 'Input should be a valid dictionary or object', input.value),
    );
  else {
    for (const field of UPDATABLE) {
      const value = input.value[field];
      if (value !== undefined && value !== null && typeof value !== 'string')
        issues.push(issue('string_type', ['body', field], 'Input should be a valid string', value));
    }
    const visible = input.value.public;
    if (visible !== undefined && visible !== null && typeof visible !== 'boolean')
      issues.push(issue('bool_type', ['body', 'public'], 'Input should be a valid boolean', visible));
  }
  if (issues.length > 0 || !input.present || !isPlainObject(input.value)) return validationFailed(issues);
  // `UUID(conversation_id)` in the handler: a ValueError nothing catches
  const hex = normalizeUuid(request.params.conversationId ?? '');
  if (hex === null) return internalServerError();
  const conversation = findConversation(context.state, hex);
  if (!conversation) return json({ detail: 'unknown_app_conversation' }, 404);
  const body = input.value;
  for (const field of UPDATABLE) {
    if (!(field in body)) continue;
    const value = body[field] as string | null;
    if (field === 'git_provider') conversation.git_provider = value as ProviderType | null;
    else conversation[field] = value;
  }
  conversation.updated_at = context.clock.now();
  return json(conversationView(conversation, context.state, context.baseUrl(), true));
}

function remove(request: RouteRequest, context: ServerContext): Reply {
  const hex = normalizeUuid(request.params.conversationId ?? '');
  if (hex === null) return json({ detail: 'Invalid conversation ID format' }, 400);
  const conversation = findConversation(context.state, hex);
  if (!conversation) return json({ detail: 'Conversation not found' }, 404);
  const gone = new Set<ConversationRecord>([
    conversation,
    ...context.state.conversations.filter((other) => other.parent_conversation_id === conversation.id),
  ]);
  context.state.conversations = context.state.conversations.filter((other) => !gone.has(other));
  const goneIds = new Set([...gone].map((record) => record.id));
  context.state.startTasks = context.state.startTasks.filter(
    (task) => !task.app_conversation_id || !goneIds.has(normalizeUuid(task.app_conversation_id) ?? ''),
  );
  for (const record of gone) context.state.agentConversations.delete(record.id);
  // after the reply, in the background: the sandbox goes when nothing references it any more
  const sandboxId = conversation.sandbox_id;
  context.timers.after(0, () => {
    if (!context.state.conversations.some((other) => other.sandbox_id === sandboxId))
      context.sandboxes.remove(sandboxId);
  });
  return json({ success: true });
}

function download(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const hex = uuid()(request.params.conversationId ?? '', ['path', 'conversation_id'], issues);
  if (hex === INVALID) return validationFailed(issues);
  const conversation = findConversation(context.state, hex);
  if (!conversation) return json({ detail: `Conversation not found: ${dashedUuid(hex)}` }, 404);
  // the events the agent server sent back to the app server, as its own log holds them
  const events = context.agent.events(conversation.id);
  if (events.length > EXPORT_MAX_EVENTS)
    return json(
      {
        detail: `Conversation export contains ${events.length} events, exceeding the limit of ${EXPORT_MAX_EVENTS}`,
      },
      413,
    );
  const meta = conversationView(conversation, context.state, context.baseUrl(), true);
  const entries = [
    { name: 'meta.json', text: JSON.stringify(meta, null, 2) },
    ...events.map((event, index) => ({
      name: `event_${String(index).padStart(6, '0')}_${event.id}.json`,
      text: JSON.stringify(event, null, 2),
    })),
  ];
  return {
    kind: 'chunked',
    status: 200,
    contentType: 'application/zip',
    body: zipArchive(entries),
    headers: { 'content-disposition': `attachment; filename="conversation_${dashedUuid(hex)}.zip"` },
  };
}

const ONE = /^\/api\/v1\/app-conversations\/(?<conversationId>[^/]+)$/;

export const conversationManageRoutes: Route[] = [
  { since1_11: true, method: 'PATCH', pattern: ONE, readsBody: true, handle: update },
  { since1_11: true, method: 'DELETE', pattern: ONE, handle: remove },
  {
    since1_11: true,
    method: 'GET',
    pattern: /^\/api\/v1\/app-conversations\/(?<conversationId>[^/]+)\/download$/,
    handle: download,
  },
];
