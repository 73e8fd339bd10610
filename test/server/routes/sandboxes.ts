// Sandboxes: search (newest first), batch get by `id`, start (query-only, no body), pause, resume and
// the DELETE whose path segment is ignored in favour of the required `sandbox_id` query parameter.
import type { ServerContext } from '../context';
import { internalServerError, json, notFound, validationFailed, type Reply } from '../http';
import { SANDBOX_ID_PREFIX } from '../ids';
import type { SandboxRecord } from '../models';
import { pageOf } from '../paging';
import { lastValue, limitParam, optionalParam, pageOffsetParam, requiredListParam } from '../query';
import type { Route, RouteRequest } from '../route';
import { findSandbox } from '../state';
import { parseWireTime } from '../time';
import { INVALID, issue, str, type ValidationIssue } from '../validation';
import { sandboxView } from '../views';

const SUCCESS = { success: true };

function newestFirst(sandboxes: readonly SandboxRecord[]): SandboxRecord[] {
  return sandboxes
    .map((sandbox, index) => ({ sandbox, index }))
    .sort(
      (a, b) =>
        parseWireTime(b.sandbox.created_at) - parseWireTime(a.sandbox.created_at) || b.index - a.index,
    )
    .map(({ sandbox }) => sandbox);
}

function search(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const offset = pageOffsetParam(request.query, issues);
  const limit = limitParam(request.query, issues);
  if (issues.length > 0 || limit === INVALID) return validationFailed(issues);
  const page = pageOf(newestFirst(context.state.sandboxes), offset, limit);
  return json({
    items: page.items.map((sandbox) => sandboxView(sandbox, context.state, context.baseUrl())),
    next_page_id: page.next_page_id,
  });
}

function batchGet(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const ids = requiredListParam(request.query, 'id', str(), issues);
  if (ids === INVALID) return validationFailed(issues);
  return json(
    ids.map((id) => {
      // Docker treats ids without the container prefix as not found.
      const sandbox = id.startsWith(SANDBOX_ID_PREFIX) ? findSandbox(context.state, id) : undefined;
      return sandbox ? sandboxView(sandbox, context.state, context.baseUrl()) : null;
    }),
  );
}

function start(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const specId = optionalParam(request.query, 'sandbox_spec_id', str(), issues);
  if (specId === INVALID) return validationFailed(issues);
  const spec =
    specId === undefined ? context.state.specs[0] : context.state.specs.find((s) => s.id === specId);
  // An unknown spec is a ValueError in the Docker backend: uncaught, so a plain 500.
  if (!spec) return internalServerError();
  const sandbox = context.sandboxes.start(spec.id);
  return json(sandboxView(sandbox, context.state, context.baseUrl()));
}

function pause(request: RouteRequest, context: ServerContext): Reply {
  return context.sandboxes.pause(request.params['sandboxId'] ?? '') ? json(SUCCESS) : notFound();
}

function resume(request: RouteRequest, context: ServerContext): Reply {
  return context.sandboxes.resume(request.params['sandboxId'] ?? '') ? json(SUCCESS) : notFound();
}

function remove(request: RouteRequest, context: ServerContext): Reply {
  const sandboxId = lastValue(request.query, 'sandbox_id');
  if (sandboxId === undefined) {
    return validationFailed([issue('missing', ['query', 'sandbox_id'], 'Field required', null)]);
  }
  return context.sandboxes.remove(sandboxId) ? json(SUCCESS) : notFound();
}

export const sandboxRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/sandboxes\/search$/, handle: search },
  { method: 'GET', pattern: /^\/api\/v1\/sandboxes$/, handle: batchGet },
  { method: 'POST', pattern: /^\/api\/v1\/sandboxes$/, handle: start },
  { method: 'POST', pattern: /^\/api\/v1\/sandboxes\/(?<sandboxId>[^/]+)\/pause$/, handle: pause },
  { method: 'POST', pattern: /^\/api\/v1\/sandboxes\/(?<sandboxId>[^/]+)\/resume$/, handle: resume },
  { method: 'DELETE', pattern: /^\/api\/v1\/sandboxes\/(?<ignoredPathId>[^/]+)$/, handle: remove },
];
