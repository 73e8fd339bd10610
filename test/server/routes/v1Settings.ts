// Settings and git provider tokens as openhands-ai 1.11.0 serves them (read in its source and checked
// against the real server by test:real): `GET/POST /api/v1/settings` and `POST/DELETE
// /api/v1/secrets/git-providers`. 1.11.0 no longer has the legacy `/api/settings`,
// `/api/add-git-providers` and `/api/unset-provider-tokens`; this server keeps them for older servers'
// clients, over the same stored state (LLM fields, provider tokens).
//
// - GET 404 `{"error":"Settings not found"}` before anything is stored; then the settings with
//   `agent_settings.llm` (`api_key` always null), `agent_settings.mcp_config` (name → server; header
//   values and `env` are never sent back: a bearer header shows as `auth: {strategy: "bearer"}`),
//   `provider_tokens_set`, `llm_api_key_set`, `search_api_key_set`.
// - POST takes a partial object: `agent_settings_diff` is deep-merged except `mcp_config`, which
//   replaces the stored map; known top-level fields are set; unknown ones (e.g. a legacy `mcp_config`
//   or `llm_model`) are ignored; `agent_settings`/`conversation_settings` are refused with a 422
//   `{"error": …, "keys": […]}`; an MCP entry that is not a server is a 400 `{"error": …}`.
// - git-providers: the first token the provider rejects is a 401 `{"detail": "Invalid token. …"}`
//   (the legacy route let the last provider checked decide, and answered `{"error": …}`).
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import {
  mergeProviderTokens,
  providerAcceptsToken,
  providerTokensSetOf,
  type IncomingProviderTokens,
} from '../gitProviders';
import { PROVIDER_TYPES, type ProviderType, type SettingsRecord, type V1McpServer } from '../models';
import { profilesOf, reconcileActive } from '../llmProfiles';
import type { Route, RouteRequest } from '../route';
import { settingsModelDefaults } from '../settingsDefaults';
import {
  dict,
  enumOf,
  INVALID,
  model,
  nullableField,
  optional,
  str,
  type ValidationIssue,
  isPlainObject,
} from '../validation';

const TOP_LEVEL_FIELDS = [
  'language',
  'user_consents_to_analytics',
  'sandbox_base_container_image',
  'sandbox_runtime_container_image',
  'search_api_key',
  'sandbox_api_key',
  'max_budget_per_task',
  'email',
  'email_verified',
  'git_user_name',
  'git_user_email',
  'enable_sound_notifications',
  'enable_proactive_conversation_starters',
  'remote_runtime_resource_factor',
] as const satisfies readonly (keyof SettingsRecord)[];

function stringMap(value: unknown): Record<string, string> | undefined {
  if (!isPlainObject(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * The SDK's migration of a posted remote server's credential (openhands/sdk/settings/model.py,
 * `_migrate_mcp_server_auth`): `api_key` becomes `{strategy: "api_key"}`, a string `auth` a bearer.
 */
// (an Authorization header stays a header here; GET shows it as a bearer all the same)
function authOf(entry: Record<string, unknown>): Pick<V1McpServer, 'auth'> {
  if (typeof entry.auth === 'string' && entry.auth)
    return { auth: { strategy: 'bearer', value: entry.auth } };
  if (typeof entry.api_key === 'string' && entry.api_key)
    return { auth: { strategy: 'api_key', value: entry.api_key } };
  return {};
}

/** fastmcp's MCPConfig: `{mcpServers: {…}}` or the bare map; each entry a remote or a stdio server. */
function parseMcpMap(value: unknown): Record<string, V1McpServer> | string {
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value)) return 'mcp_config: Input should be a valid dictionary';
  const map = isPlainObject(value.mcpServers) ? value.mcpServers : value;
  const servers: Record<string, V1McpServer> = {};
  for (const [name, entry] of Object.entries(map)) {
    if (!isPlainObject(entry))
      return `mcp_config.${name}: Input should be a valid dictionary or instance of MCPServer`;
    if (typeof entry.url === 'string') {
      const headers = stringMap(entry.headers);
      servers[name] = {
        url: entry.url,
        ...(typeof entry.transport === 'string' ? { transport: entry.transport } : {}),
        ...(typeof entry.timeout === 'number' ? { timeout: entry.timeout } : {}),
        ...(headers ? { headers } : {}),
        ...authOf(entry),
      };
    } else if (typeof entry.command === 'string') {
      servers[name] = {
        command: entry.command,
        args: Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [],
        ...(stringMap(entry.env) ? { env: stringMap(entry.env) } : {}),
        ...(typeof entry.transport === 'string' ? { transport: entry.transport } : {}),
      };
    } else {
      return `mcp_config.${name}: a server needs a url or a command`;
    }
  }
  return servers;
}

/** What GET shows of a stored server: no header values, no environment. */
function maskedServer(server: V1McpServer): Record<string, unknown> {
  if (server.url !== undefined) {
    const bearer = Object.keys(server.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
    const strategy = server.auth?.strategy ?? (bearer ? 'bearer' : undefined);
    return {
      url: server.url,
      ...(server.transport ? { transport: server.transport } : {}),
      ...(server.timeout !== undefined ? { timeout: server.timeout } : {}),
      ...(strategy ? { auth: { strategy } } : {}),
    };
  }
  return {
    command: server.command,
    args: server.args ?? [],
    ...(server.transport ? { transport: server.transport } : {}),
  };
}

function maskedProfiles(settings: SettingsRecord): Record<string, unknown> {
  const { profiles, active } = profilesOf(settings);
  const masked = Object.entries(profiles).map(([name, llm]) => [
    name,
    { ...llm, api_key: llm.api_key === null ? null : '**********' },
  ]);
  return { profiles: Object.fromEntries(masked), active };
}

function loadSettings(_request: RouteRequest, context: ServerContext): Reply {
  const settings = context.state.settings;
  if (settings === null) return json({ error: 'Settings not found' }, 404);
  const providerTokensSet = providerTokensSetOf(context.state.providerTokens);
  const mcp = Object.fromEntries(
    Object.entries(settings.v1_mcp_servers ?? {}).map(([name, server]) => [name, maskedServer(server)]),
  );
  return json({
    ...Object.fromEntries(TOP_LEVEL_FIELDS.map((field) => [field, settings[field]])),
    search_api_key: null,
    sandbox_api_key: null,
    secrets_store: { provider_tokens: {} },
    v1_enabled: true,
    agent_settings: {
      schema_version: 4,
      agent_kind: 'openhands',
      agent: settings.agent ?? 'CodeActAgent',
      llm: { model: settings.llm_model, api_key: null, base_url: settings.llm_base_url },
      mcp_config: mcp,
      // sdk/settings/model.py: the LLM summarizing condenser, on by default, 240 events
      condenser: {
        condenser_kind: 'llm_summarizing',
        enabled: settings.enable_default_condenser,
        max_size: 240,
        max_tokens: null,
      },
    },
    conversation_settings: {
      schema_version: 1,
      max_iterations: settings.max_iterations ?? 500,
      confirmation_mode: settings.confirmation_mode ?? false,
      security_analyzer: settings.security_analyzer ?? 'llm',
    },
    sandbox_grouping_strategy: 'NO_GROUPING',
    // the profiles' keys as pydantic's SecretStr dumps them without `expose_secrets`
    llm_profiles: maskedProfiles(settings),
    provider_tokens_set: providerTokensSet,
    llm_api_key_set: Boolean(settings.llm_api_key),
    search_api_key_set: Boolean(settings.search_api_key),
  });
}

function storeSettings(request: RouteRequest, context: ServerContext): Reply {
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const payload = input.value;
  if (!isPlainObject(payload)) {
    return validationFailed([
      {
        type: 'dict_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary',
        input: payload,
      },
    ]);
  }
  const legacyKeys = ['agent_settings', 'conversation_settings'].filter((key) => key in payload).sort();
  if (legacyKeys.length > 0) {
    return json(
      { error: 'Use *_diff nested settings payloads instead of legacy keys', keys: legacyKeys },
      422,
    );
  }
  const next: SettingsRecord = { ...(context.state.settings ?? settingsModelDefaults()) };
  const diff = payload.agent_settings_diff;
  if (isPlainObject(diff)) {
    const llm = diff.llm;
    if (isPlainObject(llm)) {
      if (typeof llm.model === 'string') next.llm_model = llm.model;
      // resolve_llm_base_url: "" clears it (null would infer the provider's default)
      if ('base_url' in llm)
        next.llm_base_url = typeof llm.base_url === 'string' && llm.base_url ? llm.base_url : null;
      if (typeof llm.api_key === 'string') next.llm_api_key = llm.api_key;
    }
    const condenser = diff.condenser;
    if (isPlainObject(condenser) && typeof condenser.enabled === 'boolean')
      next.enable_default_condenser = condenser.enabled;
    if ('mcp_config' in diff) {
      const servers = parseMcpMap(diff.mcp_config);
      if (typeof servers === 'string') return json({ error: servers }, 400);
      next.v1_mcp_servers = servers;
    }
  }
  const conversation = payload.conversation_settings_diff;
  if (isPlainObject(conversation)) {
    if (typeof conversation.max_iterations === 'number') next.max_iterations = conversation.max_iterations;
    if (typeof conversation.confirmation_mode === 'boolean')
      next.confirmation_mode = conversation.confirmation_mode;
    if (typeof conversation.security_analyzer === 'string')
      next.security_analyzer = conversation.security_analyzer;
  }
  for (const field of TOP_LEVEL_FIELDS) {
    if (field in payload) Object.assign(next, { [field]: payload[field] });
  }
  // `Settings.update` ends with `reconcile_active_profile`: a changed LLM is no longer the profile's
  reconcileActive(next);
  context.state.settings = next;
  return json({ message: 'Settings stored' });
}

const providerToken = model({
  token: nullableField(str()),
  user_id: nullableField(str()),
  host: nullableField(str()),
});
const postProviderModel = model({
  provider_tokens: optional(dict(enumOf(PROVIDER_TYPES), providerToken), () => ({})),
});

function storeProviderTokens(request: RouteRequest, context: ServerContext): Reply {
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const issues: ValidationIssue[] = [];
  const parsed = postProviderModel(input.value, ['body'], issues);
  if (parsed === INVALID) return validationFailed(issues);
  const incoming: IncomingProviderTokens = parsed.provider_tokens;
  const stored = context.state.providerTokens;
  for (const [provider, value] of Object.entries(incoming) as [
    ProviderType,
    NonNullable<IncomingProviderTokens[ProviderType]>,
  ][]) {
    const existing = stored[provider];
    const rejected =
      (value.token && !providerAcceptsToken(provider, value.token)) ||
      (existing?.token && existing.host !== value.host && !providerAcceptsToken(provider, existing.token));
    if (rejected) {
      return json({ detail: `Invalid token. Please make sure it is a valid ${provider} token.` }, 401);
    }
  }
  context.state.providerTokens = mergeProviderTokens(incoming, stored);
  return json({ message: 'Git providers stored' });
}

function unsetProviderTokens(_request: RouteRequest, context: ServerContext): Reply {
  context.state.providerTokens = {};
  return json({ message: 'Unset Git provider tokens' });
}

export const v1SettingsRoutes: Route[] = [
  { since1_11: true, method: 'GET', pattern: /^\/api\/v1\/settings$/, handle: loadSettings },
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/settings$/,
    readsBody: true,
    handle: storeSettings,
  },
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/secrets\/git-providers$/,
    readsBody: true,
    handle: storeProviderTokens,
  },
  {
    since1_11: true,
    method: 'DELETE',
    pattern: /^\/api\/v1\/secrets\/git-providers$/,
    handle: unsetProviderTokens,
  },
];
