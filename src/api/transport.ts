import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type * as z from 'zod/mini';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { ApiError, type ApiErrorKind, type ValidationIssue } from './errors';
import { JsonArrayStreamParser } from './jsonArrayStream';
import { buildQuery, type QueryParams } from './query';
import { redactJson, redactUrl, scrubSecrets } from './redact';
import { sleep, withDeadline } from './signals';

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
  /** Only with `logBodies`; secrets masked. */
  requestBody?: unknown;
  responseBody?: unknown;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  authHeader?: AuthHeader;
  timeoutMs?: number;
  /** How many times a GET answered with 429 is retried after its Retry-After. */
  maxRateLimitRetries?: number;
  /** Longest Retry-After we wait for automatically; longer ones surface as `rate_limited`. */
  maxRetryAfterMs?: number;
  onLog?: (entry: RequestLogEntry) => void;
  logBodies?: boolean;
  tls?: TlsOptions;
}

/** For `https://` servers only. Unset, Node's (and VS Code's) defaults and proxy handling apply. */
export interface TlsOptions {
  /** PEM certificate(s) to trust in addition to the system's, e.g. a company or self-signed CA. */
  ca?: string;
  /** `false` accepts any certificate: self-signed, expired or for another host. */
  rejectUnauthorized?: boolean;
}

/** Node's codes for a certificate the client does not trust. */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface RequestSpec<T> {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: QueryParams;
  /** `undefined` sends no body at all (some routes take none). */
  body?: unknown;
  schema: z.ZodMiniType<T>;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class HttpTransport {
  private readonly http: AxiosInstance;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly authHeader: AuthHeader;
  private readonly timeoutMs: number;
  private readonly maxRateLimitRetries: number;
  private readonly maxRetryAfterMs: number;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.authHeader = options.authHeader ?? 'X-Session-API-Key';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRateLimitRetries = options.maxRateLimitRetries ?? 2;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    // We read bodies as text and parse them ourselves: the server's SPA fallback answers 200 text/html,
    // and a truncated body must become an ApiError, not an exception from inside axios.
    this.http = axios.create({
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 3,
      httpsAgent: options.tls ? new HttpsAgent({ ...options.tls, keepAlive: true }) : undefined,
    });
  }

  get serverUrl(): string {
    return this.baseUrl;
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const pathWithQuery = spec.path + buildQuery(spec.query);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(spec, pathWithQuery, attempt);
      } catch (error) {
        const retryAfterMs = this.retryDelay(spec, error, attempt);
        if (retryAfterMs === undefined) throw error;
        await sleep(retryAfterMs, spec.signal, () => this.cancelled(spec.method, pathWithQuery));
      }
    }
  }

  /**
   * A POST whose reply is a JSON array streamed element by element (`stream-start`). The timeout
   * covers the wait for the response head only: the stream stays open while the server works.
   */
  async requestArrayStream<T>(spec: RequestSpec<T>, onItem: (item: T) => void): Promise<T[]> {
    const started = Date.now();
    const deadline = withDeadline(spec.signal, this.timeoutMs);
    let response: AxiosResponse<Readable>;
    try {
      response = await this.http.request<Readable>({
        method: spec.method,
        url: this.baseUrl + spec.path + buildQuery(spec.query),
        headers: this.headers(spec.body !== undefined),
        data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        responseType: 'stream',
        transformResponse: undefined,
        signal: spec.signal,
        // the head must arrive within the timeout; the body may take as long as the server works
        timeout: this.timeoutMs,
      });
    } catch (cause) {
      throw this.transportError(spec.method, spec.path, cause, deadline.timedOut(), spec.signal);
    } finally {
      deadline.dispose();
    }
    const contentType = String(response.headers['content-type'] ?? '');
    const log = (errorKind?: ApiErrorKind) =>
      this.log({
        method: spec.method,
        path: spec.path,
        status: response.status,
        durationMs: Date.now() - started,
        attempt: 1,
        errorKind,
      });
    if (response.status < 200 || response.status >= 300 || !/\bjson\b/i.test(contentType)) {
      const text = await readAll(response.data);
      const error =
        response.status >= 200 && response.status < 300
          ? this.notJson(spec.method, spec.path, response.status, contentType)
          : this.statusError(
              spec.method,
              spec.path,
              response.status,
              contentType,
              text,
              response.headers['retry-after'],
            );
      log(error.kind);
      throw error;
    }
    const parser = new JsonArrayStreamParser();
    const items: T[] = [];
    try {
      for await (const chunk of response.data) {
        for (const element of parser.push(String(chunk))) {
          const item = this.validate(spec, response.status, element);
          items.push(item);
          onItem(item);
        }
      }
    } catch (cause) {
      const error =
        cause instanceof ApiError
          ? cause
          : spec.signal?.aborted
            ? this.cancelled(spec.method, spec.path)
            : new ApiError({
                kind: cause instanceof SyntaxError ? 'invalid_response' : 'network',
                method: spec.method,
                path: spec.path,
                cause,
                message: `The stream from ${spec.method} ${spec.path} broke off: ${cause instanceof Error ? cause.message : String(cause)}.`,
              });
      log(error.kind);
      throw error;
    }
    log();
    return items;
  }

  /** 429 is retried for idempotent GETs only; a POST may already have had its effect. */
  private retryDelay(spec: RequestSpec<unknown>, error: unknown, attempt: number): number | undefined {
    if (!(error instanceof ApiError) || error.kind !== 'rate_limited' || spec.method !== 'GET')
      return undefined;
    if (attempt > this.maxRateLimitRetries) return undefined;
    const wait = error.retryAfterMs ?? 1000;
    return wait <= this.maxRetryAfterMs ? wait : undefined;
  }

  private async send<T>(spec: RequestSpec<T>, pathWithQuery: string, attempt: number): Promise<T> {
    const started = Date.now();
    const deadline = withDeadline(spec.signal, this.timeoutMs);
    const log = (status: number | undefined, errorKind?: ApiErrorKind, responseBody?: unknown) =>
      this.log({
        method: spec.method,
        path: redactUrl(pathWithQuery),
        status,
        durationMs: Date.now() - started,
        attempt,
        errorKind,
        ...(this.options.logBodies
          ? { requestBody: redactJson(spec.body), responseBody: redactJson(responseBody) }
          : {}),
      });
    let response: AxiosResponse<string>;
    try {
      response = await this.http.request<string>({
        method: spec.method,
        url: this.baseUrl + pathWithQuery,
        headers: this.headers(spec.body !== undefined),
        data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: deadline.signal,
      });
    } catch (cause) {
      const error = this.transportError(spec.method, pathWithQuery, cause, deadline.timedOut(), spec.signal);
      log(undefined, error.kind);
      throw error;
    } finally {
      deadline.dispose();
    }
    try {
      const value = this.interpret(spec, pathWithQuery, response);
      log(response.status, undefined, value);
      return value;
    } catch (error) {
      log(response.status, error instanceof ApiError ? error.kind : 'invalid_response');
      throw error;
    }
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

  private interpret<T>(spec: RequestSpec<T>, path: string, response: AxiosResponse<string>): T {
    const status = response.status;
    const contentType = String(response.headers['content-type'] ?? '');
    const text = typeof response.data === 'string' ? response.data : '';
    if (status >= 200 && status < 300) {
      return this.validate(spec, status, this.parseJson(spec.method, path, status, contentType, text), path);
    }
    throw this.statusError(spec.method, path, status, contentType, text, response.headers['retry-after']);
  }

  private validate<T>(spec: RequestSpec<T>, status: number, json: unknown, path = spec.path): T {
    const parsed = spec.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new ApiError({
      kind: 'invalid_response',
      status,
      method: spec.method,
      path,
      message: `The server's reply to ${spec.method} ${stripQuery(path)} does not have the expected shape (${where}).`,
    });
  }

  /** The SPA fallback (200 text/html) and proxies' error pages land here. */
  private notJson(method: string, path: string, status: number, contentType: string): ApiError {
    const got = contentType.split(';')[0] || 'no content type';
    return new ApiError({
      kind: 'invalid_response',
      status,
      method,
      path,
      message:
        `The server answered ${method} ${stripQuery(path)} with ${got} instead of JSON. ` +
        'Check that the server URL points at an OpenHands server with the V1 API enabled.',
    });
  }

  private parseJson(
    method: string,
    path: string,
    status: number,
    contentType: string,
    text: string,
  ): unknown {
    if (!/\bjson\b/i.test(contentType)) throw this.notJson(method, path, status, contentType);
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError({
        kind: 'invalid_response',
        status,
        method,
        path,
        message: `The server's reply to ${method} ${stripQuery(path)} is not valid JSON (${text.length} bytes, truncated or malformed).`,
      });
    }
  }

  private statusError(
    method: string,
    path: string,
    status: number,
    contentType: string,
    text: string,
    retryAfterHeader: unknown,
  ): ApiError {
    const body = /\bjson\b/i.test(contentType) ? safeJson(text) : undefined;
    const issues = validationIssues(body);
    const serverMessage = this.scrub(serverText(body, contentType, text));
    const kind = kindForStatus(status);
    const where = `${method} ${stripQuery(path)}`;
    const said = serverMessage ? `: ${serverMessage}` : '.';
    const messages: Record<ApiErrorKind, string> = {
      unauthorized:
        status === 403
          ? `The OpenHands server refused access (403)${said}`
          : `The OpenHands server rejected the credentials (401)${said} Set a valid API key.`,
      not_found:
        status === 405
          ? `The server does not support ${where} (405). It may be an older OpenHands version.`
          : `Not found (${where})${said}`,
      validation: issues.length
        ? `The server rejected the request (${status}): ${issues.map(formatIssue).join('; ')}`
        : `The server rejected the request (${status})${said}`,
      rate_limited: `The server is rate limiting requests (429); try again in a moment.`,
      server: `The OpenHands server failed (${status}) on ${where}${said}`,
      network: '',
      timeout: '',
      cancelled: '',
      invalid_response: '',
    };
    return new ApiError({
      kind,
      status,
      method,
      path,
      message: messages[kind],
      serverMessage: serverMessage || undefined,
      issues,
      retryAfterMs: status === 429 ? parseRetryAfter(retryAfterHeader) : undefined,
    });
  }

  private transportError(
    method: string,
    path: string,
    cause: unknown,
    timedOut: boolean,
    callerSignal: AbortSignal | undefined,
  ): ApiError {
    if (callerSignal?.aborted) return this.cancelled(method, path);
    if (timedOut) {
      return new ApiError({
        kind: 'timeout',
        method,
        path,
        cause,
        message: `The OpenHands server at ${this.baseUrl} did not answer ${method} ${stripQuery(path)} within ${formatSeconds(this.timeoutMs)}.`,
      });
    }
    const code = axios.isAxiosError(cause) ? cause.code : undefined;
    if (code && UNTRUSTED_CERTIFICATE_CODES.has(code)) {
      return new ApiError({
        kind: 'network',
        method,
        path,
        cause,
        message: `The TLS certificate of the OpenHands server at ${this.baseUrl} is not trusted (${code}). Trust its CA, or, for a server you control, accept it explicitly.`,
      });
    }
    const reason = code ?? (cause instanceof Error ? cause.message : 'unknown error');
    return new ApiError({
      kind: 'network',
      method,
      path,
      cause,
      message: `Cannot reach the OpenHands server at ${this.baseUrl} (${this.scrub(reason)}).`,
    });
  }

  private cancelled(method: string, path: string): ApiError {
    return new ApiError({
      kind: 'cancelled',
      method,
      path,
      message: `${method} ${stripQuery(path)} was cancelled.`,
    });
  }

  private scrub(text: string): string {
    return scrubSecrets(text, [this.apiKey]);
  }

  private log(entry: RequestLogEntry): void {
    try {
      this.options.onLog?.(entry);
    } catch {
      // A failing logger must never fail a request.
    }
  }
}

function kindForStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'validation';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function validationIssues(body: unknown): ValidationIssue[] {
  if (!isRecord(body) || !Array.isArray(body.detail)) return [];
  return body.detail.filter(isRecord).map((item) => ({
    loc: Array.isArray(item.loc)
      ? item.loc.filter((part) => typeof part === 'string' || typeof part === 'number')
      : [],
    msg: typeof item.msg === 'string' ? item.msg : 'Invalid value',
    type: typeof item.type === 'string' ? item.type : 'unknown',
  }));
}

/** The readable part of an error body: FastAPI `detail`, legacy `error`/`message`, or a bare JSON string. */
function serverText(body: unknown, contentType: string, text: string): string {
  if (typeof body === 'string') return body;
  if (isRecord(body)) {
    for (const key of ['detail', 'error', 'message'] as const) {
      const value = body[key];
      if (typeof value === 'string') return value;
    }
    return '';
  }
  if (/text\/plain/i.test(contentType)) return text.trim().slice(0, 200);
  return '';
}

function formatIssue(issue: ValidationIssue): string {
  // loc[0] is where the value came from (query/body/path); the rest names the field
  const field = issue.loc.slice(1).join('.') || String(issue.loc[0] ?? 'request');
  return `${field}: ${issue.msg}`;
}

function parseRetryAfter(header: unknown): number | undefined {
  if (typeof header !== 'string' || !header.trim()) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripQuery(path: string): string {
  const index = path.indexOf('?');
  return index === -1 ? path : path.slice(0, index);
}

function formatSeconds(ms: number): string {
  // up to two decimals, no trailing zeros: 30 s, 1.5 s, 0.15 s
  return `${Number((ms / 1000).toFixed(2))} s`;
}
