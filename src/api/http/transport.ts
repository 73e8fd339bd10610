/**
 * An HTTP request to an OpenHands server, step by step: built (`buildRequest.ts`), sent (`sendRequest.ts`),
 * its reply read (`readReply.ts`) and interpreted (`interpretReply.ts`), each once; then logged
 * (`requestLog.ts`). Every secret it sends or receives is known, and masked, in one place
 * (`knownSecrets.ts`). A GET refused with 429 is sent again after its Retry-After, within bounds. The
 * caller sees a value of the schema's shape, or an `ApiError` that holds no secret.
 */
import * as z from 'zod/mini';
import type { Readable } from 'node:stream';
import type { ConnectionPool } from '../connectionPool';
import type { ApiError } from '../errors';
import { sleep } from '../signals';
import type { TlsOptions } from '../tls';
import {
  RequestBuilder,
  type AuthHeader,
  type Call,
  type QueryParams,
  type RequestSpec,
} from './buildRequest';
import { ReplyInterpreter } from './interpretReply';
import { KnownSecrets } from './knownSecrets';
import {
  ACCEPTED_ENCODINGS,
  contentEncodingOf,
  decodedBody,
  plainHeaders,
  readArray,
  readBytes,
  readSkimmed,
  readText,
} from './readReply';
import { RequestLog, type RequestLogEntry } from './requestLog';
import { Sender, type OpenReply, type ReplyHead, type TextReply } from './sendRequest';

export type { AuthHeader, RequestSpec } from './buildRequest';
export type { RequestLogEntry } from './requestLog';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  authHeader?: AuthHeader;
  /** Per request: from sending it to the last byte of the reply (for a stream: to its first byte). */
  timeoutMs?: number;
  /** A streamed reply (`stream-start`) may take this long in all, however long the server is silent. */
  streamTimeoutMs?: number;
  /** How many times a GET answered with 429 is retried after its Retry-After. */
  maxRateLimitRetries?: number;
  /** Longest Retry-After we wait for automatically; longer ones surface as `rate_limited`. */
  maxRetryAfterMs?: number;
  /** Replies larger than this are refused rather than held in memory. */
  maxResponseBytes?: number;
  onLog?: (entry: RequestLogEntry) => void;
  /** Adds masked bodies to log entries; a function is asked per request, so it can follow a setting. */
  logBodies?: boolean | (() => boolean);
  /**
   * Further secrets to mask in every error and log entry, asked per request: values the caller knows
   * up front that neither the key nor a request body carries (an agent server's session key).
   */
  extraSecrets?: () => readonly string[];
  tls?: TlsOptions;
  /**
   * The keep-alive connections to share with the other clients of the same server (made with the
   * same `tls`); when unset, one pool of the transport's own with `tls`, else one every such transport shares.
   */
  pool?: ConnectionPool;
}

/** A GET whose reply is bytes (a file, a patch), not JSON. */
export interface BytesRequestSpec {
  path: string;
  query?: QueryParams;
  signal?: AbortSignal;
  /** From sending to the last byte; the transport's timeout when unset. */
  timeoutMs?: number;
  /** Larger replies are refused; the transport's limit when unset. */
  maxBytes?: number;
}

export interface BytesReply {
  bytes: Buffer;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** A conversation start waits for a sandbox, which the server itself gives up on after a few minutes. */
const DEFAULT_STREAM_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export class HttpTransport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly streamTimeoutMs: number;
  private readonly maxRateLimitRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  private readonly secrets: KnownSecrets;
  private readonly build: RequestBuilder;
  private readonly sender: Sender;
  private readonly interpreter: ReplyInterpreter;
  private readonly log: RequestLog;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.streamTimeoutMs = Math.max(options.streamTimeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS, this.timeoutMs);
    this.maxRateLimitRetries = options.maxRateLimitRetries ?? 2;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.secrets = new KnownSecrets(this.baseUrl, apiKey, options.extraSecrets);
    const authHeader = options.authHeader ?? 'X-Session-API-Key';
    this.build = new RequestBuilder(this.baseUrl, apiKey, authHeader, this.secrets);
    this.sender = new Sender({
      tls: options.tls,
      pool: options.pool,
      timeoutMs: this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
    });
    this.interpreter = new ReplyInterpreter();
    this.log = new RequestLog({ ...options, baseUrl: this.baseUrl });
  }

  get serverUrl(): string {
    return this.baseUrl;
  }

  /** Replies larger than this many bytes are refused. */
  get replyLimitBytes(): number {
    return this.maxResponseBytes;
  }

  /**
   * Every secret this transport knows, in the forms a server could echo it in: the key, the server
   * URL's credentials, the extra secrets, and what earlier calls sent and received. Also for failures
   * built outside a call (a start task that ended in ERROR), so they are masked like call failures.
   */
  knownSecrets(): string[] {
    return this.secrets.all();
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const call = this.build.callOf(spec);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(call, attempt);
      } catch (thrown) {
        const error = call.failures.ensure(thrown);
        const retryAfterMs = this.retryDelay(spec, error, attempt);
        if (retryAfterMs === undefined) throw error;
        await sleep(retryAfterMs, spec.signal, () => call.failures.cancelled());
      }
    }
  }

  /**
   * A POST whose reply is a JSON array streamed element by element (`stream-start`). The reply must
   * start within the request timeout; the whole stream may then take up to the stream timeout, with
   * the server silent for as long as it works. A reply that is not the stream (an error status, a page)
   * must end within the request timeout, like any other.
   */
  async requestArrayStream<T>(spec: RequestSpec<T>, onItem: (item: T) => void): Promise<T[]> {
    const call = this.build.callOf(spec);
    // Only the stream may work in silence up to the whole call's deadline; an error or a page instead
    // of it is an ordinary reply, read under the ordinary deadline (both counted from the call's start).
    const isStream = (head: ReplyHead) =>
      head.status >= 200 && head.status < 300 && /\bjson\b/i.test(head.contentType);
    const items: T[] = [];
    await this.once(call, (heard) =>
      this.sender.sendStream(
        call,
        (head) => {
          heard(head.status);
          return isStream(head) ? this.streamTimeoutMs : this.timeoutMs;
        },
        async (reply, signal) => {
          if (!isStream(reply)) {
            const text = await readText(call.failures, reply.body, this.maxResponseBytes, signal);
            throw this.interpreter.refused(call, reply, text);
          }
          await readArray(
            call.failures,
            reply.body,
            reply.status,
            this.maxResponseBytes,
            signal,
            (element) => {
              const item = this.interpreter.streamedElement(call, reply.status, element);
              items.push(item);
              onItem(item);
            },
          );
        },
      ),
    );
    return items;
  }

  /**
   * A GET whose reply is kept as bytes (binary-safe: a patch or a file may hold any encoding). Failed
   * replies are read as text and become the same `ApiError`s as JSON calls.
   */
  async requestBytes(bytesSpec: BytesRequestSpec): Promise<BytesReply> {
    const spec: RequestSpec<unknown> = {
      method: 'GET',
      path: bytesSpec.path,
      query: bytesSpec.query,
      schema: BYTES_SCHEMA,
      signal: bytesSpec.signal,
    };
    const maxBytes = Math.min(bytesSpec.maxBytes ?? this.maxResponseBytes, this.maxResponseBytes);
    return this.streamedGet(
      spec,
      { accept: '*/*', timeoutMs: bytesSpec.timeoutMs ?? this.timeoutMs, unlimited: false },
      async (call, reply, body, signal) => ({
        bytes: await readBytes(call.failures, body, maxBytes, signal),
        headers: plainHeaders(reply),
      }),
    );
  }

  /**
   * A JSON GET whose reply may be larger than the size limit: read as it streams, every string kept
   * to its first `maxStringChars` characters (`JsonStringHeads`), up to `maxBytes` in all. What is
   * left of it (its structure and the heads of its strings) is held to the size limit and validated;
   * `bytes` says how long the whole reply was.
   */
  async requestSkimmed<T>(
    spec: RequestSpec<T>,
    limits: { maxBytes: number; maxStringChars: number },
  ): Promise<{ value: T; bytes: number }> {
    // past the usual size limit by design: `maxBytes` bounds it below, counted as it is decoded
    return this.streamedGet(
      spec,
      { accept: 'application/json', timeoutMs: this.timeoutMs, unlimited: true },
      async (call, reply, body, signal) => {
        const skimmed = await readSkimmed(
          call.failures,
          body,
          { ...limits, maxKeptBytes: this.maxResponseBytes },
          signal,
        );
        return { value: this.interpreter.value(call, reply, skimmed.text), bytes: skimmed.bytes };
      },
    );
  }

  /** One attempt of a call whose reply is read whole, as text. */
  private async attempt<T>(call: Call<T>, attempt: number): Promise<T> {
    const started = Date.now();
    let reply: TextReply;
    try {
      reply = await this.sender.sendForText(call);
    } catch (thrown) {
      const error = call.failures.ensure(thrown);
      await this.log.failed(call, attempt, error, { started });
      throw error;
    }
    try {
      const value = this.interpreter.value(call, reply, reply.text);
      this.log.entry(call, attempt, { status: reply.status, started, responseBody: value });
      return value;
    } catch (thrown) {
      const error = call.failures.ensure(thrown);
      this.log.entry(call, attempt, {
        status: reply.status,
        errorKind: error.kind,
        started,
        serverText: this.log.serverText(call, reply.contentType, reply.text),
      });
      throw error;
    }
  }

  /**
   * A GET read as a stream by `read`, under one deadline, compressed or not (decompressed here, to
   * the end or failing). A failed status is read as text and becomes the usual `ApiError`.
   */
  private async streamedGet<T, R>(
    spec: RequestSpec<T>,
    { accept, timeoutMs, unlimited }: { accept: string; timeoutMs: number; unlimited: boolean },
    read: (call: Call<T>, reply: OpenReply, body: Readable, signal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const call = this.build.callOf(spec, { accept, encodings: ACCEPTED_ENCODINGS });
    return this.once(call, (heard) =>
      this.sender.sendStreamed(call, { timeoutMs, unlimited }, async (reply, signal) => {
        heard(reply.status);
        const encoding = contentEncodingOf(reply);
        const body = decodedBody(reply.body, encoding);
        if (reply.status < 200 || reply.status >= 300) {
          // an error in an encoding that cannot be read still says its status
          const text = body ? await readText(call.failures, body, this.maxResponseBytes, signal) : '';
          throw this.interpreter.failed(call, reply, text);
        }
        if (!body) throw call.failures.unknownEncoding(reply.status, encoding);
        return read(call, reply, body, signal);
      }),
    );
  }

  /** A call sent once (never retried), logged as it ends: `heard` is told the reply's status once its head comes. */
  private async once<R>(
    call: Call<unknown>,
    send: (heard: (status: number) => void) => Promise<R>,
  ): Promise<R> {
    let status: number | undefined;
    try {
      const value = await send((received) => (status = received));
      this.log.entry(call, 1, { status });
      return value;
    } catch (thrown) {
      const error = call.failures.ensure(thrown);
      await this.log.failed(call, 1, error, { status });
      throw error;
    }
  }

  /** 429 is retried for idempotent GETs only; a POST may already have had its effect. */
  private retryDelay(spec: RequestSpec<unknown>, error: ApiError, attempt: number): number | undefined {
    if (error.kind !== 'rate_limited' || spec.method !== 'GET') return undefined;
    if (attempt > this.maxRateLimitRetries) return undefined;
    const wait = error.retryAfterMs ?? 1000;
    return wait <= this.maxRetryAfterMs ? wait : undefined;
  }
}

/** Never consulted: a bytes call has no JSON to validate, but shares the call bookkeeping. */
const BYTES_SCHEMA = z.unknown();
