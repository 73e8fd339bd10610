// A small model catalogue in the shape openhands-ai 1.11.0 builds it
// (app_server/config_api/default_llm_model_service.py): `provider/name` strings sorted as one list
// (`sorted(set(all_models))` in utils/llm.py), `verified` when the SDK's VERIFIED_MODELS names the
// pair (sdk/llm/utils/verified_models.py), providers verified first with `openhands` leading.

/** A slice of the real list: verified and unverified models, and a provider with no verified model. */
export const CATALOGUE_MODELS: readonly string[] = [
  'anthropic/claude-3-haiku-20240307',
  'anthropic/claude-sonnet-4-5-20250929',
  'anthropic/claude-sonnet-4-6',
  'anthropic/claude-2.1',
  'cohere/command-r-plus',
  'deepseek/deepseek-chat',
  'gemini/gemini-3-pro',
  'gemini/gemini-1.5-flash',
  'mistral/devstral-medium-2507',
  'ollama/llama3',
  'openai/gpt-4o',
  'openai/gpt-5.5',
  'openai/gpt-3.5-turbo',
  'openhands/claude-sonnet-4-5',
  'openhands/gpt-5.5',
  'openhands/minimax-m2.7',
  'openrouter/meta-llama/llama-3-70b-instruct',
]
  .slice()
  .sort();

const VERIFIED: ReadonlySet<string> = new Set([
  'anthropic/claude-3-haiku-20240307',
  'anthropic/claude-sonnet-4-5-20250929',
  'anthropic/claude-sonnet-4-6',
  'deepseek/deepseek-chat',
  'gemini/gemini-3-pro',
  'mistral/devstral-medium-2507',
  'openai/gpt-4o',
  'openai/gpt-5.5',
  'openhands/claude-sonnet-4-5',
  'openhands/gpt-5.5',
  'openhands/minimax-m2.7',
]);

/** `VERIFIED_PROVIDERS`: the keys of the SDK's VERIFIED_MODELS. */
const VERIFIED_PROVIDERS: ReadonlySet<string> = new Set([
  'openhands',
  'anthropic',
  'openai',
  'mistral',
  'gemini',
  'deepseek',
  'moonshot',
  'minimax',
  'glm',
  'nvidia',
  'qwen',
]);

export interface CatalogueModel {
  provider: string | null;
  name: string;
  verified: boolean;
  hidden: boolean;
  canonical: string | null;
}

export interface CatalogueProvider {
  name: string;
  verified: boolean;
}

/** `_to_llm_models`: the provider is what comes before the first `/`. */
export function catalogueModels(models: readonly string[] = CATALOGUE_MODELS): CatalogueModel[] {
  return models.map((full) => {
    const slash = full.indexOf('/');
    return {
      provider: slash < 0 ? null : full.slice(0, slash),
      name: slash < 0 ? full : full.slice(slash + 1),
      verified: VERIFIED.has(full),
      hidden: false,
      canonical: null,
    };
  });
}

/** `_to_providers`: unique prefixes, sorted (not verified, not openhands, name). */
export function catalogueProviders(models: readonly string[] = CATALOGUE_MODELS): CatalogueProvider[] {
  const names = [...new Set(models.filter((m) => m.includes('/')).map((m) => m.slice(0, m.indexOf('/'))))];
  const providers = names.map((name) => ({ name, verified: VERIFIED_PROVIDERS.has(name) }));
  const key = (p: CatalogueProvider): string =>
    `${p.verified ? 0 : 1}${p.name === 'openhands' ? 0 : 1}${p.name}`;
  return providers.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
