// Reads the seeded test server over its public API, so the UI tests know which sandboxes and
// conversations the tree should show without depending on the server's internals.
import type { AppConversation } from '../../src/api';
import { conversationTitle, readableSandboxName } from '../../src/state/names';
import { SANDBOX_ID_PREFIX } from '../server';

export interface SandboxSummary {
  id: string;
  status: string;
}

export interface ConversationSummary {
  id: string;
  title: string | null;
  sandbox_id: string;
  sandbox_status: string;
  execution_status: string | null;
  created_at: string | null;
}

async function getJson<T>(serverUrl: string, pathAndQuery: string): Promise<T> {
  const response = await fetch(new URL(pathAndQuery, serverUrl));
  if (!response.ok) throw new Error(`GET ${pathAndQuery}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

export async function listSandboxes(serverUrl: string): Promise<SandboxSummary[]> {
  return (await getJson<{ items: SandboxSummary[] }>(serverUrl, '/api/v1/sandboxes/search?limit=100')).items;
}

export async function listConversations(serverUrl: string): Promise<ConversationSummary[]> {
  const page = await getJson<{ items: ConversationSummary[] }>(
    serverUrl,
    '/api/v1/app-conversations/search?limit=100',
  );
  return page.items;
}

export async function listSpecIds(serverUrl: string): Promise<string[]> {
  const page = await getJson<{ items: { id: string }[] }>(
    serverUrl,
    '/api/v1/sandbox-specs/search?limit=100',
  );
  return page.items.map((spec) => spec.id);
}

export async function sandboxStatus(serverUrl: string, id: string): Promise<string | undefined> {
  const [sandbox] = await getJson<(SandboxSummary | null)[]>(
    serverUrl,
    `/api/v1/sandboxes?id=${encodeURIComponent(id)}`,
  );
  return sandbox?.status;
}

/** The id without the `oh-agent-server-` prefix: the tree may show either, and this matches both. */
export function shortSandboxId(id: string): string {
  return id.startsWith(SANDBOX_ID_PREFIX) ? id.slice(SANDBOX_ID_PREFIX.length) : id;
}

/** What the sandbox's row must be called: its newest conversation's title, else its readable name. */
export function sandboxRowName(sandboxId: string, conversations: ConversationSummary[]): string {
  const newest = conversations
    .filter((c) => c.sandbox_id === sandboxId)
    .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? ''))[0];
  return newest ? conversationTitle(newest as unknown as AppConversation) : readableSandboxName(sandboxId);
}

/** Status words are compared case-insensitively ("PAUSED" on the wire, maybe "Paused" in the UI). */
export function mentions(label: string, word: string): boolean {
  return label.toLowerCase().includes(word.toLowerCase());
}
