/**
 * The agent's model as the settings say it, whichever generation of routes the server has, and the
 * request that changes only what changed. 1.11 (`/api/v1/settings`) nests the model in
 * `agent_settings.llm` and takes a diff (`agent_settings_diff`, `conversation_settings_diff`); servers
 * before 1.11 (`/api/settings`) keep `llm_model`, `llm_api_key`, … at the top and merge what is posted.
 */
import type { ModelSettingsReply } from '../models/modelSetup';
import type { SettingsRoutes } from '../settingsRoutes';

export interface ModelSettings {
  generation: SettingsRoutes['generation'];
  /** `null` when none is stored (1.11 always holds one once settings exist: its default `gpt-5.5`). */
  model: string | null;
  /** `null` when none, or when it is the provider's default (1.11 leaves that out). */
  baseUrl: string | null;
  /** Whether a key is stored; the key itself is never sent back. */
  apiKeySet: boolean;
  confirmationMode: boolean | null;
  /** Whether long conversations are summarised to fit the model's context (the default condenser). */
  condenserEnabled: boolean | null;
  /** Dollars a conversation may spend; `null` for no limit. */
  maxBudgetPerTask: number | null;
  /** The LLM profile in use (1.11+), `null` when the settings' model is no profile's. */
  activeProfile: string | null;
}

/** `none`: the server has no settings stored yet (a fresh 1.11 answers 404 "Settings not found"). */
export type ModelSettingsRead = { kind: 'none' } | { kind: 'stored'; settings: ModelSettings };

export function modelSettingsOf(
  reply: ModelSettingsReply,
  generation: SettingsRoutes['generation'],
): ModelSettings {
  const llm = reply.agent_settings?.llm;
  const v1 = generation === 'v1';
  return {
    generation,
    model: (v1 ? llm?.model : reply.llm_model) || null,
    baseUrl: (v1 ? llm?.base_url : reply.llm_base_url) || null,
    apiKeySet: reply.llm_api_key_set,
    confirmationMode: v1 ? (reply.conversation_settings?.confirmation_mode ?? null) : reply.confirmation_mode,
    condenserEnabled: v1 ? (llmCondenser(reply) ?? null) : reply.enable_default_condenser,
    maxBudgetPerTask: reply.max_budget_per_task,
    activeProfile: reply.llm_profiles?.active ?? null,
  };
}

function llmCondenser(reply: ModelSettingsReply): boolean | null | undefined {
  return reply.agent_settings?.condenser?.enabled;
}

/** What to change. Leave a field out to keep it; `baseUrl: null` and `maxBudgetPerTask: null` clear. */
export interface ModelSettingsChange {
  model?: string;
  /** Sent once, to the server; never kept here, never in a log or an error. */
  apiKey?: string;
  baseUrl?: string | null;
  confirmationMode?: boolean;
  condenserEnabled?: boolean;
  maxBudgetPerTask?: number | null;
}

/** Only the fields that differ from what is stored (a key always counts when given). */
export function changedFields(change: ModelSettingsChange, stored?: ModelSettings): ModelSettingsChange {
  if (!stored) return stripUndefined(change);
  return stripUndefined({
    model: change.model !== stored.model ? change.model : undefined,
    apiKey: change.apiKey,
    baseUrl: change.baseUrl !== undefined && change.baseUrl !== stored.baseUrl ? change.baseUrl : undefined,
    confirmationMode:
      change.confirmationMode !== stored.confirmationMode ? change.confirmationMode : undefined,
    condenserEnabled:
      change.condenserEnabled !== stored.condenserEnabled ? change.condenserEnabled : undefined,
    maxBudgetPerTask:
      change.maxBudgetPerTask !== undefined && change.maxBudgetPerTask !== stored.maxBudgetPerTask
        ? change.maxBudgetPerTask
        : undefined,
  });
}

/** The object without its `undefined` fields: an absent field keeps what is stored. */
function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/**
 * The body that posts `change` to `routes`, or `undefined` when there is nothing to post. A cleared base
 * URL is sent as `""`: 1.11 reads `null` as "use the provider's default" and `""` as "none".
 */
export function modelSettingsBody(
  change: ModelSettingsChange,
  generation: SettingsRoutes['generation'],
): Record<string, unknown> | undefined {
  if (Object.keys(change).length === 0) return undefined;
  const baseUrl = change.baseUrl === null ? '' : change.baseUrl;
  const budget =
    change.maxBudgetPerTask === undefined ? {} : { max_budget_per_task: change.maxBudgetPerTask };
  if (generation === 'legacy') {
    return stripUndefined({
      llm_model: change.model,
      llm_api_key: change.apiKey,
      llm_base_url: baseUrl,
      confirmation_mode: change.confirmationMode,
      enable_default_condenser: change.condenserEnabled,
      ...budget,
    });
  }
  const llm = stripUndefined({ model: change.model, api_key: change.apiKey, base_url: baseUrl });
  const condenser =
    change.condenserEnabled === undefined ? {} : { condenser: { enabled: change.condenserEnabled } };
  const agent = { ...(Object.keys(llm).length > 0 ? { llm } : {}), ...condenser };
  return {
    ...(Object.keys(agent).length > 0 ? { agent_settings_diff: agent } : {}),
    ...(change.confirmationMode === undefined
      ? {}
      : { conversation_settings_diff: { confirmation_mode: change.confirmationMode } }),
    ...budget,
  };
}
