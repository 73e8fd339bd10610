// `POST /api/v1/conversations/{id}/pending-messages` of openhands-ai 1.11.0
// (app_server/pending_messages/pending_message_router.py): `{content: [TextContent | ImageContent],
// role = "user"}`, the id a conversation's or a start task's (`task-<hex>`), checked against nothing.
// 400 `Invalid request body` for a body that is not JSON, 400 `content must be a non-empty list`,
// 400 `Invalid content format: …`; 429 once ten wait for the id; else 201 `{id, queued: true,
// position}`. They are delivered when the start task turns READY (startTaskRunner.ts), then dropped.
import type { ServerContext } from '../context';
import { json, type Reply } from '../http';
import { dashedUuid } from '../ids';
import type { ImageContent, TextContent } from '../models';
import type { Route, RouteRequest } from '../route';
import { messageContent } from '../startRequest';
import { INVALID, isPlainObject, list, type ValidationIssue } from '../validation';

export const MAX_PENDING_MESSAGES = 10;

function queue(request: RouteRequest, context: ServerContext): Reply {
  const body = request.body;
  if (body.kind !== 'json' || !isPlainObject(body.value))
    return json({ detail: 'Invalid request body' }, 400);
  const raw = body.value.content;
  const role = typeof body.value.role === 'string' ? body.value.role : 'user';
  if (!Array.isArray(raw) || raw.length === 0)
    return json({ detail: 'content must be a non-empty list' }, 400);
  const issues: ValidationIssue[] = [];
  const content = list(messageContent)(raw, [], issues);
  if (content === INVALID || issues.length > 0)
    return json({ detail: `Invalid content format: ${issues.length} validation errors` }, 400);
  const conversationId = request.params.conversationId ?? '';
  const waiting = context.state.pendingMessages.filter(
    (message) => message.conversation_id === conversationId,
  );
  if (waiting.length >= MAX_PENDING_MESSAGES)
    return json({ detail: 'Too many pending messages. Maximum 10 messages per conversation.' }, 429);
  const id = dashedUuid(context.ids.uuidHex());
  context.state.pendingMessages.push({
    id,
    conversation_id: conversationId,
    role,
    content: content as (TextContent | ImageContent)[],
  });
  return json({ id, queued: true, position: waiting.length + 1 }, 201);
}

export const pendingMessageRoutes: Route[] = [
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/conversations\/(?<conversationId>[^/]+)\/pending-messages$/,
    readsBody: true,
    handle: queue,
  },
];
