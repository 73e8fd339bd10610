/**
 * Where each conversation's agent server is (its `conversation_url` and the sandbox's session key),
 * remembered in memory while its sandbox runs, so a click goes straight to it: one round trip, not
 * two. Forgotten when the sandbox's status changes, when a call to it fails as a moved or gone
 * server would (see `isStaleAddress`), and on another server or key.
 */
import { agentEndpointOf, ApiError, normalizeUuid, type AgentEndpoint, type AppConversation } from '../api';

/** A handful are steered at a time; the cap only bounds a long session. */
const MAX_REMEMBERED = 256;

interface Remembered {
  endpoint: AgentEndpoint;
  sandboxId: string;
}

export class AgentAddresses {
  private readonly known = new Map<string, Remembered>();

  /** What the app server just said of a conversation: its address while the sandbox runs, else none. */
  remember(conversation: AppConversation): void {
    const id = normalizeUuid(conversation.id);
    this.known.delete(id);
    const endpoint = agentEndpointOf(conversation);
    if (conversation.sandbox_status !== 'RUNNING' || !endpoint) return;
    this.known.set(id, { endpoint, sandboxId: conversation.sandbox_id });
    // a Map keeps insertion order: the first is the one remembered longest ago
    for (const oldest of this.known.keys()) {
      if (this.known.size <= MAX_REMEMBERED) break;
      this.known.delete(oldest);
    }
  }

  get(conversationId: string): AgentEndpoint | undefined {
    return this.known.get(normalizeUuid(conversationId))?.endpoint;
  }

  forget(conversationId: string): void {
    this.known.delete(normalizeUuid(conversationId));
  }

  /** Forgets every conversation whose sandbox `statusOf` says is no longer running (undefined: not known). */
  forgetStopped(statusOf: (sandboxId: string, conversationId: string) => string | undefined): void {
    for (const [id, { sandboxId }] of this.known) {
      const status = statusOf(sandboxId, id);
      if (status !== undefined && status !== 'RUNNING') this.known.delete(id);
    }
  }

  clear(): void {
    this.known.clear();
  }
}

/** Codes of a connection that never reached a server: nothing was sent, so the call may go again. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * Whether a call failed as one to an agent server that moved or went away would (refused, unknown
 * key, unknown route): the call had no effect, and asking the app server again may find it.
 */
export function isStaleAddress(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 401 || error.status === 404) return true;
  const code: unknown =
    error.kind === 'network' && error.cause ? (error.cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && UNREACHED.has(code);
}
