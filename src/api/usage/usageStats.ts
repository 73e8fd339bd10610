/**
 * What a conversation's LLM calls cost and used, as one small typed value: read from the agent
 * server's `stats` state update (`ConversationStats`: `usage_to_metrics`, one `MetricsSnapshot` per
 * LLM, the agent's under `agent`) or from the app server's `AppConversation.metrics` (the agent's
 * alone). Both are hostile input: every field is optional (older servers send fewer), numbers are
 * kept finite, non-negative and bounded, names clipped, and at most a few LLMs are read.
 */
import { isRecord } from '../records';

export interface TokenCounts {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** One LLM's usage (`usage_to_metrics[<usage id>]`). */
export interface LlmUsage {
  /** `agent`, `condenser`, …; `agent` for the app server's metrics. */
  usageId: string;
  /** Dollars, as LiteLLM priced the calls. */
  cost: number;
  /** `max_budget_per_task`, when one is set. */
  budget: number | null;
  tokens: TokenCounts;
  /** The model's context window (0: unknown). */
  contextWindow: number;
  /** Prompt and completion tokens of the newest call: how full the context was then (0: unknown). */
  lastTurnTokens: number;
}

export interface UsageStats {
  /**
   * The agent's LLM (what the app server lists and the web UI shows), with the saved profiles it was
   * switched to counted in; else the first one sent.
   */
  main: LlmUsage;
  /** The other LLMs (the condenser, …), in the order sent. */
  others: readonly LlmUsage[];
}

/** Far above any real figure, below where doubles lose whole units. */
const MAX_FIGURE = 1e15;
const MAX_LLMS = 16;
const MAX_ID_CHARS = 100;

/** A `stats` update's value (or `full_state`'s `stats`); undefined when it holds no LLM yet. */
export function statsFromUpdate(value: unknown): UsageStats | undefined {
  const byUsage = isRecord(value) ? value['usage_to_metrics'] : undefined;
  if (!isRecord(byUsage)) return undefined;
  const usages: LlmUsage[] = [];
  for (const [usageId, metrics] of Object.entries(byUsage).slice(0, MAX_LLMS)) {
    const usage = llmUsage(usageId, metrics);
    if (usage) usages.push(usage);
  }
  const agents = usages.filter((usage) => isAgentsLlm(usage.usageId));
  const main = agents.length > 0 ? together(agents) : usages[0];
  if (!main) return undefined;
  return { main, others: usages.filter((usage) => usage !== main && !agents.includes(usage)) };
}

/**
 * The agent's own LLMs: `agent`, and each saved profile it was switched to (`profile:<name>…`, which
 * the SDK registers as a new usage id, so its calls are counted there and not under `agent`).
 */
function isAgentsLlm(usageId: string): boolean {
  return usageId === 'agent' || usageId.startsWith('profile:');
}

/**
 * The agent's LLMs as one: what they cost and used together. How full the context is comes from the
 * one registered last (the SDK keeps them in registration order; the newest switch is the model now).
 */
function together(agents: readonly LlmUsage[]): LlmUsage {
  const newest = agents[agents.length - 1] as LlmUsage;
  if (agents.length === 1) return newest;
  const sum = (pick: (usage: LlmUsage) => number) =>
    Math.min(
      agents.reduce((total, usage) => total + pick(usage), 0),
      MAX_FIGURE,
    );
  const budgets = agents.map((usage) => usage.budget).filter((budget) => budget !== null);
  return {
    usageId: 'agent',
    cost: sum((usage) => usage.cost),
    budget: budgets.length > 0 ? Math.max(...budgets) : null,
    tokens: {
      prompt: sum((usage) => usage.tokens.prompt),
      completion: sum((usage) => usage.tokens.completion),
      cacheRead: sum((usage) => usage.tokens.cacheRead),
      cacheWrite: sum((usage) => usage.tokens.cacheWrite),
      reasoning: sum((usage) => usage.tokens.reasoning),
    },
    contextWindow: newest.contextWindow,
    lastTurnTokens: newest.lastTurnTokens,
  };
}

/**
 * The app server's `metrics` (a `MetricsSnapshot` of the agent's LLM), when it says something: 1.11
 * fills zeros for a conversation whose agent never called its LLM, which is nothing to show.
 */
export function statsFromMetrics(metrics: unknown): UsageStats | undefined {
  const main = llmUsage('agent', metrics);
  if (!main || (main.cost === 0 && main.tokens.prompt + main.tokens.completion === 0)) return undefined;
  return { main, others: [] };
}

/** The same figures (a repeated update changes nothing on screen). */
export function sameStats(a: UsageStats | undefined, b: UsageStats | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function llmUsage(usageId: string, metrics: unknown): LlmUsage | undefined {
  if (!isRecord(metrics)) return undefined;
  const usage = isRecord(metrics['accumulated_token_usage']) ? metrics['accumulated_token_usage'] : {};
  const budget = figure(metrics['max_budget_per_task']);
  return {
    usageId: usageId.slice(0, MAX_ID_CHARS),
    cost: figure(metrics['accumulated_cost']) ?? 0,
    budget: budget !== undefined && budget > 0 ? budget : null,
    tokens: {
      prompt: count(usage['prompt_tokens']),
      completion: count(usage['completion_tokens']),
      cacheRead: count(usage['cache_read_tokens']),
      cacheWrite: count(usage['cache_write_tokens']),
      reasoning: count(usage['reasoning_tokens']),
    },
    contextWindow: count(usage['context_window']),
    lastTurnTokens: count(usage['per_turn_token']),
  };
}

function figure(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.min(value, MAX_FIGURE)
    : undefined;
}

function count(value: unknown): number {
  return Math.round(figure(value) ?? 0);
}
