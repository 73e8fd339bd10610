// A connection test of a server the user is about to save: a client made for it alone, never the
// connection of the moment, so nothing the views show changes until the user saves.
import * as vscode from 'vscode';
import { OpenHandsClient, probeServer, type AuthHeader, type ServerProbe } from '../api';
import { defaultTls, expandHome } from '../core/config';
import type { Log } from '../core/log';
import { tlsOptions } from './connection';

export interface ServerCandidate {
  url: string;
  authHeader: AuthHeader;
  apiKey?: string;
  caFile?: string;
  insecure?: boolean;
}

export type ServerTestResult = ServerProbe | { outcome: 'tls-settings'; problem: string };

/** Auth headers a key is tried in when the user did not say: self-hosted first, then a bearer token. */
const HEADERS_TO_TRY: readonly AuthHeader[] = ['X-Session-API-Key', 'Authorization', 'X-Access-Token'];

export async function testServer(
  candidate: ServerCandidate,
  deps: { log: Log; timeoutMs: number; signal?: AbortSignal },
): Promise<ServerTestResult> {
  // what the server will get once saved: its own TLS choice, else the settings'
  const defaults = defaultTls();
  const tls = await tlsOptions({
    serverUrl: candidate.url,
    tlsCaFile: candidate.caFile ? expandHome(candidate.caFile.trim()) : defaults.caFile,
    tlsInsecure: candidate.insecure ?? defaults.insecure,
  });
  if (tls.problem) return { outcome: 'tls-settings', problem: tls.problem };
  const client = new OpenHandsClient({
    baseUrl: candidate.url,
    apiKey: candidate.apiKey,
    authHeader: candidate.authHeader,
    timeoutMs: deps.timeoutMs,
    onLog: (entry) => deps.log.request(entry),
    logBodies: () => false,
    tls: tls.options,
  });
  return probeServer(client, { keyUsed: Boolean(candidate.apiKey), signal: deps.signal });
}

/**
 * Tests a key in each header until the server takes it, so nobody has to know which header their
 * server reads. The first answer that is not "key refused" stands (a server gone, say).
 */
export async function testKey(
  candidate: ServerCandidate & { apiKey: string },
  deps: { log: Log; timeoutMs: number; signal?: AbortSignal },
): Promise<{ result: ServerTestResult; authHeader: AuthHeader }> {
  const order = [candidate.authHeader, ...HEADERS_TO_TRY.filter((h) => h !== candidate.authHeader)];
  let last: ServerTestResult | undefined;
  for (const authHeader of order) {
    last = await testServer({ ...candidate, authHeader }, deps);
    if (last.outcome !== 'key-rejected' && last.outcome !== 'needs-key') return { result: last, authHeader };
  }
  return {
    result: last ?? { outcome: 'tls-settings', problem: vscode.l10n.t('No test ran.') },
    authHeader: candidate.authHeader,
  };
}
