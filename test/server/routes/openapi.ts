// `/openapi.json` is left enabled on the real server. This is a small index of the emulated routes,
// not the full schema: enough for a client's "is this an OpenHands server?" probe.
import { json, type Reply } from '../http';
import type { ServerContext } from '../context';
import type { Route, RouteRequest } from '../route';

const PATHS: Record<string, string[]> = {
  '/api/v1/app-conversations/search': ['get'],
  '/api/v1/app-conversations/count': ['get'],
  '/api/v1/app-conversations': ['get', 'post'],
  '/api/v1/app-conversations/stream-start': ['post'],
  '/api/v1/app-conversations/start-tasks/search': ['get'],
  '/api/v1/app-conversations/start-tasks/count': ['get'],
  '/api/v1/app-conversations/start-tasks': ['get'],
  '/api/v1/sandboxes/search': ['get'],
  '/api/v1/sandboxes': ['get', 'post'],
  '/api/v1/sandboxes/{sandbox_id}/pause': ['post'],
  '/api/v1/sandboxes/{sandbox_id}/resume': ['post'],
  '/api/v1/sandboxes/{id}': ['delete'],
  '/api/v1/sandbox-specs/search': ['get'],
  '/api/v1/sandbox-specs': ['get'],
  '/api/add-git-providers': ['post'],
  '/api/settings': ['get', 'post'],
  '/api/unset-provider-tokens': ['post'],
};

/** Keeping or closing a conversation (openhands-ai 1.11.0), listed only by a server that has them. */
const PATHS_SINCE_1_11: Record<string, string[]> = {
  '/api/v1/app-conversations/{conversation_id}': ['patch', 'delete'],
  '/api/v1/app-conversations/{conversation_id}/download': ['get'],
  '/api/v1/conversations/{conversation_id}/pending-messages': ['post'],
};

function openapiDocument(_request: RouteRequest, context: ServerContext): Reply {
  const listed = context.options.routesSince1_11 ? { ...PATHS, ...PATHS_SINCE_1_11 } : PATHS;
  const paths = Object.fromEntries(
    Object.entries(listed).map(([path, methods]) => [
      path,
      Object.fromEntries(
        methods.map((method) => [method, { responses: { '200': { description: 'Successful Response' } } }]),
      ),
    ]),
  );
  return json({ openapi: '3.1.0', info: { title: 'OpenHands', version: '1.11.0' }, paths });
}

export const openapiRoutes: Route[] = [
  { method: 'GET', pattern: /^\/openapi\.json$/, handle: openapiDocument },
];
