import * as z from 'zod/mini';
import { isoDateTime, nullable, openEnum, pageOf, uuidString } from './common';
import { SandboxStatusSchema } from './sandbox';

/** The OSS server knows the first four; hosted deployments add the rest. */
export const PROVIDER_TYPES = [
  'github',
  'gitlab',
  'bitbucket',
  'enterprise_sso',
  'bitbucket_data_center',
  'forgejo',
  'azure_devops',
] as const;
export const ProviderTypeSchema = openEnum(PROVIDER_TYPES);
export type ProviderType = z.infer<typeof ProviderTypeSchema>;

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
  'deleting',
] as const;
export const ExecutionStatusSchema = openEnum(EXECUTION_STATUSES);
export type ExecutionStatus = z.infer<typeof ExecutionStatusSchema>;

export const CONVERSATION_TRIGGERS = [
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
  'bitbucket',
] as const;
export const ConversationTriggerSchema = openEnum(CONVERSATION_TRIGGERS);
export type ConversationTrigger = z.infer<typeof ConversationTriggerSchema>;

export const TokenUsageSchema = z.looseObject({
  model: z._default(z.string(), ''),
  prompt_tokens: z._default(z.number(), 0),
  completion_tokens: z._default(z.number(), 0),
  cache_read_tokens: z._default(z.number(), 0),
  cache_write_tokens: z._default(z.number(), 0),
  reasoning_tokens: z._default(z.number(), 0),
  context_window: z._default(z.number(), 0),
  per_turn_token: z._default(z.number(), 0),
  response_id: z._default(z.string(), ''),
});

export const MetricsSnapshotSchema = z.looseObject({
  model_name: z._default(z.string(), 'default'),
  accumulated_cost: z._default(z.number(), 0),
  max_budget_per_task: nullable(z.number()),
  accumulated_token_usage: nullable(TokenUsageSchema),
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshotSchema>;

export const AppConversationSchema = z.looseObject({
  id: uuidString,
  created_by_user_id: nullable(z.string()),
  sandbox_id: z.string(),
  selected_repository: nullable(z.string()),
  selected_branch: nullable(z.string()),
  git_provider: nullable(ProviderTypeSchema),
  /** `"Conversation <hex>"` until the title processor renames it. */
  title: nullable(z.string()),
  trigger: nullable(ConversationTriggerSchema),
  pr_number: z._default(z.array(z.number()), []),
  llm_model: nullable(z.string()),
  metrics: nullable(MetricsSnapshotSchema),
  parent_conversation_id: nullable(uuidString),
  /** Filled by the batch get only; `[]` in search results. */
  sub_conversation_ids: z._default(z.array(uuidString), []),
  created_at: nullable(isoDateTime),
  updated_at: nullable(isoDateTime),
  sandbox_status: z._default(SandboxStatusSchema, 'MISSING'),
  /** Null unless the sandbox is RUNNING and its agent server answered. */
  execution_status: nullable(ExecutionStatusSchema),
  conversation_url: nullable(z.string()),
  session_api_key: nullable(z.string()),
});
export type AppConversation = z.infer<typeof AppConversationSchema>;

export const AppConversationPageSchema = pageOf(AppConversationSchema);
export type AppConversationPage = z.infer<typeof AppConversationPageSchema>;
