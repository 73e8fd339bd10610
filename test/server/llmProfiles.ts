// openhands-ai 1.11.0's `LLMProfiles` rules over the stored settings (app_server/settings/llm_profiles.py
// and settings_models.py), shared by the profile routes and `POST /api/v1/settings`.
import type { LlmProfilesRecord, ProfileLlmRecord, SettingsRecord } from './models';

/** `MAX_PROFILES_PER_USER`. */
export const MAX_PROFILES = 10;
/** `_NAME_PATTERN`: the path's `{name}` and a rename's `new_name`. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function profilesOf(settings: SettingsRecord): LlmProfilesRecord {
  return settings.llm_profiles ?? { profiles: {}, active: null };
}

/** The settings' own LLM as a profile would hold it (the SDK's default model when none is stored). */
export function currentLlm(settings: SettingsRecord): ProfileLlmRecord {
  return {
    model: settings.llm_model ?? 'gpt-5.5',
    api_key: settings.llm_api_key,
    base_url: settings.llm_base_url,
  };
}

function sameLlm(a: ProfileLlmRecord, b: ProfileLlmRecord): boolean {
  return a.model === b.model && a.api_key === b.api_key && a.base_url === b.base_url;
}

/** `reconcile_active_profile`: the active marker goes when the running LLM no longer matches it. */
export function reconcileActive(settings: SettingsRecord): void {
  const profiles = profilesOf(settings);
  const saved = profiles.active === null ? undefined : profiles.profiles[profiles.active];
  if (profiles.active !== null && (!saved || !sameLlm(saved, currentLlm(settings))))
    settings.llm_profiles = { ...profiles, active: null };
}

/** `switch_to_profile`: the settings' LLM becomes a copy of the profile's. */
export function switchTo(settings: SettingsRecord, name: string): boolean {
  const profiles = profilesOf(settings);
  const llm = profiles.profiles[name];
  if (!llm) return false;
  settings.llm_model = llm.model;
  settings.llm_api_key = llm.api_key;
  settings.llm_base_url = llm.base_url;
  settings.llm_profiles = { ...profiles, active: name };
  return true;
}

/** `Settings.delete_profile`: deleting the active one activates the first left, if any. */
export function deleteProfile(settings: SettingsRecord, name: string): boolean {
  const profiles = profilesOf(settings);
  if (!(name in profiles.profiles)) return false;
  const { [name]: _gone, ...rest } = profiles.profiles;
  const wasActive = profiles.active === name;
  settings.llm_profiles = { profiles: rest, active: wasActive ? null : profiles.active };
  const fallback = Object.keys(rest)[0];
  if (wasActive && fallback !== undefined) switchTo(settings, fallback);
  return true;
}

/** `LLMProfiles.rename`: keeps the slot in insertion order and the active marker. */
export function renameProfile(
  settings: SettingsRecord,
  from: string,
  to: string,
): 'ok' | 'missing' | 'taken' {
  const profiles = profilesOf(settings);
  if (!(from in profiles.profiles)) return 'missing';
  if (from === to) return 'ok';
  if (to in profiles.profiles) return 'taken';
  const renamed = Object.fromEntries(
    Object.entries(profiles.profiles).map(([key, llm]) => [key === from ? to : key, llm]),
  );
  settings.llm_profiles = { profiles: renamed, active: profiles.active === from ? to : profiles.active };
  return 'ok';
}

/** A key is "set" only when it holds more than whitespace (`has_real_api_key`). */
export function hasRealKey(key: string | null): boolean {
  return key !== null && key.trim() !== '';
}
