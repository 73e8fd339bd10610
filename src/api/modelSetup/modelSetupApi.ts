/**
 * The agent's model, key and LLM profiles on the app server, and the model catalogue (OpenHands 1.11,
 * with the model settings also on the legacy routes of servers before it). Each call goes to the route
 * the server offers; a route it does not offer answers `NOT_OFFERED` and nothing is written elsewhere.
 * A key given here is sent once, in the body; the transport masks it in every error and log entry.
 */
import type * as z from 'zod/mini';
import { ApiError } from '../errors';
import type { HttpTransport } from '../http/transport';
import type { Page } from '../models/common';
import { SuccessSchema, type Success } from '../models/common';
import {
  CatalogueModelPageSchema,
  CatalogueProviderPageSchema,
  ModelSettingsReplySchema,
  ProfileDetailSchema,
  ProfileListSchema,
  ProfileMutationSchema,
  type CatalogueModel,
  type CatalogueProvider,
  type ProfileDetail,
  type ProfileList,
  type ProfileMutation,
} from '../models/modelSetup';
import { MessageReplySchema } from '../models/common';
import type { QueryParams } from '../http/buildRequest';
import { routeExists, routeMissing, type SettingsRoutes } from '../settingsRoutes';
import type { CallOptions } from '../signals';
import { readAllPages, verifiedFirst, type CatalogueList, type CatalogueQuery } from './catalogue';
import {
  changedFields,
  modelSettingsBody,
  modelSettingsOf,
  type ModelSettings,
  type ModelSettingsChange,
  type ModelSettingsRead,
} from './modelSettings';
import { ifOffered, NOT_OFFERED, offered, type Offered } from './offered';

const V1 = '/api/v1';
/** The server's own rule for a profile name (`_NAME_PATTERN`): checked before anything is sent. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Runs a call on the server's settings routes (the client's, which finds and remembers them). */
export type OnSettingsRoutes = <T>(call: (routes: SettingsRoutes) => Promise<T>) => Promise<T>;

/** A profile's LLM as saved: without `llm`, the server saves the settings' own model as the profile. */
export interface ProfileLlm {
  model: string;
  /** Sent once; left out, a profile that exists keeps its key. */
  apiKey?: string;
  baseUrl?: string | null;
}

/** Every call rejects (never throws): a name refused here is a rejected promise like the server's 422. */
export class ModelSetupApi {
  constructor(
    private readonly transport: HttpTransport,
    private readonly onSettingsRoutes: OnSettingsRoutes,
  ) {}

  /** The stored model settings, `none` before any are stored (a fresh server's 404), or not offered. */
  async readModelSettings(options: CallOptions = {}): Promise<Offered<ModelSettingsRead>> {
    try {
      return offered(
        await this.onSettingsRoutes(async (routes) => {
          const reply = await this.send('GET', routes.settings, ModelSettingsReplySchema, options);
          return { kind: 'stored', settings: modelSettingsOf(reply, routes.generation) } as const;
        }),
      );
    } catch (error) {
      // the route's own 404 "Settings not found": it exists, nothing is stored yet
      if (routeExists(error) && error instanceof ApiError && error.kind === 'not_found')
        return offered({ kind: 'none' });
      if (routeMissing(error)) return NOT_OFFERED;
      throw error;
    }
  }

  /**
   * Posts only what differs from `stored` (all of `change` without it). Resolves `false` when nothing
   * differed, so nothing was sent.
   */
  async saveModelSettings(
    change: ModelSettingsChange,
    stored?: ModelSettings,
    options: CallOptions = {},
  ): Promise<Offered<boolean>> {
    const changed = changedFields(change, stored);
    if (Object.keys(changed).length === 0) return offered(false);
    try {
      return offered(
        await this.onSettingsRoutes(async (routes) => {
          const body = modelSettingsBody(changed, routes.generation);
          if (body === undefined) return false;
          await this.send('POST', routes.settings, MessageReplySchema, options, { body });
          return true;
        }),
      );
    } catch (error) {
      if (routeMissing(error)) return NOT_OFFERED;
      throw error;
    }
  }

  // ---- the catalogue ----

  /** Every model the server lists (within bounds), verified first. */
  searchModels(
    query: CatalogueQuery = {},
    options: CallOptions = {},
  ): Promise<Offered<CatalogueList<CatalogueModel>>> {
    return this.readCatalogue(`${V1}/config/models/search`, CatalogueModelPageSchema, query, options, {
      provider__eq: query.provider,
    });
  }

  /** Every provider the server lists (within bounds), verified first. */
  searchProviders(
    query: Omit<CatalogueQuery, 'provider'> = {},
    options: CallOptions = {},
  ): Promise<Offered<CatalogueList<CatalogueProvider>>> {
    return this.readCatalogue(
      `${V1}/config/providers/search`,
      CatalogueProviderPageSchema,
      query,
      options,
      {},
    );
  }

  // ---- LLM profiles ----

  async listProfiles(options: CallOptions = {}): Promise<Offered<ProfileList>> {
    return ifOffered(() => this.send('GET', `${V1}/settings/profiles`, ProfileListSchema, options));
  }

  /** The profile, or `undefined` when the server has none of that name. */
  async getProfile(name: string, options: CallOptions = {}): Promise<Offered<ProfileDetail | undefined>> {
    try {
      return await ifOffered(() => this.send('GET', profilePath(name), ProfileDetailSchema, options));
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'not_found') return offered(undefined);
      throw error;
    }
  }

  /** Saves (or overwrites) a profile; the server refuses an eleventh (409) and any unknown LLM field (422). */
  async saveProfile(
    name: string,
    llm?: ProfileLlm,
    options: CallOptions = {},
  ): Promise<Offered<ProfileMutation>> {
    const body = llm
      ? {
          llm: {
            model: llm.model,
            ...(llm.apiKey ? { api_key: llm.apiKey } : {}),
            ...(llm.baseUrl === undefined ? {} : { base_url: llm.baseUrl }),
          },
        }
      : {};
    return ifOffered(() => this.send('POST', profilePath(name), ProfileMutationSchema, options, { body }));
  }

  /** Idempotent on the server; deleting the active profile makes the first one left active. */
  async deleteProfile(name: string, options: CallOptions = {}): Promise<Offered<ProfileMutation>> {
    return ifOffered(() => this.send('DELETE', profilePath(name), ProfileMutationSchema, options));
  }

  /** The settings' model becomes the profile's; the reply names the model now in use. */
  async activateProfile(name: string, options: CallOptions = {}): Promise<Offered<ProfileMutation>> {
    return ifOffered(() =>
      this.send('POST', `${profilePath(name)}/activate`, ProfileMutationSchema, options, { body: {} }),
    );
  }

  async renameProfile(
    name: string,
    newName: string,
    options: CallOptions = {},
  ): Promise<Offered<ProfileMutation>> {
    checkProfileName(newName);
    return ifOffered(() =>
      this.send('POST', `${profilePath(name)}/rename`, ProfileMutationSchema, options, {
        body: { new_name: newName },
      }),
    );
  }

  /** A running conversation goes on with a saved profile's model (409 while its sandbox is paused). */
  async switchProfile(
    conversationId: string,
    profileName: string,
    options: CallOptions = {},
  ): Promise<Offered<Success>> {
    if (!profileName) throw new ApiError({ kind: 'validation', message: 'A profile name is needed.' });
    const path = `${V1}/app-conversations/${encodeURIComponent(conversationId)}/switch_profile`;
    return ifOffered(() =>
      this.send('POST', path, SuccessSchema, options, { body: { profile_name: profileName } }),
    );
  }

  // ---- plumbing ----

  private async readCatalogue<T extends { verified: boolean }>(
    path: string,
    schema: z.ZodMiniType<Page<T>>,
    query: CatalogueQuery,
    options: CallOptions,
    extra: QueryParams,
  ): Promise<Offered<CatalogueList<T>>> {
    const read = await ifOffered(() =>
      readAllPages(
        (pageId, limit) =>
          this.send('GET', path, schema, options, {
            query: {
              query: query.query || undefined,
              verified__eq: query.verified,
              ...extra,
              page_id: pageId,
              limit,
            },
          }),
        query.maxItems,
      ),
    );
    return read.offered ? offered({ ...read.value, items: verifiedFirst(read.value.items) }) : read;
  }

  private send<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    schema: z.ZodMiniType<T>,
    options: CallOptions,
    extra: { body?: unknown; query?: QueryParams } = {},
  ): Promise<T> {
    return this.transport.request({ method, path, schema, signal: options.signal, ...extra });
  }
}

function checkProfileName(name: string): void {
  if (!PROFILE_NAME.test(name))
    throw new ApiError({
      kind: 'validation',
      message: 'A profile name is 1 to 64 letters, digits, dots, dashes or underscores.',
    });
}

function profilePath(name: string): string {
  checkProfileName(name);
  return `${V1}/settings/profiles/${encodeURIComponent(name)}`;
}
