// Wire shapes of the OpenHands app server (snapshot d6fab190), as the real server emits them.
// Kept independent of src/ on purpose: the server is the contract the client is proven against.

export const SANDBOX_STATUSES = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];

export const START_TASK_STATUSES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
] as const;
export type StartTaskStatus = (typeof START_TASK_STATUSES)[number];

export const START_TASK_SORT_ORDERS = [
  'CREATED_AT',
  'CREATED_AT_DESC',
  'UPDATED_AT',
  'UPDATED_AT_DESC',
] as const;
export type StartTaskSortOrder = (typeof START_TASK_SORT_ORDERS)[number];

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const PROVIDER_TYPES = ['github', 'gitlab', 'bitbucket', 'enterprise_sso'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

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
export type ConversationTrigger = (typeof CONVERSATION_TRIGGERS)[number];

export const AGENT_TYPES = ['default', 'plan'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

export const EXPOSED_URL_NAMES = ['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2'] as const;
export type ExposedUrlName = (typeof EXPOSED_URL_NAMES)[number];

export interface ExposedUrl {
  name: ExposedUrlName;
  url: string;
}

/** Stored sandbox. `session_api_key` is kept always; the wire view shows it only while RUNNING. */
export interface SandboxRecord {
  id: string;
  created_by_user_id: string | null;
  sandbox_spec_id: string;
  status: SandboxStatus;
  session_api_key: string;
  created_at: string;
}

export interface SandboxInfo {
  id: string;
  created_by_user_id: string | null;
  sandbox_spec_id: string;
  status: SandboxStatus;
  session_api_key: string | null;
  exposed_urls: ExposedUrl[] | null;
  created_at: string;
}

export interface SandboxSpecInfo {
  id: string;
  command: string[] | null;
  created_at: string;
  initial_env: Record<string, string>;
  working_dir: string;
}

export interface TokenUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  context_window: number;
  per_turn_token: number;
  response_id: string;
}

export interface MetricsSnapshot {
  model_name: string;
  accumulated_cost: number;
  max_budget_per_task: number | null;
  accumulated_token_usage: TokenUsage | null;
}

/** Stored conversation. `execution_status` is what the agent server would report if asked. */
export interface ConversationRecord {
  id: string;
  created_by_user_id: string | null;
  sandbox_id: string;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: ProviderType | null;
  title: string | null;
  trigger: ConversationTrigger | null;
  pr_number: number[];
  llm_model: string | null;
  metrics: MetricsSnapshot | null;
  parent_conversation_id: string | null;
  created_at: string;
  updated_at: string;
  execution_status: ExecutionStatus;
}

/** A conversation as the API returns it: the stored record plus what is derived from its sandbox. */
export interface AppConversation extends Omit<ConversationRecord, 'execution_status'> {
  sub_conversation_ids: string[];
  sandbox_status: SandboxStatus;
  execution_status: ExecutionStatus | null;
  conversation_url: string | null;
  session_api_key: string | null;
}

export interface TextContent {
  cache_prompt: boolean;
  type: 'text';
  text: string;
}

export interface ImageContent {
  cache_prompt: boolean;
  type: 'image';
  image_urls: string[];
}

export interface SendMessageRequest {
  role: 'user' | 'system' | 'assistant' | 'tool';
  content: (TextContent | ImageContent)[];
  run: boolean;
}

export const PROCESSOR_KINDS = ['SetTitleCallbackProcessor', 'LoggingCallbackProcessor'] as const;
export type ProcessorKind = (typeof PROCESSOR_KINDS)[number];

export interface EventCallbackProcessor {
  kind: ProcessorKind;
}

/** The start request after validation and parent inheritance: echoed back in every task. */
export interface AppConversationStartRequest {
  sandbox_id: string | null;
  /** The new conversation's id, chosen by the client (1.11: `request.conversation_id or uuid4()`). */
  conversation_id: string | null;
  initial_message: SendMessageRequest | null;
  processors: EventCallbackProcessor[] | null;
  llm_model: string | null;
  /** Cloud's agent profile (an id); the OSS server accepts it and starts on the user's settings. */
  agent_profile_id: string | null;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: ProviderType | null;
  title: string | null;
  trigger: ConversationTrigger | null;
  pr_number: number[];
  parent_conversation_id: string | null;
  agent_type: AgentType;
}

export interface AppConversationStartTask {
  id: string;
  created_by_user_id: string | null;
  status: StartTaskStatus;
  detail: string | null;
  app_conversation_id: string | null;
  sandbox_id: string | null;
  agent_server_url: string | null;
  request: AppConversationStartRequest;
  created_at: string;
  updated_at: string;
}

export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

export interface ProviderTokenRecord {
  token: string;
  host: string | null;
  user_id: string | null;
}

export interface McpSseServer {
  url: string;
  api_key: string | null;
}

export interface McpStdioServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface McpShttpServer {
  url: string;
  api_key: string | null;
  timeout: number | null;
}

export interface McpConfig {
  sse_servers: McpSseServer[];
  stdio_servers: McpStdioServer[];
  shttp_servers: McpShttpServer[];
}

/** Persisted `Settings` (v0 OpenAPI field list). Secrets are kept here and never emitted. */
export interface SettingsRecord {
  language: string | null;
  agent: string | null;
  max_iterations: number | null;
  security_analyzer: string | null;
  confirmation_mode: boolean | null;
  llm_model: string | null;
  llm_api_key: string | null;
  llm_base_url: string | null;
  remote_runtime_resource_factor: number | null;
  enable_default_condenser: boolean;
  enable_sound_notifications: boolean;
  enable_proactive_conversation_starters: boolean;
  enable_solvability_analysis: boolean;
  user_consents_to_analytics: boolean | null;
  sandbox_base_container_image: string | null;
  sandbox_runtime_container_image: string | null;
  mcp_config: McpConfig | null;
  search_api_key: string | null;
  sandbox_api_key: string | null;
  max_budget_per_task: number | null;
  email: string | null;
  email_verified: boolean | null;
  git_user_name: string | null;
  git_user_email: string | null;
  /**
   * openhands-ai 1.11.0 keeps MCP servers as a name → server map (`agent_settings.mcp_config`, fastmcp's
   * `MCPConfig`), set through `POST /api/v1/settings`; the legacy lists above are older servers'.
   */
  v1_mcp_servers?: Record<string, V1McpServer>;
  /** openhands-ai 1.11.0's saved LLM profiles (`Settings.llm_profiles`): name → LLM, in insertion order. */
  llm_profiles?: LlmProfilesRecord;
}

/** One saved profile's LLM: only what a profile route reads or writes here. */
export interface ProfileLlmRecord {
  model: string;
  api_key: string | null;
  base_url: string | null;
}

export interface LlmProfilesRecord {
  profiles: Record<string, ProfileLlmRecord>;
  active: string | null;
}

/** One entry of 1.11's MCP map: a remote server (`url`) or a local command. */
export interface V1McpServer {
  url?: string;
  transport?: string;
  timeout?: number;
  headers?: Record<string, string>;
  /** The SDK's `auth`: `api_key` (posted as `api_key`), `bearer` (posted as `auth` or an Authorization header). */
  auth?: { strategy: 'api_key' | 'bearer'; value: string };
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}
