// Start task reads: search (filter by conversation and creation time, four sort orders), count and
// batch get by `ids`.
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { START_TASK_SORT_ORDERS, type AppConversationStartTask, type StartTaskSortOrder } from '../models';
import { pageOf } from '../paging';
import { limitParam, optionalParam, pageOffsetParam, requiredListParam, type QueryParams } from '../query';
import type { Route, RouteRequest } from '../route';
import { datetime, uuid } from '../scalars';
import { findStartTask } from '../state';
import { parseWireTime } from '../time';
import { enumOf, INVALID, type ValidationIssue } from '../validation';

type TaskFilter = (task: AppConversationStartTask) => boolean;

/**
 * A task as read back from the database: openhands-ai 1.11.0's SQL store returns naive datetimes, so
 * search and batch get send `created_at`/`updated_at` without `Z` (the POST reply, built in memory,
 * has it). Seen by test:real.
 */
function fromDatabase(task: AppConversationStartTask): AppConversationStartTask {
  const naive = (time: string) => time.replace(/Z$/, '');
  return { ...task, created_at: naive(task.created_at), updated_at: naive(task.updated_at) };
}

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
  const matching = sorted(context.state.startTasks.filter(filter), sortOrder ?? 'CREATED_AT_DESC');
  const page = pageOf(matching, offset, limit);
  return json({ ...page, items: page.items.map(fromDatabase) });
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
  return json(
    ids.map((id) => {
      const task = findStartTask(context.state, id);
      return task ? fromDatabase(task) : null;
    }),
  );
}

export const startTaskRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks\/search$/, handle: search },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks\/count$/, handle: count },
  { method: 'GET', pattern: /^\/api\/v1\/app-conversations\/start-tasks$/, handle: batchGet },
];
