// The status router (openhands/app_server/status/status_router.py in openhands-ai 1.11.0): what a
// launcher or a load balancer polls. Outside /api, so never behind SESSION_API_KEY.
import { json } from '../http';
import type { Route } from '../route';

export const statusRoutes: Route[] = [
  { method: 'GET', pattern: /^\/alive$/, handle: () => json({ status: 'ok' }) },
  { method: 'GET', pattern: /^\/health$/, handle: () => json('OK') },
  { method: 'GET', pattern: /^\/ready$/, handle: () => json('OK') },
];
