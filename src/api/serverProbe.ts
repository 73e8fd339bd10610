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
  /** What the OpenAPI document said: OpenHands, another service, or nothing readable (`undefined`). */
  saysOpenHands: boolean | undefined;
  /** Whether a key was sent. */
  keyUsed: boolean;
  /** What went wrong, for a failed test (its message holds no secret). */
  error: ApiError | undefined;
}

/**
 * Three reads, none of which changes anything: the OpenAPI document (title and version), one
 * sandbox (the V1 API is there; OSS 1.11 and the hosted service check the key on it), and the
 * settings (servers before 1.11 checked their session key on the settings routes only). A service
 * whose document names another title is not OpenHands, whatever its `/api` answers: no key is
 * asked for it.
 */
export async function probeServer(
  client: OpenHandsClient,
  options: { keyUsed: boolean; signal?: AbortSignal },
): Promise<ServerProbe> {
  const { keyUsed, signal } = options;
  let saysOpenHands: boolean | undefined;
  const result = (outcome: ServerProbeOutcome, version?: string, error?: ApiError): ServerProbe => ({
    outcome,
    version,
    saysOpenHands,
    keyUsed,
    error,
  });

  let version: string | undefined;
  try {
    const info = await client.getServerInfo({ signal });
    const title = info.info?.title;
    if (typeof title === 'string') saysOpenHands = /openhands/i.test(title);
    if (saysOpenHands === false) return result('not-openhands');
    version = info.info?.version?.trim().slice(0, 40) || undefined;
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
    // OpenHands serves its web app for unknown paths (a 200 page): an OpenHands without this API
    // answers with a page or a 404
    if (failure.kind === 'not_found' || failure.kind === 'invalid_response' || failure.kind === 'validation')
      return result(saysOpenHands ? 'too-old' : 'not-openhands', version, failure);
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
