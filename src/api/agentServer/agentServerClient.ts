/**
 * The REST half of a conversation's agent server (the socket is `eventSocket.ts`). Every call goes
 * through the same transport as the app-server client: a deadline, no redirects, and one `ApiError`
 * with the sandbox's key masked wherever a reply or failure could echo it.
 */
import * as z from 'zod/mini';
import { ApiError } from '../errors';
import { SuccessSchema, type Success } from '../models/common';
import type { ConnectionPool } from '../connectionPool';
import type { TlsOptions } from '../tls';
import { HttpTransport, type RequestLogEntry } from '../http/transport';
import { BashOutputSchema, type BashOutput } from './bashOutput';
import type { AgentEndpoint } from './endpoint';
import {
  AgentEventPageSchema,
  AgentEventSchema,
  type AgentEvent,
  ConversationInfoSchema,
  type AgentEventPage,
  type ConfirmationPolicy,
  type ConversationInfo,
  type EventSortOrder,
} from './events';
import {
  GitChangesSchema,
  GitDiffSchema,
  type GitChange,
  type GitDiff,
  type WorkspaceDelta,
} from './workspace';

export interface AgentServerClientOptions {
  endpoint: AgentEndpoint;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** How long an event too large to read whole may be and still be skimmed (`skimEvent`); 8 × the reply cap when unset. */
  maxSkimBytes?: number;
  /** The whole-change patch's deadline (git runs over the whole tree first); 2 minutes when unset. */
  archiveTimeoutMs?: number;
  onLog?: (entry: RequestLogEntry) => void;
  logBodies?: boolean | (() => boolean);
  tls?: TlsOptions;
  /** Keep-alive connections shared with the app server's client and the other agent servers. */
  pool?: ConnectionPool;
}

export interface EventSearchQuery {
  pageId?: string;
  /** 1–100: above 100 the agent server fails with a 500, so the client refuses first. */
  limit?: number;
  sortOrder?: EventSortOrder;
}

export interface AgentCallOptions {
  signal?: AbortSignal;
}

export interface GitRefOptions extends AgentCallOptions {
  /** The commit to compare against (a sha or a ref); the server's own guess (the upstream) when unset. */
  ref?: string;
}

export interface DeltaOptions extends AgentCallOptions {
  /** Glob patterns left out of the patch, on top of the server's defaults (`node_modules/`, `.venv/`…). */
  exclude?: readonly string[];
  /** The ref to diff against; the server's own choice (origin branch, merge-base, empty tree) when unset. */
  baseRef?: string;
  /** Refuse a longer patch (the transport's own cap when unset). */
  maxBytes?: number;
}

export interface DownloadOptions extends AgentCallOptions {
  maxBytes?: number;
}

export interface UploadOptions extends AgentCallOptions {
  /** From sending the first byte to the reply; 5 minutes when unset (50 MB on a slow link). */
  timeoutMs?: number;
}

export interface BashOptions extends AgentCallOptions {
  /** Where it runs (see `BashCommandRequest.cwd`). */
  cwd?: string;
  /** How long the server lets it run, in whole seconds (1 to 3600); 300 when unset. */
  timeoutSeconds?: number;
}

const MAX_EVENT_PAGE = 100;
/** What a skimmed event keeps of each string: its id, kind, time and source are all shorter. */
const SKIM_STRING_CHARS = 1024;
/** A skim reads this many times the reply cap at most (its memory stays within the cap whatever it reads). */
const SKIM_BYTES_PER_REPLY_CAP = 8;
/** A whole workspace's patch can be large and slow to build (the server runs git over the tree). */
const DELTA_TIMEOUT_MS = 120_000;
const UPLOAD_TIMEOUT_MS = 300_000;
const DEFAULT_BASH_SECONDS = 300;
const MAX_BASH_SECONDS = 3600;
/** The reply comes once the server has killed a command past its time: wait that long and a bit more. */
const BASH_REPLY_SLACK_MS = 30_000;

export class AgentServerClient {
  private readonly transport: HttpTransport;
  private readonly conversationPath: string;

  constructor(readonly options: AgentServerClientOptions) {
    const { endpoint } = options;
    this.transport = new HttpTransport({
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.sessionApiKey,
      authHeader: 'X-Session-API-Key',
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      onLog: options.onLog,
      logBodies: options.logBodies,
      tls: options.tls,
      pool: options.pool,
      // no 429s are expected here, and a retried POST could run the agent twice
      maxRateLimitRetries: 0,
    });
    this.conversationPath = `/api/conversations/${encodeURIComponent(endpoint.conversationId)}`;
  }

  get endpoint(): AgentEndpoint {
    return this.options.endpoint;
  }

  /** Replies larger than this many bytes are refused (a page of events among them). */
  get replyLimitBytes(): number {
    return this.transport.replyLimitBytes;
  }

  getConversation(options: AgentCallOptions = {}): Promise<ConversationInfo> {
    return this.get(this.conversationPath, ConversationInfoSchema, options);
  }

  /** One page of stored events in storage order (or its reverse); `next_page_id` is inclusive. */
  searchEvents(query: EventSearchQuery = {}, options: AgentCallOptions = {}): Promise<AgentEventPage> {
    const limit = query.limit ?? MAX_EVENT_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_PAGE) {
      throw new ApiError({
        kind: 'validation',
        message: `An event page holds 1 to ${MAX_EVENT_PAGE} events.`,
      });
    }
    return this.transport.request({
      method: 'GET',
      path: `${this.conversationPath}/events/search`,
      query: { page_id: query.pageId, limit, sort_order: query.sortOrder },
      schema: AgentEventPageSchema,
      signal: options.signal,
    });
  }

  /**
   * The one event a page of `limit: 1` would hold, with every string cut to its head, and where the
   * history goes on (`next_page_id`): for an event too large to read whole, so it can still be named
   * and stepped past. `bytes`: how long the whole reply was.
   */
  async skimEvent(
    query: Omit<EventSearchQuery, 'limit'>,
    options: AgentCallOptions = {},
  ): Promise<{ page: AgentEventPage; bytes: number }> {
    const reply = await this.transport.requestSkimmed(
      {
        method: 'GET',
        path: `${this.conversationPath}/events/search`,
        query: { page_id: query.pageId, limit: 1, sort_order: query.sortOrder },
        schema: AgentEventPageSchema,
        signal: options.signal,
      },
      {
        maxBytes: this.options.maxSkimBytes ?? SKIM_BYTES_PER_REPLY_CAP * this.replyLimitBytes,
        maxStringChars: SKIM_STRING_CHARS,
      },
    );
    return { page: reply.value, bytes: reply.bytes };
  }

  /** One stored event whole (search and the socket send the same, but the extension cuts huge strings). */
  getEvent(eventId: string, options: AgentCallOptions = {}): Promise<AgentEvent> {
    return this.get(
      `${this.conversationPath}/events/${encodeURIComponent(eventId)}`,
      AgentEventSchema,
      options,
    );
  }

  countEvents(options: AgentCallOptions = {}): Promise<number> {
    return this.get(`${this.conversationPath}/events/count`, z.number(), options);
  }

  /**
   * Appends a user message; with `run` the agent starts (or the running loop picks it up). `images`
   * are `data:image/…;base64,` URLs, sent as one `ImageContent` after the text.
   */
  sendMessage(
    text: string,
    run: boolean,
    options: AgentCallOptions = {},
    images: readonly string[] = [],
  ): Promise<Success> {
    const content: Record<string, unknown>[] = text ? [{ type: 'text', text }] : [];
    if (images.length) content.push({ type: 'image', image_urls: [...images] });
    return this.post(`${this.conversationPath}/events`, { role: 'user', content, run }, options);
  }

  /** Starts the agent loop; 409 (`validation`) while it already runs. */
  run(options: AgentCallOptions = {}): Promise<Success> {
    return this.post(`${this.conversationPath}/run`, {}, options);
  }

  /** Pauses between steps. */
  pause(options: AgentCallOptions = {}): Promise<Success> {
    return this.post(`${this.conversationPath}/pause`, {}, options);
  }

  /** Cancels the model call in flight and pauses. */
  interrupt(options: AgentCallOptions = {}): Promise<Success> {
    return this.post(`${this.conversationPath}/interrupt`, {}, options);
  }

  respondToConfirmation(accept: boolean, reason?: string, options: AgentCallOptions = {}): Promise<Success> {
    return this.post(
      `${this.conversationPath}/events/respond_to_confirmation`,
      reason === undefined ? { accept } : { accept, reason },
      options,
    );
  }

  setConfirmationPolicy(policy: ConfirmationPolicy, options: AgentCallOptions = {}): Promise<Success> {
    return this.post(`${this.conversationPath}/confirmation_policy`, { policy }, options);
  }

  /** The files the agent changed under `path` (a directory; relative paths resolve on the server). */
  gitChanges(path: string, options: GitRefOptions = {}): Promise<GitChange[]> {
    return this.transport.request({
      method: 'GET',
      path: '/api/git/changes',
      query: { path, ref: options.ref },
      schema: GitChangesSchema,
      signal: options.signal,
    });
  }

  /** One file's base and current text; a deleted file, one over 1 MiB or a bad ref answer 400. */
  gitDiff(path: string, options: GitRefOptions = {}): Promise<GitDiff> {
    return this.transport.request({
      method: 'GET',
      path: '/api/git/diff',
      query: { path, ref: options.ref },
      schema: GitDiffSchema,
      signal: options.signal,
    });
  }

  /** A file's bytes; `path` must be absolute (400 otherwise, 404 when missing). */
  async downloadFile(path: string, options: DownloadOptions = {}): Promise<Buffer> {
    const reply = await this.transport.requestBytes({
      path: '/api/file/download',
      query: { path },
      signal: options.signal,
      maxBytes: options.maxBytes,
    });
    return reply.bytes;
  }

  /**
   * Writes `content` to `path` in the sandbox (absolute: 400 otherwise), its folders made, replacing a
   * file there. The agent server streams it to disk; the bytes are never logged here.
   */
  uploadFile(path: string, content: Buffer, options: UploadOptions = {}): Promise<Success> {
    const name = path.slice(path.lastIndexOf('/') + 1) || 'upload';
    return this.transport.request({
      method: 'POST',
      path: '/api/file/upload',
      query: { path },
      file: { field: 'file', name, content },
      schema: SuccessSchema,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? Math.max(UPLOAD_TIMEOUT_MS, this.options.timeoutMs ?? 0),
    });
  }

  /**
   * Runs `command` with `/bin/sh -c` in the sandbox and answers once it ended: its exit code (-1 when
   * the server stopped it at `timeoutSeconds`) and the last piece of its output (at most 1 MiB
   * characters of each stream; the reply cap bounds it here too).
   */
  async executeBashCommand(command: string, options: BashOptions = {}): Promise<BashOutput> {
    const seconds = options.timeoutSeconds ?? DEFAULT_BASH_SECONDS;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_BASH_SECONDS) {
      throw new ApiError({
        kind: 'validation',
        message: `A sandbox command may run 1 to ${MAX_BASH_SECONDS} whole seconds.`,
      });
    }
    return this.transport.request({
      method: 'POST',
      path: '/api/bash/execute_bash_command',
      body: { command, ...(options.cwd === undefined ? {} : { cwd: options.cwd }), timeout: seconds },
      schema: BashOutputSchema,
      signal: options.signal,
      timeoutMs: seconds * 1000 + BASH_REPLY_SLACK_MS,
    });
  }

  /** The working tree's change against its base as one `git diff --binary` patch; `dir` must be absolute. */
  async workspaceDelta(dir: string, options: DeltaOptions = {}): Promise<WorkspaceDelta> {
    const reply = await this.transport.requestBytes({
      path: '/api/file/archive',
      query: { path: dir, format: 'git-delta', base_ref: options.baseRef, exclude: options.exclude },
      signal: options.signal,
      maxBytes: options.maxBytes,
      timeoutMs: this.options.archiveTimeoutMs ?? Math.max(DELTA_TIMEOUT_MS, this.options.timeoutMs ?? 0),
    });
    const baseCommit = reply.headers['x-archive-base-commit'];
    const baseRef = reply.headers['x-archive-base-ref'];
    return {
      patch: reply.bytes,
      ...(baseCommit && /^[0-9a-f]{7,64}$/i.test(baseCommit) ? { baseCommit } : {}),
      ...(baseRef ? { baseRef } : {}),
    };
  }

  private get<T>(path: string, schema: z.ZodMiniType<T>, options: AgentCallOptions): Promise<T> {
    return this.transport.request({ method: 'GET', path, schema, signal: options.signal });
  }

  private post(path: string, body: unknown, options: AgentCallOptions): Promise<Success> {
    return this.transport.request({
      method: 'POST',
      path,
      body,
      schema: SuccessSchema,
      signal: options.signal,
    });
  }
}
