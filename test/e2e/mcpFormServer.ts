// Test-server helpers specific to the MCP & Git Providers steps.
import type { RecordedRequest } from '../server';
import { addFault } from './serverControl';

/** `METHOD /path` of the requests the extension made to the settings routes. */
export function settingsCalls(requests: RecordedRequest[]): string[] {
  return requests
    .filter(
      (r) =>
        r.path === '/api/settings' ||
        r.path === '/api/add-git-providers' ||
        r.path === '/api/unset-provider-tokens',
    )
    .map((r) => `${r.method} ${r.path}`);
}

export function bodyOf(requests: RecordedRequest[], method: string, path: string): unknown {
  return requests.find((r) => r.method === method && r.path === path)?.body;
}

/** Stores provider tokens directly, as the OpenHands web UI would have. */
export async function seedProviderTokens(
  serverUrl: string,
  providerTokens: Record<string, { token: string; host: string | null }>,
): Promise<void> {
  const response = await fetch(new URL('/api/add-git-providers', serverUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider_tokens: providerTokens }),
  });
  if (!response.ok) throw new Error(`seeding provider tokens: HTTP ${response.status}`);
}

/** Makes the test server drop the connection of matching requests (unreachable, as seen by the client). */
export function dropRequests(serverUrl: string, pathRegex: string): Promise<void> {
  return addFault(serverUrl, { kind: 'reset', match: { pathRegex } });
}
