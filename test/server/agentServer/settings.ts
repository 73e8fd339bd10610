// The agent-server double's tunables, changeable at run time (control routes, `server.agent`), and
// restored to the configured values by reset().
import type { ResolvedOptions } from '../options';

/**
 * How a broken or hostile agent server treats each event socket once it has sent its full_state:
 * closes it with a code after a while, or breaks the WebSocket protocol (a frame with a reserved opcode).
 */
export type SocketHostility =
  | { kind: 'close'; code: number; reason: string; afterMs: number }
  | { kind: 'protocol_error'; afterMs: number };

/**
 * How a hostile agent server pages `events/search` when asked for a `page_id`: `repeat` answers the
 * newest page again, `empty` answers no events; both name a fresh `next_page_id` every time.
 */
export type PagingHostility = 'repeat' | 'empty';

/**
 * What the conversation's LLM does when a run starts: the scripted run; nothing at all (`silent`: a
 * fresh OpenHands 1.11 sat "running" on `gpt-5.5` with no key, no event, no error, issue 36); or a
 * failure, which the SDK ends the run with (`ConversationErrorEvent{code, detail}`, then `error`).
 */
export type LlmBehaviour = 'scripted' | 'silent' | { kind: 'fail'; code: string; detail: string };

export interface AgentServerSettings {
  /** Older agent servers: no first-message auth (no query key → 403 handshake), `resend_mode` ignored. */
  legacy: boolean;
  /** Pause between the steps of a scripted run. */
  agentStepMs: number;
  /** Protocol ping interval; no pong within the same interval closes 1011. */
  wsPingMs: number;
  /** How long an unauthenticated socket may wait for its `{"type":"auth"}` frame. */
  wsAuthTimeoutMs: number;
  /** The synthetic full_state is not sent (the real server drops it when the socket is slow). */
  wsDropFullState: boolean;
  /** Each socket, once connected, is ended this way; null: sockets stay. */
  wsHostility: SocketHostility | null;
  /** Older pages of `events/search` never end; null: honest paging. */
  pagingHostility: PagingHostility | null;
  /** What the LLM does when a run starts. */
  llm: LlmBehaviour;
}

export function configuredSettings(options: ResolvedOptions): AgentServerSettings {
  return {
    legacy: options.agentServer.legacy,
    agentStepMs: options.timings.agentStepMs,
    wsPingMs: options.timings.wsPingMs,
    wsAuthTimeoutMs: options.timings.wsAuthTimeoutMs,
    wsDropFullState: false,
    wsHostility: null,
    pagingHostility: null,
    llm: 'scripted',
  };
}
