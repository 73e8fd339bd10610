/**
 * Where a server keeps the user's settings and git provider tokens. OpenHands 1.11 moved them from
 * the legacy `/api/*` routes (gone there) to `/api/v1/settings` and `/api/v1/secrets/git-providers`;
 * older servers only have the legacy ones. The client tries the legacy route first (so an older server
 * costs nothing extra) and remembers which answered.
 */
import { ApiError } from './errors';

export interface SettingsRoutes {
  generation: 'legacy' | 'v1';
  settings: string;
  gitProviders: string;
  /** Removes every stored provider token. */
  unsetGitProviders: { method: 'POST' | 'DELETE'; path: string };
}

export const LEGACY_SETTINGS_ROUTES: SettingsRoutes = {
  generation: 'legacy',
  settings: '/api/settings',
  gitProviders: '/api/add-git-providers',
  unsetGitProviders: { method: 'POST', path: '/api/unset-provider-tokens' },
};

export const V1_SETTINGS_ROUTES: SettingsRoutes = {
  generation: 'v1',
  settings: '/api/v1/settings',
  gitProviders: '/api/v1/secrets/git-providers',
  unsetGitProviders: { method: 'DELETE', path: '/api/v1/secrets/git-providers' },
};

/**
 * The route does not exist on this server: FastAPI's own 404 or 405, or the web UI's page served for
 * unknown paths. A 404 "Settings not found" comes from the route itself (no settings stored yet).
 */
export function routeMissing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'not_found') return !/settings not found/i.test(error.serverMessage ?? '');
  return error.kind === 'invalid_response' && error.status === 200;
}

/**
 * Whether a failed call still proves the route exists: its own "Settings not found", or a refusal of
 * the request itself (400, 422). A 5xx, 429, 401 or 403 proves nothing (a proxy or a guard in front
 * may answer for any path), so the next call looks again.
 */
export function routeExists(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'not_found') return /settings not found/i.test(error.serverMessage ?? '');
  return error.kind === 'validation';
}
