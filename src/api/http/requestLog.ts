/**
 * A request's log entry: what was asked, how it ended, and how long it took, with every secret the
 * call knows masked. A failed reply's own words are logged whole (up to 64 KB), and a refused
 * certificate is read once more to say which it was.
 */
import type { PeerCertificate } from 'node:tls';
import { describeCertificateFailure, readServerCertificate } from '../certificateReport';
import type { ApiError, ApiErrorKind } from '../errors';
import { refusedCertificate } from '../failures';
import { redactJson } from '../redact';
import {
  MAX_LOGGED_TEXT_CHARS,
  clip,
  nestsDeeperThan,
  parseJsonOrUndefined,
  serverText,
} from '../serverText';
import type { TlsOptions } from '../tls';
import type { Call } from './buildRequest';
import { MAX_JSON_DEPTH } from './readReply';

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

export interface RequestLogOptions {
  baseUrl: string;
  tls?: TlsOptions;
  onLog?: (entry: RequestLogEntry) => void;
  /** Adds masked bodies to log entries; a function is asked per request, so it can follow a setting. */
  logBodies?: boolean | (() => boolean);
}

/** How one attempt of a call ended. */
export interface Outcome {
  status?: number;
  errorKind?: ApiErrorKind;
  /** When the attempt started; the call's start when unset. */
  started?: number;
  serverText?: string;
  responseBody?: unknown;
  certificate?: string;
}

export class RequestLog {
  /** The certificate read in flight after a refused one (`refusedCertificateText`). */
  private certificateRead: Promise<PeerCertificate | undefined> | undefined;

  constructor(private readonly options: RequestLogOptions) {}

  /** A failed attempt, with the refused certificate's description when the server's was refused. */
  async failed(call: Call<unknown>, attempt: number, error: ApiError, outcome: Outcome = {}): Promise<void> {
    const certificate = await this.refusedCertificateText(call, error);
    this.entry(call, attempt, { ...outcome, errorKind: error.kind, certificate });
  }

  entry(call: Call<unknown>, attempt: number, outcome: Outcome): void {
    try {
      const entry: RequestLogEntry = {
        method: call.spec.method,
        path: call.secrets.scrub(call.path),
        status: outcome.status,
        durationMs: Date.now() - (outcome.started ?? call.started),
        attempt,
        errorKind: outcome.errorKind,
        serverText: outcome.serverText,
        ...(outcome.certificate ? { certificate: outcome.certificate } : {}),
        ...(call.repeated ? { repeated: true } : {}),
        ...(this.logsBodies()
          ? {
              requestBody: redactJson(call.spec.body, call.secrets.list),
              responseBody: call.secrets.withholding
                ? undefined
                : redactJson(outcome.responseBody, call.secrets.list),
            }
          : {}),
      };
      this.options.onLog?.(entry);
    } catch {
      // A failing logger must never fail a request.
    }
  }

  /** The server's own words in a failed reply, whole but for the size cap, with every secret masked. */
  serverText(call: Call<unknown>, contentType: string, text: string): string | undefined {
    if (!text || call.secrets.withholding) return undefined;
    const body =
      /\bjson\b/i.test(contentType) && !nestsDeeperThan(text, MAX_JSON_DEPTH)
        ? parseJsonOrUndefined(text)
        : undefined;
    const said = serverText(body, contentType, text) || (body === undefined ? text : '');
    return said ? clip(call.secrets.scrub(said), MAX_LOGGED_TEXT_CHARS) : undefined;
  }

  /**
   * For a call that failed on the server's certificate: which certificate, and why, for the log. Read
   * once at a time per transport: calls failing together share the read.
   */
  private async refusedCertificateText(call: Call<unknown>, error: ApiError): Promise<string | undefined> {
    const refused = refusedCertificate(error);
    if (!refused) return undefined;
    this.certificateRead ??= readServerCertificate(this.options.baseUrl, this.options.tls, {
      signal: call.spec.signal,
    }).finally(() => (this.certificateRead = undefined));
    const certificate = await this.certificateRead;
    return call.secrets.scrub(describeCertificateFailure(refused.code, refused.reason, certificate));
  }

  private logsBodies(): boolean {
    const { logBodies } = this.options;
    return typeof logBodies === 'function' ? logBodies() : logBodies === true;
  }
}
