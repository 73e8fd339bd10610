// Sandbox specs: a preset list with offset paging, and batch get by `id` (up to 100 ids).
import { MAX_SPEC_BATCH_IDS } from '../batch';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { pageOf } from '../paging';
import { limitParam, pageOffsetParam, requiredListParam } from '../query';
import type { Route, RouteRequest } from '../route';
import { INVALID, str, type ValidationIssue } from '../validation';

function search(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const offset = pageOffsetParam(request.query, issues);
  const limit = limitParam(request.query, issues);
  if (issues.length > 0 || limit === INVALID) return validationFailed(issues);
  return json(pageOf(context.state.specs, offset, limit));
}

function batchGet(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const ids = requiredListParam(request.query, 'id', str(), issues);
  if (ids === INVALID) return validationFailed(issues);
  if (ids.length > MAX_SPEC_BATCH_IDS) {
    return json(
      { detail: `Cannot request more than ${MAX_SPEC_BATCH_IDS} sandbox specs at once, got ${ids.length}` },
      400,
    );
  }
  return json(ids.map((id) => context.state.specs.find((spec) => spec.id === id) ?? null));
}

export const specRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/sandbox-specs\/search$/, handle: search },
  { method: 'GET', pattern: /^\/api\/v1\/sandbox-specs$/, handle: batchGet },
];
