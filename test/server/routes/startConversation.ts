// POST /api/v1/app-conversations (returns the first, WORKING task) and its streaming variant, which
// keeps the response open and writes every task update as an element of a JSON array.
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { internalServerError, json, validationFailed, type Reply } from '../http';
import type { AppConversationStartRequest, AppConversationStartTask } from '../models';
import type { Route, RouteRequest } from '../route';
import { inheritFromParent, startRequestValidator } from '../startRequest';
import { INVALID, type ValidationIssue } from '../validation';

function isFinal(task: AppConversationStartTask): boolean {
  return task.status === 'READY' || task.status === 'ERROR';
}

function readStartRequest(
  request: RouteRequest,
  context: ServerContext,
): AppConversationStartRequest | Reply {
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const issues: ValidationIssue[] = [];
  const parsed = startRequestValidator(input.value, ['body'], issues);
  if (parsed === INVALID) return validationFailed(issues);
  return inheritFromParent(parsed, context.state) ?? internalServerError();
}

function isReply(value: AppConversationStartRequest | Reply): value is Reply {
  return 'kind' in value;
}

function start(request: RouteRequest, context: ServerContext): Reply {
  const startRequest = readStartRequest(request, context);
  if (isReply(startRequest)) return startRequest;
  return json(structuredClone(context.startTasks.begin(startRequest)));
}

function streamStart(request: RouteRequest, context: ServerContext): Reply {
  const startRequest = readStartRequest(request, context);
  if (isReply(startRequest)) return startRequest;
  const task = context.startTasks.begin(startRequest);
  // Subscribe before returning so no update can slip between now and the first write.
  const updates: AppConversationStartTask[] = [structuredClone(task)];
  let deliver: ((snapshot: AppConversationStartTask) => void) | null = null;
  const unsubscribe = context.startTasks.subscribe(task.id, (snapshot) => {
    if (deliver) deliver(snapshot);
    else updates.push(snapshot);
  });
  return {
    kind: 'stream',
    status: 200,
    contentType: 'application/json',
    run(sink) {
      sink.onClose(unsubscribe);
      let first = true;
      deliver = (snapshot) => {
        sink.writeRaw(first ? '[\n' : ',\n');
        first = false;
        sink.writeJson(snapshot);
        if (isFinal(snapshot)) {
          unsubscribe();
          sink.writeRaw(']');
          sink.end();
        }
      };
      for (const snapshot of updates.splice(0)) deliver(snapshot);
    },
  };
}

export const startConversationRoutes: Route[] = [
  { method: 'POST', pattern: /^\/api\/v1\/app-conversations$/, readsBody: true, handle: start },
  {
    method: 'POST',
    pattern: /^\/api\/v1\/app-conversations\/stream-start$/,
    readsBody: true,
    handle: streamStart,
  },
];
