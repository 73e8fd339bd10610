/**
 * What the page shows for a server, read in one go: the model settings, the profiles and whether the
 * catalogue is offered. A route the server does not offer is said as such, never read elsewhere.
 */
import { modelReadiness, type ModelSetupApi, type ModelSettingsRead, type Offered } from '../../../api';
import type { PageModel, ProfileRow } from '../shared/pageModel';
import type { UiStrings } from '../shared/uiStrings';
import type { CatalogueChoices } from './catalogueChoices';
import { readinessWords } from './readinessWords';

/** The most profiles shown (the server keeps ten). */
const MAX_PROFILES = 100;

export interface PageServer {
  serverUrl: string;
  serverName: string;
}

export async function readPage(
  api: Pick<ModelSetupApi, 'readModelSettings' | 'listProfiles'>,
  catalogue: CatalogueChoices,
  server: PageServer,
  strings: UiStrings,
): Promise<PageModel> {
  const [read, profiles, providers] = await Promise.all([
    api.readModelSettings(),
    api.listProfiles(),
    catalogue.providerList(),
  ]);
  return pageModelOf(
    read,
    profiles.offered ? profiles.value : undefined,
    providers !== undefined,
    server,
    strings,
  );
}

export function pageModelOf(
  read: Offered<ModelSettingsRead>,
  profiles:
    | {
        profiles: { name: string; model: string | null; api_key_set: boolean }[];
        active_profile: string | null;
      }
    | undefined,
  catalogueOffered: boolean,
  server: PageServer,
  strings: UiStrings,
): PageModel {
  const settings = read.offered && read.value.kind === 'stored' ? read.value.settings : undefined;
  const readiness = modelReadiness(read);
  const active = settings?.activeProfile ?? profiles?.active_profile ?? null;
  const rows: ProfileRow[] | null = profiles
    ? profiles.profiles.slice(0, MAX_PROFILES).map((profile) => ({
        name: profile.name.slice(0, 64),
        model: profile.model?.slice(0, 500) ?? null,
        apiKeySet: profile.api_key_set,
        active: profile.name === active,
      }))
    : null;
  return {
    serverUrl: server.serverUrl,
    serverName: server.serverName.slice(0, 200),
    webUrl: webAddress(server.serverUrl),
    settingsRoute: settings?.generation ?? (read.offered ? 'v1' : 'none'),
    stored: settings
      ? {
          model: settings.model?.slice(0, 500) ?? null,
          baseUrl: settings.baseUrl?.slice(0, 2000) ?? null,
          apiKeySet: settings.apiKeySet,
          confirmationMode: settings.confirmationMode,
          condenserEnabled: settings.condenserEnabled,
          maxBudgetPerTask: settings.maxBudgetPerTask,
          budgetOffered: true,
        }
      : null,
    readiness,
    readinessText: readinessWords(readiness, settings?.model?.slice(0, 500) ?? null, strings),
    catalogueOffered,
    profiles: rows,
  };
}

/** The server's own web page: its URL when it is http(s), else nothing to open. */
export function webAddress(serverUrl: string): string | null {
  try {
    const url = new URL(serverUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return null;
  }
}
