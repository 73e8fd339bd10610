import * as z from 'zod/mini';
import { isoDateTime, nullable, openEnum, pageOf, uuidString } from './common';
import { ConversationTriggerSchema, ProviderTypeSchema } from './conversation';

/** In the order the server walks them; READY and ERROR are final. */
export const START_TASK_STATUSES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
] as const;
export const StartTaskStatusSchema = openEnum(START_TASK_STATUSES);
export type StartTaskStatus = z.infer<typeof StartTaskStatusSchema>;

export const START_TASK_SORT_ORDERS = [
  'CREATED_AT',
  'CREATED_AT_DESC',
  'UPDATED_AT',
  'UPDATED_AT_DESC',
] as const;
export type StartTaskSortOrder = (typeof START_TASK_SORT_ORDERS)[number];

export interface TextContent {
  type: 'text';
  text: string;
  cache_prompt?: boolean;
}

export interface ImageContent {
  type: 'image';
  image_urls: string[];
  cache_prompt?: boolean;
}

export interface SendMessageRequest {
  role?: 'user' | 'system' | 'assistant' | 'tool';
  content: (TextContent | ImageContent)[];
  run?: boolean;
}

/** Body of `POST /api/v1/app-conversations`. Every field is optional; `{}` starts a blank conversation. */
export interface AppConversationStartRequest {
  sandbox_id?: string | null;
  /**
   * The new conversation's id, chosen here (OpenHands 1.11 takes it): its panel can open while it
   * starts. Older servers ignore it and name it themselves.
   */
  conversation_id?: string | null;
  initial_message?: SendMessageRequest | null;
  /** The model for this conversation alone, instead of the settings' (OpenHands 1.11+). */
  llm_model?: string | null;
  /** A Cloud agent profile's id; OpenHands OSS 1.11 accepts it and starts on the user's settings. */
  agent_profile_id?: string | null;
  /** `null` → the default title processor; `[]` → no automatic title. */
  processors?: { kind: string; [key: string]: unknown }[] | null;
  selected_repository?: string | null;
  selected_branch?: string | null;
  git_provider?: string | null;
  title?: string | null;
  trigger?: string | null;
  pr_number?: number[];
  parent_conversation_id?: string | null;
  agent_type?: 'default' | 'plan';
}

/** The server echoes the request back after inheritance; we only read what the UI shows. */
export const StartRequestEchoSchema = z.looseObject({
  sandbox_id: nullable(z.string()),
  selected_repository: nullable(z.string()),
  selected_branch: nullable(z.string()),
  git_provider: nullable(ProviderTypeSchema),
  trigger: nullable(ConversationTriggerSchema),
  title: nullable(z.string()),
});

export const AppConversationStartTaskSchema = z.looseObject({
  id: uuidString,
  created_by_user_id: nullable(z.string()),
  status: z._default(StartTaskStatusSchema, 'WORKING'),
  /** Error text on ERROR; may be `""` (a failed assert on the server). */
  detail: nullable(z.string()),
  /** Set at READY. */
  app_conversation_id: nullable(uuidString),
  sandbox_id: nullable(z.string()),
  agent_server_url: nullable(z.string()),
  request: nullable(StartRequestEchoSchema),
  created_at: nullable(isoDateTime),
  updated_at: nullable(isoDateTime),
});
export type AppConversationStartTask = z.infer<typeof AppConversationStartTaskSchema>;

export const AppConversationStartTaskPageSchema = pageOf(AppConversationStartTaskSchema);
export type AppConversationStartTaskPage = z.infer<typeof AppConversationStartTaskPageSchema>;
