// The agent-server double's tunables, changeable at run time (control routes, `server.agent`), and
// restored to the configured values by reset().
import type { ResolvedOptions } from '../options';

export interface AgentServerSettings {
  /** Older agent servers: no first-message auth (no query key → 403 handshake), `resend_mode` ignored. */
  legacy: boolean;
  /** Pause between the steps of a scripted run. */
  agentStepMs: number;
  /** Protocol ping interval; no pong within the same interval closes 1011. */
  wsPingMs: number;
  /** How long an unauthenticated socket may wait for its `{"type":"auth"}` frame. */
  wsAuthTimeoutMs: number;
}

export function configuredSettings(options: ResolvedOptions): AgentServerSettings {
  return {
    legacy: options.agentServer.legacy,
    agentStepMs: options.timings.agentStepMs,
    wsPingMs: options.timings.wsPingMs,
    wsAuthTimeoutMs: options.timings.wsAuthTimeoutMs,
  };
}
