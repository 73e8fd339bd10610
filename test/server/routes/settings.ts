// GET/POST /api/settings (legacy). GET never reveals secrets (only `*_set` flags and provider→host);
// POST merges the posted top-level fields into the stored settings (OpenHands 1.11's `Settings.update`):
// omitted fields keep their stored value, and five keep it when sent as null.
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { mcpConfigValidator } from '../mcpConfig';
import { providerTokensSetOf } from '../gitProviders';
import type { SettingsRecord } from '../models';
import type { Route, RouteRequest } from '../route';
import { emptyMcpConfig, settingsModelDefaults } from '../settingsDefaults';
import {
  anyValue,
  bool,
  float,
  INVALID,
  int,
  model,
  optional,
  str,
  type ValidationIssue,
  nullableField,
  isPlainObject,
} from '../validation';

const settingsModel = model({
  language: nullableField(str()),
  agent: nullableField(str()),
  max_iterations: nullableField(int()),
  security_analyzer: nullableField(str()),
  confirmation_mode: nullableField(bool()),
  llm_model: nullableField(str()),
  llm_api_key: nullableField(str()),
  llm_base_url: nullableField(str()),
  remote_runtime_resource_factor: nullableField(int()),
  // Accepted for read-modify-write clients; provider tokens are only changed via add-git-providers.
  secrets_store: optional(anyValue(), () => null),
  enable_default_condenser: optional(bool(), () => true),
  enable_sound_notifications: optional(bool(), () => false),
  enable_proactive_conversation_starters: optional(bool(), () => true),
  enable_solvability_analysis: optional(bool(), () => true),
  user_consents_to_analytics: nullableField(bool()),
  sandbox_base_container_image: nullableField(str()),
  sandbox_runtime_container_image: nullableField(str()),
  mcp_config: nullableField(mcpConfigValidator),
  search_api_key: nullableField(str()),
  sandbox_api_key: nullableField(str()),
  max_budget_per_task: nullableField(float()),
  email: nullableField(str()),
  email_verified: nullableField(bool()),
  git_user_name: nullableField(str()),
  git_user_email: nullableField(str()),
});

/** Only these fall back to the stored value when the POST sends null (or omits them). */
const KEPT_WHEN_NULL = [
  'llm_api_key',
  'llm_model',
  'llm_base_url',
  'search_api_key',
  'user_consents_to_analytics',
] as const;

function loadSettings(_request: RouteRequest, context: ServerContext): Reply {
  const settings = context.state.settings;
  if (settings === null) return json({ error: 'Settings not found' }, 404);
  const providerTokensSet = providerTokensSetOf(context.state.providerTokens);
  const { v1_mcp_servers: _v1Only, ...legacy } = settings;
  return json({
    ...legacy,
    llm_api_key: null,
    search_api_key: null,
    sandbox_api_key: null,
    // config.toml's (empty) [mcp] section is merged in on read, so this is never null.
    mcp_config: settings.mcp_config ?? emptyMcpConfig(),
    provider_tokens_set: providerTokensSet,
    llm_api_key_set: Boolean(settings.llm_api_key),
    search_api_key_set: Boolean(settings.search_api_key),
  });
}

function storeSettings(request: RouteRequest, context: ServerContext): Reply {
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const issues: ValidationIssue[] = [];
  const parsed = settingsModel(input.value, ['body'], issues);
  if (parsed === INVALID) return validationFailed(issues);
  const { secrets_store: _ignored, ...incoming } = parsed;
  const existing = context.state.settings;
  const posted = new Set(Object.keys(isPlainObject(input.value) ? input.value : {}));
  // the validator filled in defaults for what was not posted: those keep what is stored
  const next: SettingsRecord = { ...(existing ?? settingsModelDefaults()) };
  for (const [field, value] of Object.entries(incoming)) {
    if (posted.has(field)) Object.assign(next, { [field]: value });
  }
  if (existing !== null) {
    for (const field of KEPT_WHEN_NULL) {
      if (next[field] === null) Object.assign(next, { [field]: existing[field] });
    }
  }
  context.state.settings = next;
  return json({ message: 'Settings stored' });
}

export const settingsRoutes: Route[] = [
  { method: 'GET', pattern: /^\/api\/settings$/, legacyAuth: true, handle: loadSettings },
  { method: 'POST', pattern: /^\/api\/settings$/, readsBody: true, legacyAuth: true, handle: storeSettings },
];
