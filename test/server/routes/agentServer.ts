// The REST side of the agent-server double (`<sandbox agent-server base>/api/...`, agent server
// 1.34.0): its own auth (the sandbox's key in X-Session-API-Key, else 401), none of the app
// server's SESSION_API_KEY, rate limit or SPA fallback. Order as FastAPI applies it: routing (404/405),
// JSON decoding (422), the key (401), parameters (422), the conversation (404), the handler.
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { countEvents, searchEvents, type EventFilters } from '../agentServer/eventSearch';
import { conversationInfo } from '../agentServer/conversationInfo';
import type { AgentConversation } from '../agentServer/conversations';
import { messageText, objectField, stringField, type AgentEvent } from '../agentServer/events';
import { normalizeTimestampParam } from '../agentServer/naiveTime';
import {
  bodyIssues,
  confirmationResponseSchema,
  sendMessageSchema,
  setConfirmationPolicySchema,
  toMessageContent,
} from '../agentServer/requests';
import { bodyInput, missingBodyIssue, parseRequestBody } from '../body';
import type { ServerContext } from '../context';
import { agentServerError as serverError, json, text, validationFailed, type Reply } from '../http';
import { dashedUuid } from '../ids';
import { lastValue, type QueryParams } from '../query';
import { matchRoute, type Route, type RouteRequest } from '../route';
import { uuid } from '../scalars';
import { findSandbox } from '../state';
import { INVALID, int, issue, type ValidationIssue } from '../validation';
import { agentFileRoutes } from './agentFiles';
import { agentSandboxIoRoutes } from './agentSandboxIo';

const API_PATH = /^\/__sandboxes\/(?<sandboxId>[^/]+)\/agent-server\/api(?:\/|$)/;
const SUCCESS = { success: true };
const MAX_EVENT_PAGE = 100;
const SORT_ORDERS = ['TIMESTAMP', 'TIMESTAMP_DESC'] as const;

export function isAgentServerApiPath(path: string): boolean {
  return API_PATH.test(path);
}

type Resolved = { ok: true; target: AgentConversation } | { ok: false; reply: Reply };

/** `conversation_id: UUID` (422 when malformed), then the lookup in this sandbox. */
function resolveConversation(
  request: RouteRequest,
  context: ServerContext,
  notFound: (dashed: string) => Reply,
): Resolved {
  const issues: ValidationIssue[] = [];
  const hex = uuid()(request.params['conversationId'] ?? '', ['path', 'conversation_id'], issues);
  if (hex === INVALID) return { ok: false, reply: validationFailed(issues) };
  const target = context.agent.conversationStore.find(hex, request.params['sandboxId'] ?? '');
  return target ? { ok: true, target } : { ok: false, reply: notFound(dashedUuid(hex)) };
}

const plainNotFound = (): Reply => json({ detail: 'Not Found' }, 404);
const eventsNotFound = (dashed: string): Reply => json({ detail: `Conversation not found: ${dashed}` }, 404);
const badRequest = (): Reply => json({ detail: 'Bad Request' }, 400);

type ParsedBody<T> = { ok: true; data: T } | { ok: false; reply: Reply };

function parseBody<T>(request: RouteRequest, schema: z.ZodType<T>): ParsedBody<T> {
  const input = bodyInput(request.body);
  if (!input.present) return { ok: false, reply: validationFailed([missingBodyIssue()]) };
  const result = schema.safeParse(input.value);
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, reply: validationFailed(bodyIssues(result.error, input.value)) };
}

function getConversation(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, plainNotFound);
  return resolved.ok ? json(conversationInfo(resolved.target)) : resolved.reply;
}

function batchGetConversations(request: RouteRequest, context: ServerContext): Reply {
  const raw = request.query['ids'] ?? [];
  if (raw.length === 0) return validationFailed([issue('missing', ['query', 'ids'], 'Field required', null)]);
  const issues: ValidationIssue[] = [];
  const ids = raw.map((id, index) => uuid()(id, ['query', 'ids', index], issues));
  if (issues.length > 0) return validationFailed(issues);
  if (ids.length >= 100) return serverError('');
  const sandboxId = request.params['sandboxId'] ?? '';
  return json(
    ids.map((hex) => {
      const target = hex === INVALID ? null : context.agent.conversationStore.find(hex, sandboxId);
      return target ? conversationInfo(target) : null;
    }),
  );
}

/** The last FinishAction message or agent text reply, whichever came last; "" before either. */
function finalResponse(events: readonly AgentEvent[]): string {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!event) continue;
    if (event.kind === 'ActionEvent') {
      const action = objectField(event, 'action');
      if (action?.['kind'] === 'FinishAction') return stringField(action, 'message') ?? '';
    }
    if (event.kind === 'MessageEvent' && event.source === 'agent') return messageText(event) ?? '';
  }
  return '';
}

function agentFinalResponse(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, plainNotFound);
  return resolved.ok ? json({ response: finalResponse(resolved.target.agent.events) }) : resolved.reply;
}

function run(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, plainNotFound);
  if (!resolved.ok) return resolved.reply;
  if (context.agent.runner.start(resolved.target) === 'already_running') {
    return json({ detail: 'Conversation already running. Wait for completion or pause first.' }, 409);
  }
  return json(SUCCESS);
}

function pause(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, badRequest);
  if (!resolved.ok) return resolved.reply;
  context.agent.runner.pause(resolved.target);
  return json(SUCCESS);
}

function interrupt(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, badRequest);
  if (!resolved.ok) return resolved.reply;
  context.agent.runner.interrupt(resolved.target);
  return json(SUCCESS);
}

function setConfirmationPolicy(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, plainNotFound);
  if (!resolved.ok) return resolved.reply;
  const body = parseBody(request, setConfirmationPolicySchema);
  if (!body.ok) return body.reply;
  context.agent.runner.setConfirmationPolicy(resolved.target, body.data.policy);
  return json(SUCCESS);
}

/** The filters search and count share; issues are recorded for the 422. */
function readFilters(query: QueryParams, issues: ValidationIssue[]): EventFilters {
  const filters: EventFilters = {};
  const kind = lastValue(query, 'kind');
  const source = lastValue(query, 'source');
  const body = lastValue(query, 'body');
  if (kind !== undefined) filters.kind = kind;
  if (source !== undefined) filters.source = source;
  if (body !== undefined) filters.body = body;
  for (const [name, field] of [
    ['timestamp__gte', 'timestampGte'],
    ['timestamp__lt', 'timestampLt'],
  ] as const) {
    const raw = lastValue(query, name);
    if (raw === undefined) continue;
    const normalized = normalizeTimestampParam(raw);
    if (normalized === null) {
      issues.push(
        issue('datetime_from_date_parsing', ['query', name], 'Input should be a valid datetime or date', raw),
      );
    } else filters[field] = normalized;
  }
  return filters;
}

function searchEventsRoute(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filters = readFilters(request.query, issues);
  const rawLimit = lastValue(request.query, 'limit');
  const limit = rawLimit === undefined ? MAX_EVENT_PAGE : int()(rawLimit, ['query', 'limit'], issues);
  if (limit !== INVALID && limit <= 0) {
    issues.push(
      issue('greater_than', ['query', 'limit'], 'Input should be greater than 0', rawLimit, { gt: 0 }),
    );
  }
  const sortOrder = lastValue(request.query, 'sort_order') ?? 'TIMESTAMP';
  if (!(SORT_ORDERS as readonly string[]).includes(sortOrder)) {
    issues.push(
      issue('enum', ['query', 'sort_order'], "Input should be 'TIMESTAMP' or 'TIMESTAMP_DESC'", sortOrder, {
        expected: "'TIMESTAMP' or 'TIMESTAMP_DESC'",
      }),
    );
  }
  if (issues.length > 0 || limit === INVALID) return validationFailed(issues);
  const resolved = resolveConversation(request, context, eventsNotFound);
  if (!resolved.ok) return resolved.reply;
  // `assert limit <= 100` in the router: an uncaught AssertionError.
  if (limit > MAX_EVENT_PAGE) return serverError('');
  const pageId = lastValue(request.query, 'page_id');
  const page = searchEvents(resolved.target.agent.events, {
    // a hostile server answers every older page as the newest one
    pageId: context.agent.settings.pagingHostility && pageId !== undefined ? undefined : pageId,
    limit,
    descending: sortOrder === 'TIMESTAMP_DESC',
    filters,
  });
  const hostility = pageId === undefined ? null : context.agent.settings.pagingHostility;
  if (hostility === null) return json(page);
  return json({ items: hostility === 'empty' ? [] : page.items, next_page_id: `endless-${++endlessPages}` });
}

/** The fresh `next_page_id`s a hostile server names, never the same twice. */
let endlessPages = 0;

function countEventsRoute(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filters = readFilters(request.query, issues);
  if (issues.length > 0) return validationFailed(issues);
  const resolved = resolveConversation(request, context, eventsNotFound);
  if (!resolved.ok) return resolved.reply;
  return json(countEvents(resolved.target.agent.events, filters));
}

/** Through FastAPI's response model: `parent_id` is present (nulls the double does not keep stay absent). */
function getEvent(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, eventsNotFound);
  if (!resolved.ok) return resolved.reply;
  const eventId = request.params['eventId'] ?? '';
  const event = resolved.target.agent.events.find((candidate) => candidate.id === eventId);
  if (!event) return serverError(`'Unknown event_id: ${eventId}'`);
  const { kind, ...rest } = event;
  return json({ ...rest, parent_id: null, kind });
}

function sendMessage(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, eventsNotFound);
  if (!resolved.ok) return resolved.reply;
  const body = parseBody(request, sendMessageSchema);
  if (!body.ok) return body.reply;
  if (body.data.role !== 'user') return serverError('');
  context.agent.runner.sendMessage(resolved.target, toMessageContent(body.data.content), body.data.run);
  return json(SUCCESS);
}

function respondToConfirmation(request: RouteRequest, context: ServerContext): Reply {
  const resolved = resolveConversation(request, context, eventsNotFound);
  if (!resolved.ok) return resolved.reply;
  const body = parseBody(request, confirmationResponseSchema);
  if (!body.ok) return body.reply;
  context.agent.runner.respondToConfirmation(resolved.target, body.data.accept, body.data.reason);
  return json(SUCCESS);
}

function apiPath(rest: string): RegExp {
  return new RegExp(`^/__sandboxes/(?<sandboxId>[^/]+)/agent-server/api/conversations${rest}$`);
}

const CONVERSATION = '/(?<conversationId>[^/]+)';

export const agentServerRoutes: Route[] = [
  { method: 'GET', pattern: apiPath(''), handle: batchGetConversations },
  { method: 'GET', pattern: apiPath(CONVERSATION), handle: getConversation },
  { method: 'GET', pattern: apiPath(`${CONVERSATION}/agent_final_response`), handle: agentFinalResponse },
  { method: 'POST', pattern: apiPath(`${CONVERSATION}/run`), handle: run },
  { method: 'POST', pattern: apiPath(`${CONVERSATION}/pause`), handle: pause },
  { method: 'POST', pattern: apiPath(`${CONVERSATION}/interrupt`), handle: interrupt },
  {
    method: 'POST',
    pattern: apiPath(`${CONVERSATION}/confirmation_policy`),
    readsBody: true,
    handle: setConfirmationPolicy,
  },
  { method: 'GET', pattern: apiPath(`${CONVERSATION}/events/search`), handle: searchEventsRoute },
  { method: 'GET', pattern: apiPath(`${CONVERSATION}/events/count`), handle: countEventsRoute },
  {
    method: 'POST',
    pattern: apiPath(`${CONVERSATION}/events/respond_to_confirmation`),
    readsBody: true,
    handle: respondToConfirmation,
  },
  { method: 'GET', pattern: apiPath(`${CONVERSATION}/events/(?<eventId>[^/]+)`), handle: getEvent },
  { method: 'POST', pattern: apiPath(`${CONVERSATION}/events`), readsBody: true, handle: sendMessage },
];

/** Conversations and events, then the git and file routes, the upload and commands on the sandbox directory. */
const allRoutes: readonly Route[] = [...agentServerRoutes, ...agentFileRoutes, ...agentSandboxIoRoutes];

export interface AgentServerRequest {
  method: string;
  path: string;
  query: QueryParams;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

function sessionKey(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['x-session-api-key'];
  return Array.isArray(value) ? value[0] : value;
}

export async function handleAgentServerApi(
  request: AgentServerRequest,
  context: ServerContext,
): Promise<Reply> {
  const sandboxId = decodeURIComponent(API_PATH.exec(request.path)?.groups?.['sandboxId'] ?? '');
  const sandbox = findSandbox(context.state, sandboxId);
  if (sandbox?.status !== 'RUNNING') return text('Sandbox is not running', 503);
  const match = matchRoute(allRoutes, request.method, request.path);
  if (!match) {
    const otherMethod = allRoutes.some((route) => route.pattern.test(request.path));
    return otherMethod ? json({ detail: 'Method Not Allowed' }, 405) : json({ detail: 'Not Found' }, 404);
  }
  const body = match.route.readsBody
    ? parseRequestBody(request.raw, request.headers['content-type'])
    : ({ kind: 'absent' } as const);
  if (body.kind === 'malformed') return validationFailed([body.issue]);
  if (sessionKey(request.headers) !== sandbox.session_api_key) return json({ detail: 'Unauthorized' }, 401);
  return match.route.handle(
    {
      method: request.method,
      path: request.path,
      params: match.params,
      query: request.query,
      body,
      headers: request.headers,
      raw: request.raw,
    },
    context,
  );
}
