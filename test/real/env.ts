// What the real-server suites get from their driver (scripts/real-openhands/run-tests.ts), and plain
// HTTP helpers for the parts of the real server the client does not cover (settings setup, agent events).
import type { ChatRequestSummary } from './scriptedLlm';

export const REAL_ENV = {
  url: 'OPENHANDS_REAL_URL',
  apiKey: 'OPENHANDS_REAL_API_KEY',
  llmBaseUrl: 'OPENHANDS_REAL_LLM_BASE_URL',
} as const;

export interface RealServerEnv {
  url: string;
  apiKey: string;
  llmBaseUrl: string;
}

export function realServerEnv(): RealServerEnv {
  const url = process.env[REAL_ENV.url];
  const apiKey = process.env[REAL_ENV.apiKey];
  const llmBaseUrl = process.env[REAL_ENV.llmBaseUrl];
  if (!url || !apiKey || !llmBaseUrl) {
    throw new Error(
      `set ${Object.values(REAL_ENV).join(', ')} (scripts/real-openhands/run-tests.ts does): this suite needs a real OpenHands server`,
    );
  }
  return { url, apiKey, llmBaseUrl };
}

export async function realRequest<T>(
  server: { url: string; apiKey: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, server.url), {
    method,
    headers: {
      'X-Session-API-Key': server.apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T };
}

/**
 * Settings a fresh OpenHands 1.11 needs before a conversation can run: the LLM (the scripted one).
 * `POST /api/v1/settings` takes partial `agent_settings_diff` payloads and deep-merges them.
 */
/** The key the scripted LLM is stored with (it checks none): what a user types on the Model page. */
export const SCRIPTED_LLM_KEY = 'scripted-llm-key';

export async function configureScriptedLlm(
  server: { url: string; apiKey: string },
  llmBaseUrl: string,
  model: string,
): Promise<void> {
  const reply = await realRequest(server, 'POST', '/api/v1/settings', {
    agent_settings_diff: { llm: { model, base_url: llmBaseUrl, api_key: SCRIPTED_LLM_KEY } },
  });
  if (reply.status !== 200) {
    throw new Error(`POST /api/v1/settings: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
}

export interface AgentEvent {
  kind?: string;
  source?: string;
  action?: { kind?: string; command?: string; message?: string };
  observation?: { kind?: string; content?: { text?: string }[] };
}

/** The events a conversation's agent server recorded (`conversation_url` + its session key). */
export async function agentEvents(conversationUrl: string, sessionApiKey: string): Promise<AgentEvent[]> {
  const response = await fetch(`${conversationUrl}/events/search?limit=100`, {
    headers: { 'X-Session-API-Key': sessionApiKey },
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`agent events: HTTP ${response.status}`);
  return ((await response.json()) as { items: AgentEvent[] }).items;
}

/** What the scripted LLM recorded of every request so far (`GET <base>/scripted/requests`). */
export async function scriptedRequests(llmBaseUrl: string): Promise<ChatRequestSummary[]> {
  const response = await fetch(`${llmBaseUrl}/scripted/requests`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`the scripted LLM's requests: HTTP ${response.status}`);
  return (await response.json()) as ChatRequestSummary[];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
