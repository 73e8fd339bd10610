// What the agent-server double keeps per conversation, beside the app server's ConversationRecord
// (which holds the one `execution_status` both servers report).
import type { MetricsSnapshot, TokenUsage } from '../models';
import type { AgentEvent } from './events';

export const CONFIRMATION_POLICY_KINDS = ['NeverConfirm', 'AlwaysConfirm', 'ConfirmRisky'] as const;
export const SECURITY_RISKS = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type SecurityRisk = (typeof SECURITY_RISKS)[number];

export type ConfirmationPolicy =
  | { kind: 'NeverConfirm' }
  | { kind: 'AlwaysConfirm' }
  | { kind: 'ConfirmRisky'; threshold: Exclude<SecurityRisk, 'UNKNOWN'>; confirm_unknown: boolean };

/** The app server's `MetricsSnapshot`, whose token usage the `stats` update always carries. */
export interface MetricsValue extends MetricsSnapshot {
  accumulated_token_usage: TokenUsage;
}

/** `ConversationStats` as the `stats` state update carries it. */
export interface StatsValue {
  usage_to_metrics: Record<string, MetricsValue>;
}

export interface AgentConversationRecord {
  /** Storage order (the causal order; timestamps are not monotonic in it). */
  events: AgentEvent[];
  confirmation_policy: ConfirmationPolicy;
  security_analyzer: { kind: string } | null;
  stats: StatsValue;
  tags: Record<string, string>;
  last_user_message_id: string | null;
  /**
   * The registry key of the agent's LLM: `agent` from the start; the app server's `switch_profile`
   * installs the profile's LLM as `profile:<name>:<hash>`. Absent: `agent`.
   */
  llm_usage_id?: string;
}

export function emptyAgentConversation(): AgentConversationRecord {
  return {
    events: [],
    confirmation_policy: { kind: 'NeverConfirm' },
    security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    stats: { usage_to_metrics: {} },
    tags: {},
    last_user_message_id: null,
  };
}

/**
 * Adds one LLM call's usage to the agent's metrics (what each `stats` update reports); the budget
 * stays what it was unless given.
 */
export function addUsage(
  stats: StatsValue,
  model: string,
  promptTokens: number,
  completionTokens: number,
  responseId: string,
  budget?: number | null,
): StatsValue {
  const previous = stats.usage_to_metrics['agent'];
  const usage = previous?.accumulated_token_usage;
  const prompt = (usage?.prompt_tokens ?? 0) + promptTokens;
  const completion = (usage?.completion_tokens ?? 0) + completionTokens;
  const agent: MetricsValue = {
    model_name: model,
    accumulated_cost:
      Math.round(((previous?.accumulated_cost ?? 0) + promptTokens * 3e-6 + completionTokens * 15e-6) * 1e6) /
      1e6,
    max_budget_per_task: budget === undefined ? (previous?.max_budget_per_task ?? null) : budget,
    accumulated_token_usage: {
      model,
      prompt_tokens: prompt,
      completion_tokens: completion,
      cache_read_tokens: Math.floor(prompt * 0.6),
      cache_write_tokens: usage?.cache_write_tokens ?? promptTokens,
      reasoning_tokens: 0,
      context_window: 200000,
      per_turn_token: promptTokens + completionTokens,
      response_id: responseId,
    },
  };
  return { usage_to_metrics: { ...stats.usage_to_metrics, agent } };
}

/**
 * The app server's `metrics` after a `stats` update (sql_app_conversation_info_service.py
 * `update_conversation_statistics`, `_to_info`): the agent's LLM only, rebuilt from columns, so the
 * names are the defaults and reasoning tokens are not kept (1.11 stores them but never reads them back).
 * Null when the update has no agent's metrics (the server then keeps what it had).
 */
export function listedMetrics(stats: StatsValue): MetricsSnapshot | null {
  const agent = stats.usage_to_metrics['agent'];
  if (!agent) return null;
  const usage = agent.accumulated_token_usage;
  return {
    model_name: 'default',
    accumulated_cost: agent.accumulated_cost,
    max_budget_per_task: agent.max_budget_per_task,
    accumulated_token_usage: {
      model: '',
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      cache_read_tokens: usage.cache_read_tokens,
      cache_write_tokens: usage.cache_write_tokens,
      reasoning_tokens: 0,
      context_window: usage.context_window,
      per_turn_token: usage.per_turn_token,
      response_id: '',
    },
  };
}
