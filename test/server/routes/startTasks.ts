// Start task reads: search (filter by conversation and creation time, four sort orders), count and
// batch get by `ids`.
import { MAX_BATCH_IDS_EXCLUSIVE, MAX_PAGE_LIMIT } from '../batch';
import type { ServerContext } from '../context';
import { internalServerError, json, validationFailed, type Reply } from '../http';
import { START_TASK_SORT_ORDERS, type AppConversationStartTask, type StartTaskSortOrder } from '../models';
import { pageOf } from '../paging';
import { limitParam, optionalParam, pageOffsetParam, requiredListParam, type QueryParams } from '../query';
import type { Route, RouteRequest } from '../route';
import { datetime, uuid } from '../scalars';
import { findStartTask } from '../state';
import { parseWireTime } from '../time';
import { enumOf, INVALID, type ValidationIssue } from '../validation';

type TaskFilter = (task: AppConversationStartTask) => boolean;

function readFilters(query: QueryParams, issues: ValidationIssue[]): TaskFilter | null {
  const conversationId = optionalParam(query, 'conversation_id__eq', uuid(), issues);
  const createdGte = optionalParam(query, 'created_at__gte', datetime(), issues);
  if (conversationId === INVALID || createdGte === INVALID) return null;
  return (task) =>
    (conversationId === undefined || task.app_conversation_id === conversationId) &&
    (createdGte === undefined || parseWireTime(task.created_at) >= createdGte);
}

function sorted(
  tasks: readonly AppConversationStartTask[],
  order: StartTaskSortOrder,
): AppConversationStartTask[] {
  const field = order.startsWith('UPDATED') ? 'updated_at' : 'created_at';
  const direction = order.endsWith('_DESC') ? -1 : 1;
  return tasks
    .map((task, index) => ({ task, index }))
    .sort(
      (a, b) =>
        direction * (parseWireTime(a.task[field]) - parseWireTime(b.task[field]) || a.index - b.index),
    )
    .map(({ task }) => task);
}

function search(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filter = readFilters(request.query, issues);
  const sortOrder = optionalParam(request.query, 'sort_order', enumOf(START_TASK_SORT_ORDERS), issues);
  const offset = pageOffsetParam(request.query, issues);
  const limit = limitParam(request.query, issues);
  if (issues.length > 0 || filter === null || sortOrder === INVALID || limit === INVALID) {
    return validationFailed(issues);
  }
  if (limit > MAX_PAGE_LIMIT) return internalServerError();
  const matching = sorted(context.state.startTasks.filter(filter), sortOrder ?? 'CREATED_AT_DESC');
  return json(pageOf(matching, offset, limit));
}

function count(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const filter = readFilters(request.query, issues);
  if (issues.length > 0 || filter === null) return validationFailed(issues);
  return json(context.state.startTasks.filter(filter).length);
}

function batchGet(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const ids = requiredListParam(request.query, 'ids', uuid(), issues);
  if (ids === INVALID) return validationFailed(issues);
  if (ids.length >= MAX_BATCH_IDS_EXCLUSIVE) return internalServerError();
  return json(ids.map((id) => findStartTask(context.state, id) ?? null));
}

export const startTaskRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks\/search$/, handle: search },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks\/count$/, handle: count },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks$/, handle: batchGet },
];
