// The LLM profile routes of openhands-ai 1.11.0 (app_server/settings/settings_router.py, "LLM Profile
// endpoints"), over the stored settings:
// - GET /api/v1/settings/profiles: `{profiles: [{name, model, base_url, api_key_set}], active_profile}`,
//   an empty list (not a 404) before any settings are stored.
// - GET /profiles/{name}: `{name, config, api_key_set}` with `config.api_key` always null; 404
//   `{"detail": "Profile 'x' not found"}`.
// - POST /profiles/{name} (201): `llm` (StrictLLM: an unknown key is a 422) or, without it, a snapshot of
//   the settings' LLM; a posted `llm` without a key keeps the stored profile's; 404 "Settings not found"
//   before settings exist; 409 past ten profiles.
// - DELETE /profiles/{name}: idempotent; deleting the active one activates the first left.
// - POST /profiles/{name}/activate: the settings' LLM becomes the profile's; `{name, message, model}`.
// - POST /profiles/{name}/rename `{new_name}`: 404 unknown, 409 taken.
// `{name}` and `new_name` must match `^[A-Za-z0-9._-]{1,64}$` (a 422 otherwise, before the handler).
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import {
  currentLlm,
  deleteProfile,
  hasRealKey,
  MAX_PROFILES,
  PROFILE_NAME_PATTERN,
  profilesOf,
  reconcileActive,
  renameProfile,
  switchTo,
} from '../llmProfiles';
import type { ProfileLlmRecord } from '../models';
import type { Route, RouteRequest } from '../route';
import { isPlainObject, issue, type Loc, type ValidationIssue } from '../validation';

/** Fields of the SDK's `LLM` a test posts; StrictLLM refuses any key it does not have. */
const LLM_FIELDS = new Set([
  'model',
  'api_key',
  'base_url',
  'api_version',
  'usage_id',
  'temperature',
  'top_p',
  'max_output_tokens',
  'timeout',
  'num_retries',
  'custom_llm_provider',
  'reasoning_effort',
  'is_subscription',
]);

function nameIssue(value: unknown, loc: Loc): ValidationIssue | undefined {
  if (typeof value !== 'string') return issue('string_type', loc, 'Input should be a valid string', value);
  if (PROFILE_NAME_PATTERN.test(value)) return undefined;
  const pattern = PROFILE_NAME_PATTERN.source;
  return issue('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, value, {
    pattern,
  });
}

function profileName(request: RouteRequest): string | Reply {
  const name = request.params.name ?? '';
  const problem = nameIssue(name, ['path', 'name']);
  return problem ? validationFailed([problem]) : name;
}

const notFound = (detail: string): Reply => json({ detail }, 404);

function listProfiles(_request: RouteRequest, context: ServerContext): Reply {
  const settings = context.state.settings;
  if (settings === null) return json({ profiles: [], active_profile: null });
  const profiles = profilesOf(settings);
  return json({
    profiles: Object.entries(profiles.profiles).map(([name, llm]) => ({
      name,
      model: llm.model,
      base_url: llm.base_url,
      api_key_set: hasRealKey(llm.api_key),
    })),
    active_profile: profiles.active,
  });
}

function getProfile(request: RouteRequest, context: ServerContext): Reply {
  const name = profileName(request);
  if (typeof name !== 'string') return name;
  const settings = context.state.settings;
  const llm = settings === null ? undefined : profilesOf(settings).profiles[name];
  if (!llm) return notFound(`Profile '${name}' not found`);
  return json({ name, config: { ...llm, api_key: null }, api_key_set: hasRealKey(llm.api_key) });
}

/** The posted `llm`, checked as StrictLLM checks it, or the issues. */
function postedLlm(value: unknown): ProfileLlmRecord | ValidationIssue[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value))
    return [issue('model_type', ['body', 'llm'], 'Input should be a valid dictionary', value)];
  const issues = Object.keys(value)
    .filter((key) => !LLM_FIELDS.has(key))
    .map((key) =>
      issue('extra_forbidden', ['body', 'llm', key], 'Extra inputs are not permitted', value[key]),
    );
  for (const field of ['model', 'api_key', 'base_url'] as const) {
    const v = value[field];
    if (v !== undefined && v !== null && typeof v !== 'string')
      issues.push(issue('string_type', ['body', 'llm', field], 'Input should be a valid string', v));
  }
  if (issues.length > 0) return issues;
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    model: text(value.model) ?? 'gpt-5.5',
    api_key: text(value.api_key),
    base_url: text(value.base_url),
  };
}

function saveProfile(request: RouteRequest, context: ServerContext): Reply {
  const name = profileName(request);
  if (typeof name !== 'string') return name;
  const input = bodyInput(request.body);
  const raw = input.present ? input.value : null;
  if (raw !== null && !isPlainObject(raw))
    return validationFailed([
      issue('model_attributes_type', ['body'], 'Input should be a valid dictionary or object', raw),
    ]);
  const body = raw ?? {};
  const posted = postedLlm(body.llm);
  if (Array.isArray(posted)) return validationFailed(posted);
  const settings = context.state.settings;
  if (settings === null) return notFound('Settings not found');
  const profiles = profilesOf(settings);
  const existing = profiles.profiles[name];
  let llm = posted ?? currentLlm(settings);
  if (posted && posted.api_key === null && existing) llm = { ...llm, api_key: existing.api_key };
  if (body.preserve_existing_api_key === true && existing) llm = { ...llm, api_key: existing.api_key };
  if (body.include_secrets === false) llm = { ...llm, api_key: null };
  if (!existing && Object.keys(profiles.profiles).length >= MAX_PROFILES)
    return json(
      { detail: `Profile limit reached (${MAX_PROFILES}). Delete a profile before saving a new one.` },
      409,
    );
  settings.llm_profiles = { ...profiles, profiles: { ...profiles.profiles, [name]: llm } };
  reconcileActive(settings);
  return json({ name, message: `Profile '${name}' saved` }, 201);
}

function removeProfile(request: RouteRequest, context: ServerContext): Reply {
  const name = profileName(request);
  if (typeof name !== 'string') return name;
  if (context.state.settings !== null) deleteProfile(context.state.settings, name);
  return json({ name, message: `Profile '${name}' deleted` });
}

function activateProfile(request: RouteRequest, context: ServerContext): Reply {
  const name = profileName(request);
  if (typeof name !== 'string') return name;
  const settings = context.state.settings;
  if (settings === null || !switchTo(settings, name)) return notFound(`Profile '${name}' not found`);
  return json({ name, message: `Switched to profile '${name}'`, model: settings.llm_model });
}

function renameRoute(request: RouteRequest, context: ServerContext): Reply {
  const name = profileName(request);
  if (typeof name !== 'string') return name;
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const body = input.value;
  if (!isPlainObject(body))
    return validationFailed([
      issue('model_attributes_type', ['body'], 'Input should be a valid dictionary or object', body),
    ]);
  if (!('new_name' in body))
    return validationFailed([issue('missing', ['body', 'new_name'], 'Field required', body)]);
  const problem = nameIssue(body.new_name, ['body', 'new_name']);
  if (problem) return validationFailed([problem]);
  const newName = String(body.new_name);
  const settings = context.state.settings;
  if (settings === null) return notFound('Settings not found');
  const outcome = renameProfile(settings, name, newName);
  if (outcome === 'missing') return notFound(`Profile '${name}' not found`);
  if (outcome === 'taken') return json({ detail: `Profile '${newName}' already exists` }, 409);
  return json({ name: newName, message: `Profile '${name}' renamed to '${newName}'` });
}

const ONE = /^\/api\/v1\/settings\/profiles\/(?<name>[^/]+)$/;

export const llmProfileRoutes: Route[] = [
  { since1_11: true, method: 'GET', pattern: /^\/api\/v1\/settings\/profiles$/, handle: listProfiles },
  { since1_11: true, method: 'GET', pattern: ONE, handle: getProfile },
  { since1_11: true, method: 'POST', pattern: ONE, readsBody: true, handle: saveProfile },
  { since1_11: true, method: 'DELETE', pattern: ONE, handle: removeProfile },
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/settings\/profiles\/(?<name>[^/]+)\/activate$/,
    handle: activateProfile,
  },
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/settings\/profiles\/(?<name>[^/]+)\/rename$/,
    readsBody: true,
    handle: renameRoute,
  },
];
