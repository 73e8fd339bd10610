import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import * as z from 'zod/mini';
import { ClientRequest } from 'node:http';
import type { PeerCertificate } from 'node:tls';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { ConnectionPool } from './connectionPool';
import { ApiError, type ApiErrorKind } from './errors';
import { describeCertificateFailure, readServerCertificate } from './certificateReport';
import { CallFailures, parseJsonOrUndefined, refusedCertificate, serverText } from './failures';
import { JsonArrayStreamParser } from './jsonArrayStream';
import { JsonStringHeads } from './jsonStringHeads';
import { DOUBT, fastParser } from './models/fastParse';
import { buildQuery, type QueryParams } from './query';
import { RepeatedReplies } from './repeatedReplies';
import { tlsRequestTransport, type TlsOptions } from './tls';
import {
  echoForms,
  MIN_SECRET_LENGTH,
  redactJson,
  scanParsedReply,
  secretsIn,
  secretsInJsonText,
  urlCredentials,
} from './redact';
import { MAX_LOGGED_TEXT_CHARS, clip, nestsDeeperThan } from './serverText';
import { sleep, untilAborted, withDeadline, type Deadline } from './signals';

/** How the API key travels. The OSS server uses the session header; hosted ones use the others. */
export type AuthHeader = 'X-Session-API-Key' | 'Authorization' | 'X-Access-Token';

export interface RequestLogEntry {
  method: string;
  /** Path and query, with secret-bearing parameters masked. */
  path: string;
  status?: number;
  durationMs: number;
  attempt: number;
  errorKind?: ApiErrorKind;
  /** What the server said in a failed reply, whole (up to 64 KB) where the error shows it clipped; secrets masked. */
  serverText?: string;
  /** Only with `logBodies`; secrets masked. */
  requestBody?: unknown;
  responseBody?: unknown;
  /** A poll whose reply was the very text of the last one: nothing new to say (logged at debug). */
  repeated?: boolean;
  /**
   * When the server's TLS certificate was refused: the TLS code and why, and which certificate it was
   * (subject, issuer, validity, SHA-256 fingerprint, names).
   */
  certificate?: string;
}

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

export interface RequestSpec<T> {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: QueryParams;
  /** `undefined` sends no body at all (some routes take none). */
  body?: unknown;
  schema: z.ZodMiniType<T>;
  signal?: AbortSignal;
  /**
   * A GET polled again and again (the lists a refresh reads): a reply the same as the last one is
   * the same, frozen value (`RepeatedReplies`).
   */
  polled?: boolean;
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
/** Our replies nest a dozen levels at most; anything near this is hostile. */
const MAX_JSON_DEPTH = 256;
/** Secret values of earlier calls (sent, and received) still masked in later ones; the newest are kept. */
const MAX_REMEMBERED_SECRETS = 256;

/** A streamed reply as `streamedGet` hands it to its reader. */
interface StreamedReply<T> {
  call: Call<T>;
  body: Readable;
  status: number;
  contentType: string;
  headers: AxiosResponse['headers'];
  signal: AbortSignal;
}

/** One call in flight: what it sent, and how it fails (`failures` also holds every secret it knows). */
interface Call<T> {
  spec: RequestSpec<T>;
  /** Path and query as sent. */
  path: string;
  failures: CallFailures;
  started: number;
  /** Its reply was the last poll's, word for word (`RepeatedReplies`). */
  repeated?: boolean;
}

export class HttpTransport {
  private readonly http: AxiosInstance;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly authHeader: AuthHeader;
  private readonly timeoutMs: number;
  private readonly streamTimeoutMs: number;
  private readonly maxRateLimitRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  /** What earlier calls sent (tokens, MCP keys): a later reply may echo a value the server stored. */
  private readonly sentSecrets = new RecentSecrets(MAX_REMEMBERED_SECRETS);
  /** What earlier replies carried (sandboxes' session keys): a later failure may quote one. */
  private readonly receivedSecrets = new RecentSecrets(MAX_REMEMBERED_SECRETS);
  private readonly repeatedReplies = new RepeatedReplies();
  /** The certificate read in flight after a refused one (`refusedCertificateText`). */
  private certificateRead: Promise<PeerCertificate | undefined> | undefined;
  /** The key and the server URL's credentials, in every form a server could echo them in. */
  private readonly ownSecretForms: readonly string[];

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.ownSecretForms = echoForms([...(this.apiKey ? [this.apiKey] : []), ...urlCredentials(this.baseUrl)]);
    this.authHeader = options.authHeader ?? 'X-Session-API-Key';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.streamTimeoutMs = Math.max(options.streamTimeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS, this.timeoutMs);
    this.maxRateLimitRetries = options.maxRateLimitRetries ?? 2;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const pool = options.pool ?? (options.tls ? new ConnectionPool(options.tls) : sharedPool());
    this.http = axios.create({
      // We read bodies as text and parse them ourselves: the server's SPA fallback answers 200 text/html,
      // and a truncated body must become an ApiError, not an exception from inside axios.
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      // Never follow: the key would travel to whatever host a 30x names, and a POST would become a GET.
      maxRedirects: 0,
      // Node's http and https only (the build leaves axios's fetch adapter out), and no proxy of axios's
      // own from the environment: inside VS Code its proxy support (the `http.proxy*` settings and the
      // environment) already decides for every request, and a second, axios-made tunnel would not know it.
      adapter: 'http',
      proxy: false,
      // the TLS options on each request too: VS Code's proxy support drops the agent for a remote host
      ...(options.tls ? { transport: tlsRequestTransport(options.tls) } : {}),
      maxContentLength: this.maxResponseBytes,
      // explicit agents: VS Code's proxy support swaps the default one for an agent that keeps no socket
      httpAgent: pool.http,
      httpsAgent: pool.https,
      // VS Code's proxy support wraps every request's agent in one without keepAlive (so Node sends
      // `Connection: close`) and hands the socket to ours underneath: asking for keep-alive in the
      // header lets ours keep it (measured in VS Code: one new connection per request without it)
      headers: { Connection: 'keep-alive' },
    });
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
    return this.knownSecretLists().flat();
  }

  /**
   * `knownSecrets`, as the lists it is made of: a call keeps these (not a copy) until it needs them,
   * since a list is replaced, never changed, when a secret is added.
   */
  private knownSecretLists(): (readonly string[])[] {
    return [
      this.ownSecretForms,
      echoForms(this.options.extraSecrets?.() ?? []),
      this.sentSecrets.forms(),
      this.receivedSecrets.forms(),
    ];
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const call = this.newCall(spec);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(call, attempt);
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
    const call = this.newCall(spec);
    let status: number | undefined;
    try {
      const items = await this.stream(call, onItem, (received) => (status = received));
      this.log(call, 1, { status });
      return items;
    } catch (thrown) {
      const error = call.failures.ensure(thrown);
      const certificate = await this.refusedCertificateText(call, error);
      this.log(call, 1, { status, errorKind: error.kind, certificate });
      throw error;
    }
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
    return this.streamedGet(spec, '*/*', bytesSpec.timeoutMs ?? this.timeoutMs, {}, async (reply) => ({
      bytes: await this.readBytes(reply.call, reply.body, maxBytes, reply.signal),
      headers: plainHeaders(reply.headers),
    }));
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
    const unlimited = { maxContentLength: -1 };
    return this.streamedGet(spec, 'application/json', this.timeoutMs, unlimited, async (reply) => {
      const heads = new JsonStringHeads(limits.maxStringChars, this.maxResponseBytes);
      const decoder = new TextDecoder('utf-8');
      let bytes = 0;
      const push = (text: string) => {
        try {
          heads.push(text);
        } catch {
          throw reply.call.failures.tooLarge(this.maxResponseBytes);
        }
      };
      for await (const chunk of reply.body as AsyncIterable<Buffer>) {
        reply.signal.throwIfAborted();
        bytes += chunk.length;
        if (bytes > limits.maxBytes) throw reply.call.failures.tooLarge(limits.maxBytes);
        push(decoder.decode(chunk, { stream: true }));
      }
      push(decoder.decode());
      const value = this.interpret(reply.call, reply.status, reply.contentType, heads.text, reply.headers);
      return { value, bytes };
    });
  }

  /**
   * A GET read as a stream by `read`, under one deadline, compressed or not (decompressed here, to
   * the end or failing). A failed status is read as text and becomes the usual `ApiError`.
   */
  private async streamedGet<T, R>(
    spec: RequestSpec<T>,
    accept: string,
    timeoutMs: number,
    config: AxiosRequestConfig,
    read: (reply: StreamedReply<T>) => Promise<R>,
  ): Promise<R> {
    const call = this.newCall(spec);
    const deadline = withDeadline(spec.signal, timeoutMs);
    let status: number | undefined;
    let response: AxiosResponse<Readable> | undefined;
    const stop = () => {
      if (response) closeReply(response);
    };
    deadline.signal.addEventListener('abort', stop, { once: true });
    try {
      response = await untilAborted(
        this.http.request<Readable>({
          ...this.requestConfig(call, deadline.signal),
          headers: { ...this.headers(false), Accept: accept, 'Accept-Encoding': ACCEPTED_ENCODINGS },
          responseType: 'stream',
          transformResponse: undefined,
          // axios unzips leniently: a compressed body cut short would read as a shorter file
          decompress: false,
          ...config,
        }),
        deadline.signal,
        closeReply,
      );
      status = response.status;
      const encoding = contentEncodingOf(response);
      const body = decodedBody(response.data, encoding);
      if (status < 200 || status >= 300) {
        // an error in an encoding that cannot be read still says its status
        const text = body
          ? await untilAborted(this.readText(call, body, deadline.signal), deadline.signal)
          : '';
        throw this.interpretFailure(call, status, contentTypeOf(response), text, response.headers);
      }
      if (!body) throw call.failures.unknownEncoding(status, encoding);
      const value = await untilAborted(
        read({
          call,
          body,
          status,
          contentType: contentTypeOf(response),
          headers: response.headers,
          signal: deadline.signal,
        }),
        deadline.signal,
      );
      this.log(call, 1, { status });
      return value;
    } catch (thrown) {
      const error =
        thrown instanceof ApiError
          ? call.failures.ensure(thrown)
          : this.transportFailure(call, thrown, deadline);
      const certificate = await this.refusedCertificateText(call, error);
      this.log(call, 1, { status, errorKind: error.kind, certificate });
      throw error;
    } finally {
      deadline.signal.removeEventListener('abort', stop);
      deadline.dispose();
      if (response && !response.data.readableEnded) closeReply(response);
    }
  }

  private newCall<T>(spec: RequestSpec<T>): Call<T> {
    const path = spec.path + buildQuery(spec.query);
    const sent = [...secretsIn(spec.body), ...urlCredentials(path)];
    const known = [...this.knownSecretLists(), echoForms(sent)];
    this.sentSecrets.add(sent);
    return {
      spec,
      path,
      started: Date.now(),
      failures: new CallFailures({
        method: spec.method,
        path,
        serverUrl: this.baseUrl,
        secrets: () => known.flat(),
      }),
    };
  }

  /**
   * Masks, from here on, every secret a reply carries (a sandbox's session key, a VS Code URL's `tkn=`):
   * in this call, and in later ones that may quote it.
   */
  private learnSecrets(call: Call<unknown>, found: readonly string[]): void {
    call.failures.learn(found);
    this.receivedSecrets.add(found);
  }

  /** 429 is retried for idempotent GETs only; a POST may already have had its effect. */
  private retryDelay(spec: RequestSpec<unknown>, error: ApiError, attempt: number): number | undefined {
    if (error.kind !== 'rate_limited' || spec.method !== 'GET') return undefined;
    if (attempt > this.maxRateLimitRetries) return undefined;
    const wait = error.retryAfterMs ?? 1000;
    return wait <= this.maxRetryAfterMs ? wait : undefined;
  }

  private async send<T>(call: Call<T>, attempt: number): Promise<T> {
    const started = Date.now();
    const deadline = withDeadline(call.spec.signal, this.timeoutMs);
    let response: AxiosResponse<string>;
    try {
      // raced with the abort: a call settles when its caller or deadline ends it, whatever axios does
      response = await untilAborted(
        this.http.request<string>(this.requestConfig(call, deadline.signal)),
        deadline.signal,
      );
    } catch (cause) {
      const error = this.transportFailure(call, cause, deadline);
      const certificate = await this.refusedCertificateText(call, error);
      this.log(call, attempt, { errorKind: error.kind, started, certificate });
      throw error;
    } finally {
      deadline.dispose();
    }
    const text = typeof response.data === 'string' ? response.data : '';
    try {
      const value = this.interpret(call, response.status, contentTypeOf(response), text, response.headers);
      this.log(call, attempt, { status: response.status, started, responseBody: value });
      return value;
    } catch (thrown) {
      const error = call.failures.ensure(thrown);
      this.log(call, attempt, {
        status: response.status,
        errorKind: error.kind,
        started,
        serverText: this.fullServerText(call, contentTypeOf(response), text),
      });
      throw error;
    }
  }

  private async stream<T>(
    call: Call<T>,
    onItem: (item: T) => void,
    onStatus: (status: number) => void,
  ): Promise<T[]> {
    const head = withDeadline(call.spec.signal, this.timeoutMs);
    let response: AxiosResponse<Readable>;
    try {
      // a head that arrives after the abort is closed unread
      response = await untilAborted(
        this.http.request<Readable>({
          ...this.requestConfig(call, head.signal),
          responseType: 'stream',
          transformResponse: undefined,
        }),
        head.signal,
        closeReply,
      );
    } catch (cause) {
      throw this.transportFailure(call, cause, head);
    } finally {
      head.dispose();
    }
    onStatus(response.status);
    const status = response.status;
    const contentType = contentTypeOf(response);
    // Only the stream may work in silence up to the whole call's deadline; an error or a page instead
    // of it is an ordinary reply, read under the ordinary deadline (both counted from the call's start).
    const isStream = status >= 200 && status < 300 && /\bjson\b/i.test(contentType);
    const deadlineMs = isStream ? this.streamTimeoutMs : this.timeoutMs;
    const whole = withDeadline(call.spec.signal, Math.max(1, deadlineMs - (Date.now() - call.started)));
    const reply = response;
    const stop = () => closeReply(reply);
    whole.signal.addEventListener('abort', stop, { once: true });
    try {
      // The reads are raced with the abort: a read waiting on a stalled server may never end by itself.
      if (!isStream) {
        const text = await untilAborted(this.readText(call, response.data, whole.signal), whole.signal);
        // never undefined here: whatever is not the stream is refused
        throw (
          this.refusal(call, status, contentType, text, response.headers) ??
          call.failures.notJson(status, contentType)
        );
      }
      return await untilAborted(
        this.readArray(call, response.data, status, onItem, whole.signal),
        whole.signal,
      );
    } catch (thrown) {
      if (call.spec.signal?.aborted) throw call.failures.cancelled();
      if (whole.timedOut()) throw call.failures.timeout(deadlineMs);
      if (thrown instanceof ApiError) throw thrown;
      throw call.failures.transport(thrown, true);
    } finally {
      whole.signal.removeEventListener('abort', stop);
      whole.dispose();
      // a reply left unread (an error, a bad element) must not keep its connection
      if (!response.data.readableEnded) closeReply(response);
    }
  }

  private async readArray<T>(
    call: Call<T>,
    body: Readable,
    status: number,
    onItem: (item: T) => void,
    signal: AbortSignal,
  ): Promise<T[]> {
    const parser = new JsonArrayStreamParser({ maxDepth: MAX_JSON_DEPTH });
    const decoder = new TextDecoder('utf-8');
    const items: T[] = [];
    let bytes = 0;
    const take = (text: string) => {
      let elements: unknown[];
      try {
        elements = parser.push(text);
      } catch {
        throw parser.tooDeep
          ? call.failures.tooDeep(status, MAX_JSON_DEPTH)
          : call.failures.malformedJson(status, bytes);
      }
      for (const element of elements) {
        this.learnSecrets(call, secretsIn(element));
        const item = this.validate(call, status, element);
        items.push(item);
        onItem(item);
      }
    };
    for await (const chunk of body as AsyncIterable<Buffer>) {
      // after an abort the call has settled: no progress may be reported for it
      signal.throwIfAborted();
      bytes += chunk.length;
      if (bytes > this.maxResponseBytes) throw call.failures.tooLarge(this.maxResponseBytes);
      // a character split across chunks is decoded once its last byte arrives
      take(decoder.decode(chunk, { stream: true }));
    }
    take(decoder.decode());
    if (!parser.complete) throw call.failures.streamEndedEarly(status);
    return items;
  }

  /** The whole body as text, decoded as a stream (split characters intact), refused past the size limit. */
  private async readText(call: Call<unknown>, body: Readable, signal: AbortSignal): Promise<string> {
    const decoder = new TextDecoder('utf-8');
    let text = '';
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      bytes += chunk.length;
      if (bytes > this.maxResponseBytes) throw call.failures.tooLarge(this.maxResponseBytes);
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
    this.learnSecrets(call, secretsInJsonText(text));
    return text;
  }

  private async readBytes(
    call: Call<unknown>,
    body: Readable,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      bytes += chunk.length;
      if (bytes > maxBytes) throw call.failures.tooLarge(maxBytes);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, bytes);
  }

  private requestConfig(call: Call<unknown>, signal: AbortSignal): AxiosRequestConfig {
    const { method, body } = call.spec;
    return {
      method,
      url: this.baseUrl + call.path,
      headers: this.headers(body !== undefined),
      data: body === undefined ? undefined : JSON.stringify(body),
      signal,
    };
  }

  private headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (hasBody) headers['Content-Type'] = 'application/json';
    if (this.apiKey) {
      if (this.authHeader === 'Authorization') headers.Authorization = `Bearer ${this.apiKey}`;
      else headers[this.authHeader] = this.apiKey;
    }
    return headers;
  }

  private interpret<T>(
    call: Call<T>,
    status: number,
    contentType: string,
    text: string,
    headers: AxiosResponse['headers'],
  ): T {
    const polled = call.spec.polled && call.spec.method === 'GET';
    const repeated = polled
      ? this.repeatedReplies.find(call.path, call.spec.schema, status, contentType, text)
      : undefined;
    if (repeated) {
      this.learnSecrets(call, repeated.secrets);
      call.repeated = true;
      return repeated.value as T;
    }
    // One pass over what parsed finds its secrets and checks its depth; only a reply that did not
    // parse (cut short, an error, a page) has its text read as far as it goes, since that text is
    // what the error and the log quote.
    const parsed = isJsonReply(status, contentType) ? parseJsonOrUndefined(text) : undefined;
    const scan = parsed === undefined ? undefined : scanParsedReply(parsed, text, MAX_JSON_DEPTH);
    const secrets = scan && !scan.tooDeep ? scan.secrets : secretsInJsonText(text);
    this.learnSecrets(call, secrets);
    const refused = this.refusal(call, status, contentType, text, headers);
    if (refused) throw refused;
    if (scan?.tooDeep || (parsed === undefined && nestsDeeperThan(text, MAX_JSON_DEPTH)))
      throw call.failures.tooDeep(status, MAX_JSON_DEPTH);
    if (parsed === undefined) throw call.failures.malformedJson(status, Buffer.byteLength(text));
    const value = this.validate(call, status, parsed);
    if (polled)
      this.repeatedReplies.remember(call.path, {
        status,
        contentType,
        text,
        schema: call.spec.schema,
        value,
        secrets,
      });
    return value;
  }

  /** Why a reply holds no JSON to read (an error status, no content, another type), or undefined. */
  private refusal(
    call: Call<unknown>,
    status: number,
    contentType: string,
    text: string,
    headers: AxiosResponse['headers'],
  ): ApiError | undefined {
    if (status < 200 || status >= 300) return this.interpretFailure(call, status, contentType, text, headers);
    if (status === 204 || status === 205 || (text === '' && !contentType))
      return call.failures.noContent(status);
    if (!/\bjson\b/i.test(contentType)) return call.failures.notJson(status, contentType);
    return undefined;
  }

  private interpretFailure(
    call: Call<unknown>,
    status: number,
    contentType: string,
    text: string,
    headers: AxiosResponse['headers'],
  ): ApiError {
    if (status >= 300 && status < 400) return call.failures.redirect(status, headers.location);
    // a hostile error body must not reach the recursive walks either
    const safeText = nestsDeeperThan(text, MAX_JSON_DEPTH) ? '' : text;
    return call.failures.status(status, contentType, safeText, headers['retry-after']);
  }

  private validate<T>(call: Call<T>, status: number, json: unknown): T {
    // the schema's compiled check first; zod itself for whatever it is not sure of, and for the error
    const fast = fastParser(call.spec.schema)(json);
    if (fast !== DOUBT) return fast as T;
    const parsed = call.spec.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw call.failures.shape(status, where);
  }

  /**
   * For a call that failed on the server's certificate: which certificate, and why, for the log. Read
   * once at a time per transport: calls failing together share the read.
   */
  private async refusedCertificateText(call: Call<unknown>, error: ApiError): Promise<string | undefined> {
    const refused = refusedCertificate(error);
    if (!refused) return undefined;
    this.certificateRead ??= readServerCertificate(this.baseUrl, this.options.tls, {
      signal: call.spec.signal,
    }).finally(() => (this.certificateRead = undefined));
    const certificate = await this.certificateRead;
    return call.failures.scrub(describeCertificateFailure(refused.code, refused.reason, certificate));
  }

  private transportFailure(call: Call<unknown>, cause: unknown, deadline: Deadline): ApiError {
    if (call.spec.signal?.aborted) return call.failures.cancelled();
    if (deadline.timedOut()) return call.failures.timeout(this.timeoutMs, cause);
    return call.failures.transport(cause);
  }

  /** The server's own words in a failed reply, whole but for the size cap, with every secret masked. */
  private fullServerText(call: Call<unknown>, contentType: string, text: string): string | undefined {
    if (!text || call.failures.withholding) return undefined;
    const body =
      /\bjson\b/i.test(contentType) && !nestsDeeperThan(text, MAX_JSON_DEPTH)
        ? parseJsonOrUndefined(text)
        : undefined;
    const said = serverText(body, contentType, text) || (body === undefined ? text : '');
    return said ? clip(call.failures.scrub(said), MAX_LOGGED_TEXT_CHARS) : undefined;
  }

  private logsBodies(): boolean {
    const { logBodies } = this.options;
    return typeof logBodies === 'function' ? logBodies() : logBodies === true;
  }

  private log(
    call: Call<unknown>,
    attempt: number,
    outcome: {
      status?: number;
      errorKind?: ApiErrorKind;
      started?: number;
      serverText?: string;
      responseBody?: unknown;
      certificate?: string;
    },
  ): void {
    try {
      const entry: RequestLogEntry = {
        method: call.spec.method,
        path: call.failures.scrub(call.path),
        status: outcome.status,
        durationMs: Date.now() - (outcome.started ?? call.started),
        attempt,
        errorKind: outcome.errorKind,
        serverText: outcome.serverText,
        ...(outcome.certificate ? { certificate: outcome.certificate } : {}),
        ...(call.repeated ? { repeated: true } : {}),
        ...(this.logsBodies()
          ? {
              requestBody: redactJson(call.spec.body, call.failures.knownSecrets),
              responseBody: call.failures.withholding
                ? undefined
                : redactJson(outcome.responseBody, call.failures.knownSecrets),
            }
          : {}),
      };
      this.options.onLog?.(entry);
    } catch {
      // A failing logger must never fail a request.
    }
  }
}

let defaultPool: ConnectionPool | undefined;

/** For clients made without a pool or TLS options (tests, a server's connection test), as Node's global agent. */
function sharedPool(): ConnectionPool {
  return (defaultPool ??= new ConnectionPool());
}

/**
 * The newest secret values seen (at most `capacity`), with their echo forms worked out once per value:
 * a listing learns new session keys on every page, and working out all of them again each time cost
 * more than the page's check.
 */
class RecentSecrets {
  /** Each value and its forms, the one seen longest ago first. */
  private readonly values = new Map<string, readonly string[]>();
  private all: readonly string[] | undefined;

  constructor(private readonly capacity: number) {}

  add(values: readonly string[]): void {
    for (const value of values.slice(-this.capacity)) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      const forms = this.values.get(value);
      // re-inserted, so the value seen longest ago is the first to go
      this.values.delete(value);
      this.values.set(value, forms ?? echoForms([value]));
      if (!forms) this.all = undefined;
    }
    for (const oldest of this.values.keys()) {
      if (this.values.size <= this.capacity) break;
      this.values.delete(oldest);
      this.all = undefined;
    }
  }

  /** Every form of every value; the same list until a value comes or goes. */
  forms(): readonly string[] {
    return (this.all ??= [...new Set([...this.values.values()].flat())]);
  }
}

/**
 * Ends a streamed reply for good. Destroying its stream alone does not do it: axios reads the socket
 * through a size-limit generator that only ends at the socket's next chunk, which a stalled server
 * never sends. Destroying the request closes the socket, and with it everything reading from it.
 */
function closeReply(response: AxiosResponse<Readable>): void {
  const request: unknown = response.request;
  if (request instanceof ClientRequest && !request.destroyed) request.destroy();
  if (!response.data.destroyed) response.data.destroy();
}

/** What a bytes call can decompress, strictly (all of the stream, or an error). */
const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * A bytes reply's body as sent before compression, or undefined for an encoding not offered.
 * Decompressed to the end or failing, so a file or a patch comes whole or not at all; the size limit
 * then counts what it unpacks to.
 */
function decodedBody(body: Readable, encoding: string): Readable | undefined {
  if (encoding === '' || encoding === 'identity') return body;
  // createUnzip reads both gzip and zlib-wrapped deflate; an error surfaces where the body is read
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')
    return pipeline(body, createUnzip(), () => {});
  if (encoding === 'br') return pipeline(body, createBrotliDecompress(), () => {});
  return undefined;
}

function contentEncodingOf(response: AxiosResponse): string {
  const value: unknown = response.headers['content-encoding'];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Never consulted: a bytes call has no JSON to validate, but shares the call bookkeeping. */
const BYTES_SCHEMA = z.unknown();

function plainHeaders(headers: AxiosResponse['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value === 'string') plain[name.toLowerCase()] = value;
    else if (typeof value === 'number') plain[name.toLowerCase()] = String(value);
  }
  return plain;
}

/** A reply that should hold JSON to read: a success with content, said to be JSON. */
function isJsonReply(status: number, contentType: string): boolean {
  return status >= 200 && status < 300 && status !== 204 && status !== 205 && /\bjson\b/i.test(contentType);
}

function contentTypeOf(response: AxiosResponse): string {
  const value: unknown = response.headers['content-type'];
  return typeof value === 'string' ? value : '';
}
