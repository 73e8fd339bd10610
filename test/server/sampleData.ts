// Realistic vocabulary for seeded conversations, so screenshots and demos look like real use.
import type { ConversationTrigger, ExecutionStatus, ProviderType } from './models';

export const CONVERSATION_TITLES: readonly string[] = [
  'Fix flaky login test',
  'Add dark mode to settings page',
  'Refactor payment service retries',
  'Upgrade project to Node 20',
  'Write unit tests for cart reducer',
  'Investigate memory leak in worker',
  'Add pagination to users API',
  'Migrate CI to GitHub Actions',
  'Improve README setup section',
  'Fix N+1 query in orders endpoint',
  'Add OpenTelemetry tracing',
  'Implement CSV export for reports',
  'Bump dependencies and fix breaking changes',
  'Add rate limiting to public API',
  'Fix timezone bug in scheduler',
  'Create Dockerfile for local development',
  'Add e2e tests for checkout flow',
  'Localize onboarding flow to German',
  'Remove stale feature flags',
  'Speed up webpack production build',
  'Fix broken avatar upload on Safari',
  'Document the deployment runbook',
  'Add retry with backoff to webhook sender',
  'Resolve issue #482: crash on empty cart',
  'Convert settings form to React Hook Form',
  'Add health check endpoint',
  'Reduce bundle size of dashboard',
  'Fix race condition in session refresh',
  'Add type hints to billing module',
  'Set up Renovate for dependency updates',
];

export const SUB_CONVERSATION_TITLES: readonly string[] = [
  'Plan: break the change into small PRs',
  'Investigate failing CI job',
  'Review test coverage gaps',
  'Draft migration script',
];

export const INITIAL_MESSAGES: readonly string[] = [
  'Please take a look at this and open a PR when you are done.',
  'Start by reading the existing tests, then make the change.',
  'Keep the diff small and explain the trade-offs.',
];

export interface RepositoryChoice {
  repository: string | null;
  provider: ProviderType | null;
}

export const REPOSITORIES: readonly (readonly [RepositoryChoice, number])[] = [
  [{ repository: 'acme/webapp', provider: 'github' }, 45],
  [{ repository: 'acme/api-server', provider: 'github' }, 20],
  [{ repository: 'acme/mobile-app', provider: 'github' }, 8],
  [{ repository: 'acme/infra', provider: 'gitlab' }, 10],
  [{ repository: 'acme/design-system', provider: 'bitbucket' }, 5],
  [{ repository: null, provider: null }, 12],
];

export const BRANCHES: readonly (readonly [string, number])[] = [
  ['main', 50],
  ['develop', 15],
  ['feature/dark-mode', 8],
  ['fix/flaky-login', 8],
  ['chore/deps-upgrade', 8],
  ['release/2.4', 5],
];

export const LLM_MODELS: readonly (readonly [string, number])[] = [
  ['anthropic/claude-sonnet-4-5-20250929', 45],
  ['litellm_proxy/claude-sonnet-4-20250514', 25],
  ['openai/gpt-5-2025-08-07', 20],
  ['openhands/qwen3-coder-480b', 10],
];

export const TRIGGERS: readonly (readonly [ConversationTrigger, number])[] = [
  ['gui', 60],
  ['openhands_api', 15],
  ['resolver', 10],
  ['slack', 8],
  ['suggested_task', 7],
];

export const EXECUTION_STATUS_WEIGHTS: readonly (readonly [ExecutionStatus, number])[] = [
  ['idle', 35],
  ['finished', 25],
  ['running', 20],
  ['waiting_for_confirmation', 6],
  ['paused', 6],
  ['error', 4],
  ['stuck', 4],
];
