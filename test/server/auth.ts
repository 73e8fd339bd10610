// The two auth schemes: OSS's optional SESSION_API_KEY on every /api/* route (openhands-ai 1.11.0), and a
// SaaS-like API key required on every API route.
import type { IncomingHttpHeaders } from 'node:http';
import { json, type Reply } from './http';
import type { HostedAuthOptions } from './options';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** OSS `check_session_api_key` dependency: exact match, else 401 (also when missing). */
export function sessionKeyRejection(
  headers: IncomingHttpHeaders,
  sessionApiKey: string | null,
): Reply | null {
  if (sessionApiKey === null) return null;
  if (header(headers, 'x-session-api-key') === sessionApiKey) return null;
  return json({ detail: 'Unauthorized' }, 401);
}

/** SaaS credential lookup: the configured header, with X-Session-API-Key as the fallback API key. */
export function hostedAuthRejection(
  headers: IncomingHttpHeaders,
  hostedAuth: HostedAuthOptions | null,
): Reply | null {
  if (hostedAuth === null) return null;
  const presented =
    hostedAuth.header === 'authorization-bearer'
      ? /^Bearer\s+(.+)$/i.exec(header(headers, 'authorization') ?? '')?.[1]?.trim()
      : header(headers, 'x-access-token');
  const fallback = header(headers, 'x-session-api-key');
  if (presented === hostedAuth.apiKey || fallback === hostedAuth.apiKey) return null;
  return json({ error: 'NoCredentialsError' }, 401);
}
