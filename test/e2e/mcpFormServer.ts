// What the test server received and holds, read over its control API (the UI tests run out of process).
import type { RecordedRequest, ServerState } from '../server';

async function control<T>(serverUrl: string, path: string, method = 'GET'): Promise<T> {
  const response = await fetch(new URL(path, serverUrl), { method });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

export function serverRequests(serverUrl: string): Promise<RecordedRequest[]> {
  return control<RecordedRequest[]>(serverUrl, '/__control/requests');
}

export async function clearServerRequests(serverUrl: string): Promise<void> {
  await control(serverUrl, '/__control/requests', 'DELETE');
}

export function serverState(serverUrl: string): Promise<ServerState> {
  return control<ServerState>(serverUrl, '/__control/state');
}

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
