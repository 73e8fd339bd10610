/**
 * Whether the agent has a model it can use, from the settings alone: Connect and New Conversation ask
 * before a conversation would sit "running" on 1.11's default model name with no key (issue 36).
 */
import type { ModelSettingsRead } from './modelSettings';
import type { Offered } from './offered';

export type ModelReadiness = 'ready' | 'no-settings' | 'no-model' | 'no-key' | 'unknown';

/**
 * Providers that authenticate without an LLM key: local servers (Ollama, LM Studio) and clouds that use
 * their own credentials (AWS, Google). Every other provider needs one.
 */
export const KEYLESS_PROVIDERS: readonly string[] = [
  'ollama',
  'ollama_chat',
  'lm_studio',
  'bedrock',
  'sagemaker',
  'vertex_ai',
];

/** The provider part of `provider/name`; a bare name is LiteLLM's default provider, OpenAI. */
export function providerOf(model: string): string {
  const slash = model.indexOf('/');
  return slash > 0 ? model.slice(0, slash) : 'openai';
}

/** A model server on this machine (an OpenAI-compatible one at localhost) may need no key. */
function isLoopback(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host) || host === 'host.docker.internal';
  } catch {
    return false;
  }
}

/**
 * `unknown` when the server offers no settings route (the caller does not block on it); otherwise
 * `no-settings` (nothing stored), `no-model`, `no-key` (a provider that needs a key with none stored),
 * or `ready`.
 */
export function modelReadiness(
  read: Offered<ModelSettingsRead>,
  keylessProviders: readonly string[] = KEYLESS_PROVIDERS,
): ModelReadiness {
  if (!read.offered) return 'unknown';
  if (read.value.kind === 'none') return 'no-settings';
  const { model, apiKeySet, baseUrl } = read.value.settings;
  if (!model?.trim()) return 'no-model';
  if (apiKeySet) return 'ready';
  if (keylessProviders.includes(providerOf(model))) return 'ready';
  return baseUrl && isLoopback(baseUrl) ? 'ready' : 'no-key';
}
