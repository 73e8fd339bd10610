import * as z from 'zod/mini';
import '../zodLocale';
import type { ConnectionPool } from './connectionPool';
import { ApiError } from './errors';
import {
  AppConversationPageSchema,
  AppConversationSchema,
  AppConversationStartTaskPageSchema,
  AppConversationStartTaskSchema,
  MessageReplySchema,
  SandboxInfoSchema,
  SandboxPageSchema,
  SandboxSpecInfoSchema,
  SandboxSpecPageSchema,
  SettingsSchema,
  SuccessSchema,
  type AppConversation,
  type AppConversationPage,
  type AppConversationStartRequest,
  type AppConversationStartTask,
  type AppConversationStartTaskPage,
  type MessageReply,
  type ProviderTokensRequest,
  type SandboxInfo,
  type SandboxPage,
  type SandboxSpecInfo,
  type SandboxSpecPage,
  type Settings,
  type Success,
} from './models';
import type { QueryParams } from './http/buildRequest';
import {
  listSandboxConversations,
  type SandboxConversations,
  type SandboxConversationsOptions,
} from './sandboxConversations';
import type {
  ConversationFilters,
  ConversationSearchQuery,
  DateInput,
  PageQuery,
  StartTaskFilters,
  StartTaskSearchQuery,
} from './searchQueries';
import { ConversationManageApi } from './conversationManage';
import { ModelSetupApi } from './modelSetup/modelSetupApi';
import { checkServerUrl } from './serverUrl';
import {
  LEGACY_SETTINGS_ROUTES,
  routeExists,
  routeMissing,
  V1_SETTINGS_ROUTES,
  type SettingsRoutes,
} from './settingsRoutes';
import type { CallOptions } from './signals';
import { waitForStartTask, type WaitForStartTaskOptions } from './startTaskPoller';
import type { TlsOptions } from './tls';
import { HttpTransport, type AuthHeader, type RequestLogEntry } from './http/transport';

export interface OpenHandsClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** `X-Session-API-Key` (OSS, default), `Authorization` (sent as `Bearer <key>`) or `X-Access-Token`. */
  authHeader?: AuthHeader;
  timeoutMs?: number;
  /** A streamed conversation start may take this long in all (default 15 min). */
  streamTimeoutMs?: number;
  /** Replies larger than this are refused (default 32 MB). */
  maxResponseBytes?: number;
  onLog?: (entry: RequestLogEntry) => void;
  /** Adds redacted request and response bodies to log entries. */
  logBodies?: boolean | (() => boolean);
  /** Further secrets to mask in every error and log entry, asked per request. */
  extraSecrets?: () => readonly string[];
  maxRateLimitRetries?: number;
  maxRetryAfterMs?: number;
  tls?: TlsOptions;
  /** Keep-alive connections shared with the server's other clients (its agent servers'). */
  pool?: ConnectionPool;
}

const V1 = '/api/v1';

/** Only the document's `info`: the paths are large and not ours to check. */
const ServerInfoSchema = z.looseObject({
  info: z.optional(z.looseObject({ title: z.optional(z.string()), version: z.optional(z.string()) })),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;
const MAX_LIMIT = 100;
/** Conversations, start tasks and sandboxes take fewer than 100 ids per call; specs take 100. */
const MAX_IDS = 99;
const MAX_SPEC_IDS = 100;

/**
 * A list's first page is what a refresh asks for again and again; a later page (a listing read to
 * its end) is not, and keeping it would only cost the freezing.
 */
function isPolled(query: PageQuery): boolean {
  return query.pageId === undefined;
}

/**
 * One client for every endpoint of the OpenHands app server used by the extension. Pure: no
 * `vscode` import, so it runs (and is tested) in plain Node.
 */
export class OpenHandsClient {
  private readonly transport: HttpTransport;
  private readonly timeoutMs: number;
  private settingsRoutes: SettingsRoutes | undefined;
  /** The agent's model and key, LLM profiles and the model catalogue. */
  readonly modelSetup: ModelSetupApi;
  /** Rename, delete, download a conversation; queue a message while it starts (OpenHands 1.11). */
  readonly manage: ConversationManageApi;

  constructor(options: OpenHandsClientOptions) {
    const check = checkServerUrl(options.baseUrl);
    if (!check.ok) throw new ApiError({ kind: 'validation', message: check.message });
    this.transport = new HttpTransport({ ...options, baseUrl: check.url });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.modelSetup = new ModelSetupApi(this.transport, (call) => this.onSettingsRoutes(call));
    this.manage = new ConversationManageApi(this.transport);
  }

  get serverUrl(): string {
    return this.transport.serverUrl;
  }

  /**
   * What the server says about itself in its OpenAPI document (FastAPI's `/openapi.json`, public):
   * its title (`OpenHands`) and version. Servers that hide the document answer 404.
   */
  getServerInfo(options: CallOptions = {}): Promise<ServerInfo> {
    return this.get('/openapi.json', ServerInfoSchema, options);
  }

  // ---- App conversations ----

  searchConversations(
    query: ConversationSearchQuery = {},
    options: CallOptions = {},
  ): Promise<AppConversationPage> {
    return this.get(
      `${V1}/app-conversations/search`,
      AppConversationPageSchema,
      options,
      {
        ...conversationFilterParams(query),
        ...pageParams(query),
        include_sub_conversations: query.includeSubConversations,
      },
      isPolled(query),
    );
  }

  countConversations(filters: ConversationFilters = {}, options: CallOptions = {}): Promise<number> {
    return this.get(`${V1}/app-conversations/count`, z.number(), options, conversationFilterParams(filters));
  }

  /** Every conversation in one sandbox, whether or not the server applies `sandbox_id__eq`. */
  listSandboxConversations(
    sandboxId: string,
    options: SandboxConversationsOptions = {},
  ): Promise<SandboxConversations> {
    return listSandboxConversations((query, call) => this.searchConversations(query, call), sandboxId, {
      // one listing counts as one read: bounded like a request, however many pages it takes
      deadlineMs: this.timeoutMs,
      ...options,
    });
  }

  /** Batch get; `null` where an id is unknown, in input order. */
  getConversations(ids: readonly string[], options: CallOptions = {}): Promise<(AppConversation | null)[]> {
    return this.batchGet(`${V1}/app-conversations`, 'ids', ids, MAX_IDS, AppConversationSchema, options);
  }

  /** Starts a conversation. The reply is a start task (WORKING), not a conversation: see `waitForStartTask`. */
  createConversation(
    request: AppConversationStartRequest = {},
    options: CallOptions = {},
  ): Promise<AppConversationStartTask> {
    return this.transport.request({
      method: 'POST',
      path: `${V1}/app-conversations`,
      body: request,
      schema: AppConversationStartTaskSchema,
      signal: options.signal,
    });
  }

  /**
   * Starts a conversation over the streaming route, reporting each task update as the server sends
   * it. Resolves with the last task (READY or ERROR).
   */
  async createConversationStreaming(
    request: AppConversationStartRequest,
    options: CallOptions & { onProgress?: (task: AppConversationStartTask) => void } = {},
  ): Promise<AppConversationStartTask> {
    const tasks = await this.transport.requestArrayStream(
      {
        method: 'POST',
        path: `${V1}/app-conversations/stream-start`,
        body: request,
        schema: AppConversationStartTaskSchema,
        signal: options.signal,
      },
      (task) => options.onProgress?.(task),
    );
    const last = tasks.at(-1);
    if (!last)
      throw new ApiError({ kind: 'invalid_response', message: 'The start stream ended without a task.' });
    return last;
  }

  /** Polls the start task until READY (returned) or ERROR (thrown as `StartTaskFailedError`). */
  waitForStartTask(taskId: string, options: WaitForStartTaskOptions = {}): Promise<AppConversationStartTask> {
    return waitForStartTask(
      (ids, signal) => this.getStartTasks(ids, { signal }),
      taskId,
      options,
      // the ERROR detail may echo the key, or a token the start request carried
      () => this.transport.knownSecrets(),
    );
  }

  searchStartTasks(
    query: StartTaskSearchQuery = {},
    options: CallOptions = {},
  ): Promise<AppConversationStartTaskPage> {
    return this.get(
      `${V1}/app-conversations/start-tasks/search`,
      AppConversationStartTaskPageSchema,
      options,
      {
        ...startTaskFilterParams(query),
        sort_order: query.sortOrder,
        ...pageParams(query),
      },
    );
  }

  countStartTasks(filters: StartTaskFilters = {}, options: CallOptions = {}): Promise<number> {
    return this.get(
      `${V1}/app-conversations/start-tasks/count`,
      z.number(),
      options,
      startTaskFilterParams(filters),
    );
  }

  getStartTasks(
    ids: readonly string[],
    options: CallOptions = {},
  ): Promise<(AppConversationStartTask | null)[]> {
    return this.batchGet(
      `${V1}/app-conversations/start-tasks`,
      'ids',
      ids,
      MAX_IDS,
      AppConversationStartTaskSchema,
      options,
    );
  }

  // ---- Sandboxes ----

  searchSandboxes(query: PageQuery = {}, options: CallOptions = {}): Promise<SandboxPage> {
    return this.get(`${V1}/sandboxes/search`, SandboxPageSchema, options, pageParams(query), isPolled(query));
  }

  getSandboxes(ids: readonly string[], options: CallOptions = {}): Promise<(SandboxInfo | null)[]> {
    return this.batchGet(`${V1}/sandboxes`, 'id', ids, MAX_IDS, SandboxInfoSchema, options);
  }

  /** The route takes no body; the spec is a query parameter (the first spec when omitted). */
  startSandbox(request: { sandboxSpecId?: string } = {}, options: CallOptions = {}): Promise<SandboxInfo> {
    return this.transport.request({
      method: 'POST',
      path: `${V1}/sandboxes`,
      query: { sandbox_spec_id: request.sandboxSpecId },
      schema: SandboxInfoSchema,
      signal: options.signal,
    });
  }

  /** Idempotent on the server: pausing a paused sandbox succeeds. */
  pauseSandbox(id: string, options: CallOptions = {}): Promise<Success> {
    return this.post(`${V1}/sandboxes/${encodeURIComponent(id)}/pause`, {}, SuccessSchema, options);
  }

  /** Idempotent on the server: resuming a running sandbox succeeds. May pause the oldest running ones. */
  resumeSandbox(id: string, options: CallOptions = {}): Promise<Success> {
    return this.post(`${V1}/sandboxes/${encodeURIComponent(id)}/resume`, {}, SuccessSchema, options);
  }

  /** The real route ignores the path segment and requires the id as the `sandbox_id` query parameter. */
  deleteSandbox(id: string, options: CallOptions = {}): Promise<Success> {
    return this.transport.request({
      method: 'DELETE',
      path: `${V1}/sandboxes/${encodeURIComponent(id)}`,
      query: { sandbox_id: id },
      schema: SuccessSchema,
      signal: options.signal,
    });
  }

  // ---- Sandbox specs ----

  searchSandboxSpecs(query: PageQuery = {}, options: CallOptions = {}): Promise<SandboxSpecPage> {
    return this.get(`${V1}/sandbox-specs/search`, SandboxSpecPageSchema, options, pageParams(query));
  }

  getSandboxSpecs(ids: readonly string[], options: CallOptions = {}): Promise<(SandboxSpecInfo | null)[]> {
    return this.batchGet(`${V1}/sandbox-specs`, 'id', ids, MAX_SPEC_IDS, SandboxSpecInfoSchema, options);
  }

  // ---- Settings and git provider tokens (legacy /api routes, or /api/v1 from OpenHands 1.11) ----

  /**
   * Stores git provider tokens. The server replaces the whole provider map: omitted providers are
   * deleted, and an empty token keeps the stored one. Older servers validate `mcp_config` here but
   * ignore it; 1.11 ignores it.
   */
  storeProviderTokens(request: ProviderTokensRequest, options: CallOptions = {}): Promise<MessageReply> {
    return this.onSettingsRoutes((routes) =>
      this.post(routes.gitProviders, request, MessageReplySchema, options),
    );
  }

  /** The user's settings: `provider_tokens_set`, the MCP servers (`mcp_config`, or `agent_settings` on 1.11+). */
  getSettings(options: CallOptions = {}): Promise<Settings> {
    return this.onSettingsRoutes((routes) => this.get(routes.settings, SettingsSchema, options));
  }

  /**
   * Merges the posted top-level fields into the stored settings (1.11+ also merges
   * `agent_settings_diff`). Post only the fields to change: a read reply posted back carries masked
   * secrets (`null`) and read-only flags.
   */
  storeSettings(settings: Record<string, unknown>, options: CallOptions = {}): Promise<MessageReply> {
    return this.onSettingsRoutes((routes) =>
      this.post(routes.settings, settings, MessageReplySchema, options),
    );
  }

  /** Removes every stored git provider token. */
  unsetProviderTokens(options: CallOptions = {}): Promise<MessageReply> {
    return this.onSettingsRoutes(({ unsetGitProviders: route }) =>
      this.transport.request({
        method: route.method,
        path: route.path,
        body: route.method === 'POST' ? {} : undefined,
        schema: MessageReplySchema,
        signal: options.signal,
      }),
    );
  }

  /** Which settings routes this server has, once a settings call has found out. */
  get settingsGeneration(): SettingsRoutes['generation'] | undefined {
    return this.settingsRoutes?.generation;
  }

  // ---- plumbing ----

  /** Runs a settings call on the routes this server has: the legacy ones first, then 1.11's. */
  private async onSettingsRoutes<T>(call: (routes: SettingsRoutes) => Promise<T>): Promise<T> {
    if (this.settingsRoutes) return call(this.settingsRoutes);
    for (const routes of [LEGACY_SETTINGS_ROUTES, V1_SETTINGS_ROUTES]) {
      try {
        const result = await call(routes);
        this.settingsRoutes = routes;
        return result;
      } catch (error) {
        if (routeExists(error)) this.settingsRoutes = routes;
        if (!routeMissing(error) || routes === V1_SETTINGS_ROUTES) throw error;
      }
    }
    throw new ApiError({ kind: 'not_found', message: 'The server has no settings routes.' });
  }

  private get<T>(
    path: string,
    schema: z.ZodMiniType<T>,
    options: CallOptions,
    query?: QueryParams,
    polled = false,
  ): Promise<T> {
    return this.transport.request({ method: 'GET', path, query, schema, signal: options.signal, polled });
  }

  private post<T>(path: string, body: unknown, schema: z.ZodMiniType<T>, options: CallOptions): Promise<T> {
    return this.transport.request({ method: 'POST', path, body, schema, signal: options.signal });
  }

  /** Splits the ids into calls the server accepts and joins the results back in input order. */
  private async batchGet<T>(
    path: string,
    param: 'id' | 'ids',
    ids: readonly string[],
    chunkSize: number,
    item: z.ZodMiniType<T>,
    options: CallOptions,
  ): Promise<(T | null)[]> {
    if (ids.length === 0) return [];
    const schema = z.array(z.nullable(item));
    const results: (T | null)[] = [];
    for (let start = 0; start < ids.length; start += chunkSize) {
      const chunk = ids.slice(start, start + chunkSize);
      const page = await this.get(path, schema, options, { [param]: chunk });
      if (page.length !== chunk.length) {
        throw new ApiError({
          kind: 'invalid_response',
          method: 'GET',
          path,
          message: `The server returned ${page.length} results for ${chunk.length} ids.`,
        });
      }
      results.push(...page);
    }
    return results;
  }
}

function pageParams(query: PageQuery): QueryParams {
  if (
    query.limit !== undefined &&
    (query.limit < 1 || query.limit > MAX_LIMIT || !Number.isInteger(query.limit))
  ) {
    throw new ApiError({
      kind: 'validation',
      message: `The page size must be a whole number from 1 to ${MAX_LIMIT}.`,
    });
  }
  return { page_id: query.pageId, limit: query.limit };
}

function conversationFilterParams(filters: ConversationFilters): QueryParams {
  return {
    title__contains: filters.titleContains || undefined,
    created_at__gte: isoDate(filters.createdAtGte),
    created_at__lt: isoDate(filters.createdAtLt),
    updated_at__gte: isoDate(filters.updatedAtGte),
    updated_at__lt: isoDate(filters.updatedAtLt),
    sandbox_id__eq: filters.sandboxIdEq,
  };
}

function startTaskFilterParams(filters: StartTaskFilters): QueryParams {
  return { conversation_id__eq: filters.conversationIdEq, created_at__gte: isoDate(filters.createdAtGte) };
}

/** The server wants ISO-8601; a Date becomes UTC with `Z`, which needs no `+` escaping. */
function isoDate(value: DateInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date)) return value;
  if (Number.isNaN(value.getTime()))
    throw new ApiError({ kind: 'validation', message: 'A date filter is not a valid date.' });
  return value.toISOString();
}
