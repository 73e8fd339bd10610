// Route table types and matching. A path that matches no route (for the method) falls through to the
// SPA mount, like Starlette routing with the frontend mounted at `/`.
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestBody } from './body';
import type { ServerContext } from './context';
import type { Reply } from './http';
import type { QueryParams } from './query';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteRequest {
  method: string;
  path: string;
  /** Percent-decoded named groups of the route pattern. */
  params: Record<string, string>;
  query: QueryParams;
  body: RequestBody;
  headers: IncomingHttpHeaders;
  /** The body's bytes as sent (an upload's multipart form); the agent server's routes only. */
  raw?: Buffer;
}

export interface Route {
  method: HttpMethod;
  /** Anchored; named groups become `params`. */
  pattern: RegExp;
  /** The handler declares a body parameter, so malformed JSON is a 422 before any auth check. */
  readsBody?: boolean;
  /** A legacy `/api/*` route (documentation only: SESSION_API_KEY now guards every `/api/*` route). */
  legacyAuth?: boolean;
  /** Added by openhands-ai 1.11 (the v1 settings, profiles, model catalogue, switch_profile). */
  since1_11?: boolean;
  handle(request: RouteRequest, context: ServerContext): Reply | Promise<Reply>;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) params[name] = safeDecode(value);
    return { route, params };
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
