/**
 * A conversation's usage in words: `$0.42 of $5.00 · 215k tokens · context 58 %`, the breakdown
 * behind it, and the warning when the budget or the context window is 80 % used. Pure, so the
 * header, the tree rows and the status bar say the same.
 */
import type { LlmUsage, UsageStats } from './usageStats';

/** From this share of the budget or the context window on, the header warns. */
export const WARN_SHARE = 0.8;

export interface UsageLine {
  label: string;
  value: string;
}

export interface UsageText {
  /** `$0.42 of $5.00 · 215k tokens · context 58 %`. */
  summary: string;
  /** `$0.42`, or `$0.42 of $5.00` with a budget. */
  cost: string;
  /** How full the context window was at the newest call, in percent; null when unknown. */
  contextPercent: number | null;
  /** Why to look (the budget or the context nearly used up); null when nothing is near. */
  warning: string | null;
  /** Each figure on its own line, for the breakdown. */
  breakdown: UsageLine[];
}

/** `$0.42`; `<$0.01` for a cost too small to show in cents; `$1,234` from a thousand. */
export function formatCost(dollars: number): string {
  if (dollars > 0 && dollars < 0.005) return '<$0.01';
  if (dollars >= 1000) return `$${Math.round(dollars).toLocaleString('en-US')}`;
  return `$${dollars.toFixed(2)}`;
}

/** `950`, `4.2k`, `215k`, `1.3M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 10_000) return `${trimZero((tokens / 1000).toFixed(1))}k`;
  if (tokens < 999_500) return `${Math.round(tokens / 1000)}k`;
  if (tokens < 10_000_000) return `${trimZero((tokens / 1e6).toFixed(1))}M`;
  return `${Math.round(tokens / 1e6).toLocaleString('en-US')}M`;
}

/** The newest call's tokens over the context window, in percent; null when either is unknown. */
export function contextPercent(usage: LlmUsage): number | null {
  if (usage.contextWindow <= 0 || usage.lastTurnTokens <= 0) return null;
  return Math.min(999, Math.round((usage.lastTurnTokens / usage.contextWindow) * 100));
}

/** `$0.42`, or `$0.42 of $5.00`. */
export function costWithBudget(usage: LlmUsage): string {
  const cost = formatCost(usage.cost);
  return usage.budget === null ? cost : `${cost} of ${formatCost(usage.budget)}`;
}

/** Prompt and completion tokens together (cache reads are counted inside the prompt's). */
export function totalTokens(usage: LlmUsage): number {
  return usage.tokens.prompt + usage.tokens.completion;
}

export function usageText(stats: UsageStats): UsageText {
  const { main } = stats;
  const percent = contextPercent(main);
  const cost = costWithBudget(main);
  const summary = [
    cost,
    `${formatTokens(totalTokens(main))} tokens`,
    percent === null ? undefined : `context ${percent} %`,
  ].filter((part) => part !== undefined);
  return {
    summary: summary.join(' · '),
    cost,
    contextPercent: percent,
    warning: warningOf(main, percent),
    breakdown: breakdown(stats, percent),
  };
}

function warningOf(usage: LlmUsage, percent: number | null): string | null {
  const warnings: string[] = [];
  if (usage.budget !== null && usage.cost >= usage.budget * WARN_SHARE) {
    const used = Math.floor((usage.cost / usage.budget) * 100);
    warnings.push(`${used} % of the budget (${formatCost(usage.budget)}) used`);
  }
  if (percent !== null && percent >= WARN_SHARE * 100)
    warnings.push(`the context window is ${percent} % full`);
  const text = warnings.join('; ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : null;
}

function breakdown(stats: UsageStats, percent: number | null): UsageLine[] {
  const { main } = stats;
  const lines: UsageLine[] = [
    { label: 'Cost', value: costWithBudget(main) },
    { label: 'Prompt tokens', value: exact(main.tokens.prompt) },
    { label: 'Completion tokens', value: exact(main.tokens.completion) },
    { label: 'Cache read tokens', value: exact(main.tokens.cacheRead) },
    { label: 'Cache write tokens', value: exact(main.tokens.cacheWrite) },
    { label: 'Reasoning tokens', value: exact(main.tokens.reasoning) },
    { label: 'Newest call', value: main.lastTurnTokens > 0 ? `${exact(main.lastTurnTokens)} tokens` : '—' },
    {
      label: 'Context window',
      value:
        main.contextWindow > 0
          ? `${exact(main.contextWindow)} tokens${percent === null ? '' : ` (${percent} % used)`}`
          : '—',
    },
  ];
  // the condenser and other helpers cost apart from the agent (the app server lists the agent's only)
  for (const other of stats.others)
    lines.push({
      label: `${other.usageId} (another LLM)`,
      value: `${formatCost(other.cost)} · ${formatTokens(totalTokens(other))} tokens`,
    });
  return lines;
}

function exact(count: number): string {
  return Math.round(count).toLocaleString('en-US');
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
