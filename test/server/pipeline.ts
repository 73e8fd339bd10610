// One request, in the order the real stack applies things: rate-limit middleware, (injected faults),
// SaaS auth middleware, routing (unknown → SPA/405), body decoding (json_invalid 422), the
// SESSION_API_KEY dependency (401), then the handler's own 422s.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionKeyRejection, hostedAuthRejection } from './auth';
import { parseRequestBody, type RequestBody } from './body';
import type { ServerContext } from './context';
import { applyDrift } from './drift';
import {
  internalServerError,
  json,
  methodNotAllowed,
  text,
  validationFailed,
  writeCutReply,
  writeReply,
  type Reply,
} from './http';
import { queryParamsOf } from './query';
import type { RateLimiter } from './rateLimiter';
import { recordableBody, type RecordedRequest } from './requestLog';
import { matchRoute, type Route } from './route';
import { agentControlRoutes } from './routes/agentControl';
import { handleAgentServerApi, isAgentServerApiPath } from './routes/agentServer';
import { controlRoutes } from './routes/control';
import { conversationRoutes } from './routes/conversations';
import { gitProviderRoutes } from './routes/gitProviders';
import { llmProfileRoutes } from './routes/llmProfiles';
import { modelCatalogueRoutes } from './routes/modelCatalogue';
import { openapiRoutes } from './routes/openapi';
import { sandboxPageRoutes } from './routes/sandboxPages';
import { sandboxRoutes } from './routes/sandboxes';
import { settingsRoutes } from './routes/settings';
import { specRoutes } from './routes/specs';
import { startConversationRoutes } from './routes/startConversation';
import { startTaskRoutes } from './routes/startTasks';
import { statusRoutes } from './routes/status';
import { conversationManageRoutes } from './routes/conversationManage';
import { pendingMessageRoutes } from './routes/pendingMessages';
import { switchProfileRoutes } from './routes/switchProfile';
import { v1SettingsRoutes } from './routes/v1Settings';
import { SPA_HTML } from './spa';

const ROUTES: readonly Route[] = [
  ...conversationRoutes,
  ...startConversationRoutes,
  ...startTaskRoutes,
  ...sandboxRoutes,
  ...specRoutes,
  ...settingsRoutes,
  ...v1SettingsRoutes,
  ...llmProfileRoutes,
  ...modelCatalogueRoutes,
  ...switchProfileRoutes,
  ...conversationManageRoutes,
  ...pendingMessageRoutes,
  ...gitProviderRoutes,
  ...openapiRoutes,
  ...sandboxPageRoutes,
  ...statusRoutes,
];

const CONTROL_ROUTES: readonly Route[] = [...controlRoutes, ...agentControlRoutes];

/** openhands-ai 1.11.0 has no legacy `/api/settings`, `/api/add-git-providers` or `/api/unset-provider-tokens`. */
const ROUTES_SINCE_1_11 = ROUTES.filter((route) => !route.legacyAuth);

/** A server before 1.11: the legacy settings routes only. */
const ROUTES_BEFORE_1_11 = ROUTES.filter((route) => !route.since1_11);

function routesFor(options: ServerContext['options']): readonly Route[] {
  if (!options.routesSince1_11) return ROUTES_BEFORE_1_11;
  return options.legacySettingsRoutes ? ROUTES : ROUTES_SINCE_1_11;
}

const identity = (body: unknown): unknown => body;

export interface PipelineDeps {
  context: ServerContext;
  rateLimiter: RateLimiter;
}

function readRawBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function statusOf(reply: Reply): number {
  return reply.kind === 'destroy' || reply.kind === 'hang' ? 0 : reply.status;
}

export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  deps: PipelineDeps,
): Promise<void> {
  const { context } = deps;
  response.on('error', () => undefined);
  let raw: Buffer;
  try {
    raw = await readRawBody(request);
  } catch {
    return;
  }
  const url = new URL(request.url ?? '/', 'http://server.invalid');
  const method = (request.method ?? 'GET').toUpperCase();
  const path = url.pathname;
  const query = queryParamsOf(url);
  if (path === '/__control' || path.startsWith('/__control/')) {
    return handleControl(request, response, context, { method, path, query, raw });
  }

  const record: RecordedRequest = {
    method,
    path,
    query,
    headers: flatHeaders(request),
    body: recordableBody(raw),
    status: 0,
    receivedAt: new Date().toISOString(),
  };
  context.requests.push(record);
  const onComplete = context.options.onRequestComplete;
  if (onComplete) response.once('close', () => onComplete(record));
  let drift = false;
  let cutAfterBytes: number | undefined;
  const send = (reply: Reply): void => {
    record.status = statusOf(reply);
    if (cutAfterBytes !== undefined)
      return writeCutReply(response, reply, cutAfterBytes, drift ? applyDrift : identity);
    writeReply(response, reply, drift ? applyDrift : identity);
  };

  try {
    if (isAgentServerApiPath(path)) {
      // A sandbox's agent server: its own key, not the app server's auth, rate limit or SPA.
      const fault = context.faults.evaluate(method, path);
      if (fault.latencyMs > 0) await context.timers.sleep(fault.latencyMs);
      drift = fault.drift;
      if (fault.reply) return send(fault.reply);
      return send(
        await handleAgentServerApi({ method, path, query, headers: request.headers, raw }, context),
      );
    }
    if (context.options.rateLimit && !path.startsWith('/assets')) {
      const decision = deps.rateLimiter.check(request.socket.remoteAddress ?? 'unknown');
      if (decision === 'reject')
        return send(json({ message: 'Too many requests' }, 429, { 'retry-after': '1' }));
      if (decision === 'delay') await context.timers.sleep(context.options.timings.rateLimitDelayMs);
    }
    const fault = context.faults.evaluate(method, path);
    if (fault.latencyMs > 0) await context.timers.sleep(fault.latencyMs);
    drift = fault.drift;
    cutAfterBytes = fault.cutAfterBytes;
    if (fault.reply) return send(fault.reply);
    if (path.startsWith('/api/')) {
      const rejection = hostedAuthRejection(request.headers, context.options.hostedAuth);
      if (rejection) return send(rejection);
    }
    const match = matchRoute(routesFor(context.options), method, path);
    if (!match) {
      // The SPA mount answers everything the API routes do not (StaticFiles only allows GET/HEAD).
      return send(
        method === 'GET' || method === 'HEAD'
          ? text(SPA_HTML, 200, 'text/html; charset=utf-8')
          : methodNotAllowed(),
      );
    }
    const body: RequestBody = match.route.readsBody
      ? parseRequestBody(raw, request.headers['content-type'])
      : { kind: 'absent' };
    if (body.kind === 'malformed') return send(validationFailed([body.issue]));
    // openhands-ai 1.11.0: every router, V1 included, declares `get_dependencies()`, so SESSION_API_KEY
    // guards all of /api/* (older servers guarded only the legacy routes; checked by test:real).
    if (path.startsWith('/api/')) {
      const rejection = sessionKeyRejection(request.headers, context.options.sessionApiKey);
      if (rejection) return send(rejection);
    }
    send(
      await match.route.handle(
        { method, path, params: match.params, query, body, headers: request.headers },
        context,
      ),
    );
  } catch {
    // Anything a handler throws is what Python would leave uncaught: Starlette's plain 500.
    if (!response.headersSent) send(internalServerError());
  }
}

interface ControlRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  raw: Buffer;
}

async function handleControl(
  request: IncomingMessage,
  response: ServerResponse,
  context: ServerContext,
  control: ControlRequest,
): Promise<void> {
  const match = matchRoute(CONTROL_ROUTES, control.method, control.path);
  if (!match) return writeReply(response, json({ error: 'Unknown control endpoint' }, 404), identity);
  const body = parseRequestBody(control.raw, 'application/json');
  if (body.kind === 'malformed')
    return writeReply(response, json({ error: 'Malformed JSON' }, 400), identity);
  try {
    const reply = await match.route.handle(
      {
        method: control.method,
        path: control.path,
        params: match.params,
        query: control.query,
        body,
        headers: request.headers,
      },
      context,
    );
    writeReply(response, reply, identity);
  } catch (error) {
    writeReply(response, json({ error: String(error) }, 500), identity);
  }
}
