// The test server's control API (/__control/*), for UI tests that run outside the server's process.
import type { RecordedRequest, ServerState } from '../server';

async function control<T>(serverUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(`/__control/${path}`, serverUrl), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} /__control/${path}: HTTP ${response.status}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function serverRequests(serverUrl: string): Promise<RecordedRequest[]> {
  return control<RecordedRequest[]>(serverUrl, 'GET', 'requests');
}

export async function clearServerRequests(serverUrl: string): Promise<void> {
  await control(serverUrl, 'DELETE', 'requests');
}

export function serverState(serverUrl: string): Promise<ServerState> {
  return control<ServerState>(serverUrl, 'GET', 'state');
}

/** Installs a fault rule (see test/server/faults.ts), e.g. `{ kind: 'reset', match: { pathRegex } }`. */
export async function addFault(serverUrl: string, rule: Record<string, unknown>): Promise<void> {
  await control(serverUrl, 'POST', 'faults', rule);
}

export async function clearFaults(serverUrl: string): Promise<void> {
  await control(serverUrl, 'DELETE', 'faults');
}

/** Changes a conversation's stored fields, as the server would (a title, the agent's PR). */
export async function patchConversation(
  serverUrl: string,
  id: string,
  fields: Record<string, unknown>,
): Promise<void> {
  await control(serverUrl, 'POST', `state/conversations/${id}`, fields);
}

/** Holds every start at STARTING_CONVERSATION (`true`) until called with `false`. */
export async function holdStarts(serverUrl: string, on: boolean): Promise<void> {
  await control(serverUrl, 'POST', 'hold-starts', { on });
}

/** The double's git provider holds `repository` (`owner/name`), served from the bare repository at `path`. */
export async function addProviderRepository(
  serverUrl: string,
  repository: { provider: string; repository: string; path: string },
): Promise<void> {
  await control(serverUrl, 'POST', 'git-provider/repositories', repository);
}

/** The double forgets every provider repository: starts on a repository clone nothing again. */
export async function clearProviderRepositories(serverUrl: string): Promise<void> {
  await control(serverUrl, 'DELETE', 'git-provider/repositories');
}
