/**
 * The agent's LLM as a conversation's events say it. The SDK stores and sends a
 * `ConversationStateUpdateEvent` with key `agent` whenever the agent object changes: the app server's
 * `switch_profile` (through the agent server's `switch_llm`) installs a saved profile's LLM under the
 * usage id `profile:<name>:<hash>`, the agent's own switch_llm tool under `profile:<name>`; a
 * conversation starts on `agent`. Hostile input: every field is checked and clipped.
 */
import { isRecord } from '../records';
import type { AgentEvent } from './events';

const MAX_MODEL_CHARS = 200;
const MAX_PROFILE_CHARS = 64;

export interface AgentLlm {
  model: string;
  /** The LLM's registry key (`agent`, `profile:<name>:<hash>`, …), when sent. */
  usageId: string | undefined;
  /** The saved profile the LLM came from, when the usage id names one. */
  profile: string | undefined;
}

export function isAgentUpdate(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'agent';
}

/** The LLM of an agent object (an `agent` update's value, or `full_state`'s `agent`). */
export function agentLlmOf(agent: unknown): AgentLlm | undefined {
  const llm = isRecord(agent) ? agent['llm'] : undefined;
  const model = isRecord(llm) ? llm['model'] : undefined;
  if (typeof model !== 'string' || !model.trim()) return undefined;
  const usage = isRecord(llm) ? llm['usage_id'] : undefined;
  const usageId = typeof usage === 'string' ? usage.slice(0, MAX_MODEL_CHARS) : undefined;
  return { model: model.slice(0, MAX_MODEL_CHARS), usageId, profile: profileOf(usageId) };
}

/**
 * The LLM an `agent` update installed when it came from a switch to a saved profile; undefined for
 * any other change of the agent (plugins loaded, the same LLM again).
 */
export function switchedLlm(event: AgentEvent): AgentLlm | undefined {
  if (!isAgentUpdate(event)) return undefined;
  const llm = agentLlmOf(event['value']);
  return llm?.profile === undefined ? undefined : llm;
}

function profileOf(usageId: string | undefined): string | undefined {
  const match = /^profile:([^:]+)/.exec(usageId ?? '');
  return match?.[1]?.slice(0, MAX_PROFILE_CHARS);
}
