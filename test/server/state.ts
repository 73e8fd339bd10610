// The server's whole mutable store. Tests may read and mutate it directly (through
// `server.state`); every reply is computed from it at request time.
import type {
  AppConversationStartTask,
  ImageContent,
  TextContent,
  ConversationRecord,
  ProviderTokenRecord,
  ProviderType,
  SandboxRecord,
  SandboxSpecInfo,
  SettingsRecord,
} from './models';
import type { AgentConversationRecord } from './agentServer/records';
import type { ProviderRepositoryRecord } from './providerRepositories';
import { CATALOGUE_MODELS } from './modelCatalogue';

export interface ServerState {
  /** In creation order; the API lists them newest first. */
  sandboxes: SandboxRecord[];
  conversations: ConversationRecord[];
  startTasks: AppConversationStartTask[];
  specs: SandboxSpecInfo[];
  /** What `POST /api/add-git-providers` persisted (entries with an empty token are never kept). */
  providerTokens: Partial<Record<ProviderType, ProviderTokenRecord>>;
  /** The repositories the providers hold (`POST /__control/git-provider/repositories`): what a start may clone. */
  providerRepositories: ProviderRepositoryRecord[];
  /** `null` = no settings saved yet: the settings GETs are 404; starts run on the default model (1.11.0). */
  settings: SettingsRecord | null;
  /** What the model catalogue lists, as `provider/name` (the config searches read it). */
  modelCatalogue: string[];
  /**
   * The agent-server double's per-conversation logs, by conversation hex id. A Map on purpose: it can
   * be large, and `GET /__control/state` (JSON) shows it as `{}` (use `/__control/agent/*` instead).
   */
  agentConversations: Map<string, AgentConversationRecord>;
  /** Messages queued for a conversation or start task (`task-<hex>`) still starting, in order. */
  pendingMessages: PendingMessageRecord[];
}

export interface PendingMessageRecord {
  id: string;
  /** As posted: a conversation id, or `task-<hex>` for a start task. */
  conversation_id: string;
  role: string;
  content: (TextContent | ImageContent)[];
}

export function emptyState(): ServerState {
  return {
    sandboxes: [],
    conversations: [],
    startTasks: [],
    specs: [],
    providerTokens: {},
    providerRepositories: [],
    settings: null,
    modelCatalogue: [...CATALOGUE_MODELS],
    agentConversations: new Map(),
    pendingMessages: [],
  };
}

/** Swaps contents in place so references to `server.state` held by tests stay valid after reset(). */
export function replaceState(target: ServerState, source: ServerState): void {
  target.sandboxes = source.sandboxes;
  target.conversations = source.conversations;
  target.startTasks = source.startTasks;
  target.specs = source.specs;
  target.providerTokens = source.providerTokens;
  target.providerRepositories = source.providerRepositories;
  target.settings = source.settings;
  target.modelCatalogue = source.modelCatalogue;
  target.agentConversations = source.agentConversations;
  target.pendingMessages = source.pendingMessages;
}

export function findSandbox(state: ServerState, id: string): SandboxRecord | undefined {
  return state.sandboxes.find((sandbox) => sandbox.id === id);
}

export function findConversation(state: ServerState, hexId: string): ConversationRecord | undefined {
  return state.conversations.find((conversation) => conversation.id === hexId);
}

export function findStartTask(state: ServerState, hexId: string): AppConversationStartTask | undefined {
  return state.startTasks.find((task) => task.id === hexId);
}
