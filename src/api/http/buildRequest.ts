/**
 * The first step of a request: what it sends (method, URL and query, headers with the key, body as
 * JSON) and the call that follows it to the end, which knows every secret it carries and how it fails.
 */
import type { AxiosRequestConfig } from 'axios';
import { randomBytes } from 'node:crypto';
import type * as z from 'zod/mini';
import { ApiError } from '../errors';
import { CallFailures } from '../failures';
import type { CallSecrets, KnownSecrets } from './knownSecrets';

export type QueryValue = string | number | boolean | Date | null | undefined | readonly string[];
export type QueryParams = Record<string, QueryValue>;

/**
 * FastAPI wants repeated keys for lists (`?ids=a&ids=b`, never `ids[]=` or comma lists) and ISO
 * datetimes whose `+` is percent-encoded; URLSearchParams does both.
 */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, item);
    } else if (value instanceof Date) {
      // an invalid Date would throw a RangeError from toISOString: say which parameter instead
      if (Number.isNaN(value.getTime()))
        throw new ApiError({ kind: 'validation', message: `The ${key} parameter is not a valid date.` });
      search.append(key, value.toISOString());
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** How the API key travels. The OSS server uses the session header; hosted ones use the others. */
export type AuthHeader = 'X-Session-API-Key' | 'Authorization' | 'X-Access-Token';

export interface RequestSpec<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  /** `undefined` sends no body at all (some routes take none). */
  body?: unknown;
  schema: z.ZodMiniType<T>;
  signal?: AbortSignal;
  /**
   * A file sent as `multipart/form-data` (FastAPI's `UploadFile`) instead of a JSON body. Its bytes are
   * never logged: only `body` is.
   */
  file?: UploadedFile;
  /** From sending to the last byte of the reply; the transport's deadline when unset. */
  timeoutMs?: number;
  /**
   * A GET polled again and again (the lists a refresh reads): a reply the same as the last one is
   * the same, frozen value (`RepeatedReplies`).
   */
  polled?: boolean;
}

export interface UploadedFile {
  /** The form field the route reads (`file`). */
  field: string;
  /** The file name the part says (the server may ignore it). */
  name: string;
  content: Buffer;
}

/** One call in flight: what it sent, the secrets it knows, and how it fails. */
export interface Call<T> {
  spec: RequestSpec<T>;
  /** Path and query as sent. */
  path: string;
  /**
   * The request as axios sends it (method, URL, headers with the key, the body as JSON), written as it
   * is sent: a body that JSON cannot write fails there, like any failure below HTTP.
   */
  request: () => AxiosRequestConfig;
  /** Every secret it knows, to mask: what it sent, what was known then, what its reply carries. */
  secrets: CallSecrets;
  failures: CallFailures;
  started: number;
  /** Its reply was the last poll's, word for word (`RepeatedReplies`). */
  repeated?: boolean;
}

/** What a request may be sent as, besides JSON: the type it accepts, and the encodings it can unpack. */
export interface Accepting {
  accept: string;
  encodings: string;
}

export class RequestBuilder {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly authHeader: AuthHeader,
    private readonly secrets: KnownSecrets,
  ) {}

  /** The call of `spec`, accepting JSON unless `accepting` says otherwise. */
  callOf<T>(spec: RequestSpec<T>, accepting?: Accepting): Call<T> {
    const path = spec.path + buildQuery(spec.query);
    const request = () => this.request(spec, path, accepting);
    const secrets = this.secrets.forCall(path, spec.body);
    return {
      spec,
      path,
      request,
      secrets,
      started: Date.now(),
      failures: new CallFailures({ method: spec.method, path, serverUrl: this.baseUrl, secrets }),
    };
  }

  private request(
    spec: RequestSpec<unknown>,
    path: string,
    accepting: Accepting | undefined,
  ): AxiosRequestConfig {
    const { method, body, file } = spec;
    const headers = this.headers(body !== undefined);
    const form = file ? multipartBody(file) : undefined;
    if (form) headers['Content-Type'] = form.contentType;
    return {
      method,
      url: this.baseUrl + path,
      headers: accepting
        ? { ...headers, Accept: accepting.accept, 'Accept-Encoding': accepting.encodings }
        : headers,
      data: form ? form.bytes : body === undefined ? undefined : JSON.stringify(body),
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
}

/** One file as a `multipart/form-data` body, with a boundary its bytes do not hold. */
function multipartBody(file: UploadedFile): { contentType: string; bytes: Buffer } {
  let boundary: string;
  do boundary = `openhands-${randomBytes(16).toString('hex')}`;
  while (file.content.includes(boundary));
  // quotes and line breaks would end the header: the name is only a label, so they become `_`
  const name = file.name.replace(/["\r\n\\]/g, '_');
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${name}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: Buffer.concat([Buffer.from(head, 'utf8'), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}
