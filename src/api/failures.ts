/**
 * Every way one call can fail, as an `ApiError` that says what really happened and holds no secret:
 * server text is scrubbed of every value the call sent (the key, tokens, MCP keys and env values) and
 * of every secret its reply carried (session keys, `tkn=` credentials: the call's `secrets`), cleaned
 * and clipped, and a transport failure keeps only its code and message as the cause.
 */
import axios from 'axios';
import { ApiError, messageOf, type ApiErrorKind, type ValidationIssue } from './errors';
import { redactUrl } from './redact';
import {
  describeWait,
  MAX_MESSAGE_CHARS,
  MAX_SERVER_TEXT_CHARS,
  clip,
  parseJsonOrUndefined,
  serverText,
  showable,
} from './serverText';
import { isRecord } from './records';

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

/** What a failed call knows about itself. */
export interface CallContext {
  method: string;
  /** Path and query as sent; shown without the query, kept with credentials masked. */
  path: string;
  serverUrl: string;
  /** Masks every secret of the call (what it sent, what its reply carried) in a text it shows. */
  secrets: CallSecretMask;
}

export interface CallSecretMask {
  scrub(text: string): string;
  /** The reply carried more secrets than are masked one by one: nothing the server said may be shown. */
  readonly withholding: boolean;
}

const WITHHELD = '(withheld: the reply carries more secrets than can be masked)';

export class CallFailures {
  private readonly where: string;

  constructor(private readonly call: CallContext) {
    this.where = `${call.method} ${stripQuery(call.path)}`;
  }

  private scrub(text: string): string {
    return this.call.secrets.scrub(text);
  }

  /** Anything thrown while handling the call, as an ApiError (a bug must not escape as a RangeError). */
  ensure(error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    return this.error(
      'invalid_response',
      `The reply to ${this.where} could not be read (${this.reason(error)}).`,
      {
        cause: error,
      },
    );
  }

  cancelled(): ApiError {
    return this.error('cancelled', `${this.where} was cancelled.`);
  }

  timeout(timeoutMs: number, cause?: unknown): ApiError {
    return this.error(
      'timeout',
      `The OpenHands server at ${this.call.serverUrl} did not answer ${this.where} within ${formatSeconds(timeoutMs)}.`,
      { cause },
    );
  }

  /** API calls never follow redirects: the key would go to wherever the redirect points. */
  redirect(status: number, location: unknown): ApiError {
    const target =
      typeof location === 'string' && location ? this.shown(redactUrl(location), 200) : undefined;
    return this.error(
      'invalid_response',
      `The server answered ${this.where} with a redirect (${status})${target ? ` to ${target}` : ''}. ` +
        'The extension does not follow redirects, so that credentials stay with the server you set: ' +
        'put the address the server redirects to in the OpenHands server URL setting.',
      { status },
    );
  }

  noContent(status: number): ApiError {
    return this.error(
      'invalid_response',
      `The server answered ${this.where} with ${status} and no content, where a JSON reply was expected.`,
      { status },
    );
  }

  /** The SPA fallback (200 text/html) and proxies' error pages land here. */
  notJson(status: number, contentType: string): ApiError {
    const got = this.shown(contentType.split(';')[0] ?? '', 100) || 'no content type';
    return this.error(
      'invalid_response',
      `The server answered ${this.where} with ${got} instead of JSON. ` +
        'Check that the server URL points at an OpenHands server.',
      { status },
    );
  }

  malformedJson(status: number, bytes: number): ApiError {
    return this.error(
      'invalid_response',
      `The server's reply to ${this.where} is not valid JSON (${bytes} bytes, truncated or malformed).`,
      { status },
    );
  }

  tooDeep(status: number | undefined, maxDepth: number): ApiError {
    return this.error(
      'invalid_response',
      `The server's reply to ${this.where} nests deeper than ${maxDepth} levels; it was not read.`,
      { status },
    );
  }

  tooLarge(maxBytes: number): ApiError {
    return this.error(
      'invalid_response',
      `The server's reply to ${this.where} is larger than ${Math.round(maxBytes / (1024 * 1024))} MB; it was not read.`,
      { overLimitBytes: maxBytes },
    );
  }

  /** A reply compressed in an encoding the client did not offer, so its bytes cannot be read. */
  unknownEncoding(status: number, encoding: string): ApiError {
    return this.error(
      'invalid_response',
      `The server answered ${this.where} in a content encoding the extension does not read (${this.shown(encoding, 40)}).`,
      { status },
    );
  }

  /** The reply does not have the shape the schema expects. */
  shape(status: number, where: string): ApiError {
    return this.error(
      'invalid_response',
      `The server's reply to ${this.where} does not have the expected shape (${this.shown(where, 300)}).`,
      { status },
    );
  }

  streamEndedEarly(status: number): ApiError {
    return this.error(
      'invalid_response',
      `The reply to ${this.where} ended before it was complete: the server closed the stream too early.`,
      { status },
    );
  }

  /** A non-2xx reply. `text` is the body as received. */
  status(status: number, contentType: string, text: string, retryAfterHeader: unknown): ApiError {
    const body = /\bjson\b/i.test(contentType) ? parseJsonOrUndefined(text) : undefined;
    const issues = validationIssues(body).map((issue) => this.cleanIssue(issue));
    const serverMessage = this.shown(serverText(body, contentType, text)) || undefined;
    const kind = kindForStatus(status);
    const said = serverMessage ? `: ${serverMessage}` : '.';
    const retryAfterMs = status === 429 ? parseRetryAfter(retryAfterHeader) : undefined;
    const messages: Record<ApiErrorKind, () => string> = {
      unauthorized: () =>
        status === 403
          ? `The OpenHands server refused access (403)${said}`
          : `The OpenHands server rejected the credentials (401)${said} Set a valid API key.`,
      not_found: () =>
        status === 405
          ? `The server does not support ${this.where} (405). It may be an older OpenHands version.`
          : `Not found (${this.where})${said}`,
      validation: () =>
        issues.length
          ? `The server rejected the request (${status}): ${issues.map(formatIssue).join('; ')}`
          : `The server rejected the request (${status})${said}`,
      rate_limited: () =>
        `The server is rate limiting requests (429); try again ${
          retryAfterMs === undefined ? 'in a moment' : describeWait(retryAfterMs)
        }.`,
      server: () => `The OpenHands server failed (${status}) on ${this.where}${said}`,
      network: () => '',
      timeout: () => '',
      cancelled: () => '',
      invalid_response: () => '',
    };
    return this.error(kind, messages[kind](), { status, serverMessage, issues, retryAfterMs });
  }

  /**
   * The request failed below HTTP: nothing came back, or what came back was not a readable reply.
   * @param duringReply the reply had started (its head arrived) when this happened
   */
  transport(cause: unknown, duringReply = false): ApiError {
    const code = errorCode(cause);
    const answered = duringReply || (axios.isAxiosError(cause) && cause.response !== undefined);
    const at = `the OpenHands server at ${this.call.serverUrl}`;
    if (code && UNTRUSTED_CERTIFICATE_CODES.has(code)) {
      return this.error(
        'network',
        `The TLS certificate of ${at} is not trusted (${code}). Trust its CA, or, for a server you control, accept it explicitly.`,
        { cause },
      );
    }
    if (code?.startsWith('HPE_') || code === 'ERR_INVALID_HTTP_RESPONSE') {
      return this.error(
        'invalid_response',
        `${capitalize(at)} sent a malformed HTTP reply to ${this.where} (${code}).`,
        {
          cause,
        },
      );
    }
    if (
      code?.startsWith('Z_') ||
      code === 'ERR_BROTLI' ||
      /decompress|incorrect header check|unexpected end of file/i.test(this.reason(cause))
    ) {
      return this.error(
        'invalid_response',
        `${capitalize(at)} sent a reply to ${this.where} that could not be decompressed (${code ?? this.reason(cause)}).`,
        { cause },
      );
    }
    if (/maxContentLength/.test(this.reason(cause))) return this.tooLarge(maxContentLengthOf(cause));
    if (answered || code === 'ECONNRESET' || /aborted|socket hang up/i.test(this.reason(cause))) {
      return this.error(
        'network',
        answered
          ? `The connection to ${at} broke off during the reply to ${this.where} (${code ?? this.reason(cause)}).`
          : `${capitalize(at)} closed the connection without answering ${this.where} (${code ?? this.reason(cause)}).`,
        { cause },
      );
    }
    return this.error('network', `Cannot reach ${at} (${code ?? this.reason(cause)}).`, { cause });
  }

  private error(
    kind: ApiErrorKind,
    message: string,
    extra: {
      status?: number;
      serverMessage?: string;
      issues?: ValidationIssue[];
      retryAfterMs?: number;
      overLimitBytes?: number;
      cause?: unknown;
    } = {},
  ): ApiError {
    return new ApiError({
      kind,
      method: this.call.method,
      path: redactUrl(this.scrub(this.call.path)),
      message: clip(this.scrub(message), MAX_MESSAGE_CHARS),
      status: extra.status,
      serverMessage: extra.serverMessage,
      issues: extra.issues,
      retryAfterMs: extra.retryAfterMs,
      overLimitBytes: extra.overLimitBytes,
      cause: extra.cause === undefined ? undefined : this.safeCause(extra.cause),
    });
  }

  /** What the error came from, without the request config (headers with the key, bodies with tokens). */
  private safeCause(cause: unknown): Error {
    const safe = new Error(clip(this.scrub(this.reason(cause)), MAX_SERVER_TEXT_CHARS));
    safe.name = cause instanceof Error ? cause.name : 'Error';
    const code = errorCode(cause);
    const errno =
      cause !== null && typeof cause === 'object' ? (cause as { errno?: unknown }).errno : undefined;
    if (code) Object.assign(safe, { code });
    if (typeof errno === 'number' || typeof errno === 'string') Object.assign(safe, { errno });
    // the stack would only point into axios and Node; the message says what happened
    safe.stack = `${safe.name}: ${safe.message}`;
    return safe;
  }

  private reason(error: unknown): string {
    return this.shown(messageOf(error), 200) || 'unknown error';
  }

  private shown(text: string, maxChars = MAX_SERVER_TEXT_CHARS): string {
    if (this.call.secrets.withholding && text) return WITHHELD;
    return showable(this.scrub(text), maxChars);
  }

  private cleanIssue(issue: ValidationIssue): ValidationIssue {
    return {
      loc: issue.loc.map((part) => (typeof part === 'string' ? this.shown(part, 100) : part)),
      msg: this.shown(issue.msg, 300),
      type: this.shown(issue.type, 100),
    };
  }
}

function kindForStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'validation';
}

/** At most this many FastAPI issues are kept: a hostile 422 can list thousands. */
const MAX_ISSUES = 20;

function validationIssues(body: unknown): ValidationIssue[] {
  if (!isRecord(body) || !Array.isArray(body.detail)) return [];
  return body.detail
    .filter(isRecord)
    .slice(0, MAX_ISSUES)
    .map((item) => ({
      loc: Array.isArray(item.loc)
        ? item.loc.filter((part) => typeof part === 'string' || typeof part === 'number').slice(0, 10)
        : [],
      msg: typeof item.msg === 'string' ? item.msg : 'Invalid value',
      type: typeof item.type === 'string' ? item.type : 'unknown',
    }));
}

function formatIssue(issue: ValidationIssue): string {
  // loc[0] is where the value came from (query/body/path); the rest names the field
  const field = issue.loc.slice(1).join('.') || String(issue.loc[0] ?? 'request');
  return `${field}: ${issue.msg}`;
}

/** Retry-After in seconds or as an HTTP date; nonsense gives undefined. */
function parseRetryAfter(header: unknown): number | undefined {
  if (typeof header !== 'string' || !header.trim()) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether the call failed because the server's TLS certificate is not trusted (a CA to add, or to accept). */
export function isUntrustedCertificate(error: unknown): boolean {
  return refusedCertificate(error) !== undefined;
}

/**
 * Why the server's certificate was refused, when that is how the call failed: Node's code (such as
 * DEPTH_ZERO_SELF_SIGNED_CERT) and its words (already scrubbed into the error's cause).
 */
export function refusedCertificate(error: unknown): { code: string; reason: string } | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = errorCode(cause);
  if (code === undefined || !UNTRUSTED_CERTIFICATE_CODES.has(code)) return undefined;
  return { code, reason: cause instanceof Error ? cause.message : '' };
}

function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function maxContentLengthOf(error: unknown): number {
  const match = /size of (\d+)/.exec(error instanceof Error ? error.message : '');
  return match ? Number(match[1]) : 0;
}

export function stripQuery(path: string): string {
  const index = path.indexOf('?');
  return index === -1 ? path : path.slice(0, index);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatSeconds(ms: number): string {
  // up to two decimals, no trailing zeros: 30 s, 1.5 s, 0.15 s
  return `${Number((ms / 1000).toFixed(2))} s`;
}
