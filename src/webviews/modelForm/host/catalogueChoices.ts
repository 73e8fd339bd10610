/**
 * The server's catalogue as the page's two lists: read whole once per server (providers once, each
 * provider's models once), searched here, and only what the page shows is posted (`MAX_CHOICES`,
 * verified first). LiteLLM's list alone is a few thousand models: the page never holds it.
 */
import { modelId, type CatalogueModel, type CatalogueProvider, type ModelSetupApi } from '../../../api';
import { MAX_CHOICES } from '../shared/protocol';
import type { Choice } from '../shared/pageModel';

/** Providers whose models are kept at once; the oldest read is dropped past it. */
const MAX_CACHED_PROVIDERS = 12;

export interface ShownChoices {
  items: Choice[];
  /** How many more matched than are shown. */
  more: number;
}

/**
 * The entries whose label or value holds `query` (any case), verified first and otherwise in the
 * server's order, at most `limit`.
 */
export function shapeChoices(entries: readonly Choice[], query: string, limit = MAX_CHOICES): ShownChoices {
  const needle = query.trim().toLowerCase();
  const matching = needle
    ? entries.filter(
        (entry) => entry.label.toLowerCase().includes(needle) || entry.value.toLowerCase().includes(needle),
      )
    : entries;
  const ordered = [...matching.filter((e) => e.verified), ...matching.filter((e) => !e.verified)];
  return { items: ordered.slice(0, limit), more: Math.max(0, ordered.length - limit) };
}

/** Longer than the protocol lets an entry be: a name cut short would be another name, so it is left out. */
const MAX_NAME = 500;

/** The providers as entries of the list. */
export function providerChoices(providers: readonly CatalogueProvider[]): Choice[] {
  return providers
    .filter((provider) => provider.name.length <= MAX_NAME)
    .map((provider) => ({ value: provider.name, label: provider.name, verified: provider.verified }));
}

/** The models the page may offer: hidden ones (aliases) are valid when saved, never offered. */
export function modelChoices(models: readonly CatalogueModel[]): Choice[] {
  return models
    .filter((model) => !model.hidden && modelId(model).length <= MAX_NAME)
    .map((model) => ({ value: modelId(model), label: model.name, verified: model.verified }));
}

export type CatalogueApi = Pick<ModelSetupApi, 'searchModels' | 'searchProviders'>;

/** One server's catalogue; a new server gets a new one. A failed read is tried again next time. */
export class CatalogueChoices {
  private providers: Promise<Choice[] | undefined> | undefined;
  private readonly models = new Map<string, Promise<Choice[] | undefined>>();

  constructor(private readonly api: CatalogueApi) {}

  /** The providers, or `undefined` when the server offers no catalogue. */
  providerList(): Promise<Choice[] | undefined> {
    this.providers ??= this.api.searchProviders().then(
      (read) => (read.offered ? providerChoices(read.value.items) : undefined),
      (error: unknown) => {
        this.providers = undefined;
        throw error;
      },
    );
    return this.providers;
  }

  /** The provider's models, or `undefined` when the server offers no catalogue. */
  modelList(provider: string): Promise<Choice[] | undefined> {
    const cached = this.models.get(provider);
    if (cached) return cached;
    const read = this.api.searchModels({ provider }).then(
      (list) => (list.offered ? modelChoices(list.value.items) : undefined),
      (error: unknown) => {
        this.models.delete(provider);
        throw error;
      },
    );
    this.models.set(provider, read);
    for (const oldest of this.models.keys()) {
      if (this.models.size <= MAX_CACHED_PROVIDERS) break;
      this.models.delete(oldest);
    }
    return read;
  }

  async search(list: 'providers' | 'models', provider: string, query: string): Promise<ShownChoices> {
    if (list === 'models' && !provider) return { items: [], more: 0 };
    const entries = list === 'providers' ? await this.providerList() : await this.modelList(provider);
    return shapeChoices(entries ?? [], query);
  }
}
