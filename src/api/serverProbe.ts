// "Is this an OpenHands server, and does it take this key?", asked before a server is saved.
import { ApiError, isApiError } from './errors';
import { isUntrustedCertificate } from './failures';
import type { OpenHandsClient } from './client';

/**
 * What a connection test found, as one closed set the UI words:
 * - `ok`: OpenHands answered, and took the key (or needs none: `keyUsed` says which);
 * - `needs-key`: OpenHands, but it refuses requests without a key;
 * - `key-rejected`: OpenHands refused the key given;
 * - `unreachable`: nothing answered (refused, timed out, DNS);
 * - `untrusted-certificate`: an https:// server whose certificate is not trusted here;
 * - `not-openhands`: something answered, but not as OpenHands does;
 * - `too-old`: an OpenHands without the conversations API of 1.0 and later;
 * - `failed`: OpenHands answered with an error (5xx, rate limit).
 */
export type ServerProbeOutcome =
  | 'ok'
  | 'needs-key'
  | 'key-rejected'
  | 'unreachable'
  | 'untrusted-certificate'
  | 'not-openhands'
  | 'too-old'
  | 'failed';

export interface ServerProbe {
  outcome: ServerProbeOutcome;
  /** The version the server states in its OpenAPI document, when it states one. */
  version: string | undefined;
  /** Whether a key was sent. */
  keyUsed: boolean;
  /** What went wrong, for a failed test (its message holds no secret). */
  error: ApiError | undefined;
}

/**
 * Three reads, none of which changes anything: the OpenAPI document (title and version), one
 * sandbox (the V1 API is there), and the settings (OpenHands OSS checks its session key on the
 * settings routes only; V1 answers anyone, while the hosted service checks both).
 */
export async function probeServer(
  client: OpenHandsClient,
  options: { keyUsed: boolean; signal?: AbortSignal },
): Promise<ServerProbe> {
  const { keyUsed, signal } = options;
  const result = (outcome: ServerProbeOutcome, version?: string, error?: ApiError): ServerProbe => ({
    outcome,
    version,
    keyUsed,
    error,
  });

  let version: string | undefined;
  let saysOpenHands = false;
  try {
    const info = await client.getServerInfo({ signal });
    version = info.info?.version?.trim().slice(0, 40) || undefined;
    saysOpenHands = /openhands/i.test(info.info?.title ?? '');
  } catch (error) {
    const failure = asApiError(error);
    // a refused connection is a verdict; a slow document is not (FastAPI builds it on the first
    // request, seconds on a large app), nor a 404 or a page (the hosted service may hide it)
    const below = failure.kind === 'timeout' ? undefined : belowHttp(failure);
    if (below) return result(below, undefined, failure);
  }

  try {
    await client.searchSandboxes({ limit: 1 }, { signal });
  } catch (error) {
    const failure = asApiError(error);
    const verdict = belowHttp(failure) ?? keyVerdict(failure, keyUsed);
    if (verdict) return result(verdict, version, failure);
    if (failure.kind === 'not_found')
      return result(saysOpenHands ? 'too-old' : 'not-openhands', version, failure);
    if (failure.kind === 'invalid_response' || failure.kind === 'validation')
      return result('not-openhands', version, failure);
    return result('failed', version, failure);
  }

  try {
    await client.getSettings({ signal });
  } catch (error) {
    const failure = asApiError(error);
    const verdict = belowHttp(failure) ?? keyVerdict(failure, keyUsed);
    if (verdict) return result(verdict, version, failure);
    // no settings saved yet (404) or an older settings shape: the key was not refused
  }
  return result('ok', version);
}

function asApiError(error: unknown): ApiError {
  return isApiError(error)
    ? error
    : new ApiError({ kind: 'network', message: 'The connection test failed.', cause: error });
}

function belowHttp(error: ApiError): ServerProbeOutcome | undefined {
  if (error.kind === 'cancelled') throw error;
  if (isUntrustedCertificate(error)) return 'untrusted-certificate';
  if (error.kind === 'network' || error.kind === 'timeout') return 'unreachable';
  return undefined;
}

function keyVerdict(error: ApiError, keyUsed: boolean): ServerProbeOutcome | undefined {
  if (error.kind !== 'unauthorized') return undefined;
  return keyUsed ? 'key-rejected' : 'needs-key';
}
