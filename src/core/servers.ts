/**
 * The servers the user connected to, remembered in the user setting `openhands.servers` (no
 * secrets: each key stays in Secret Storage under its server's URL). `openhands.serverUrl` says which
 * one the views show.
 */
import * as vscode from 'vscode';
import { checkServerUrl, type AuthHeader } from '../api';

export interface RememberedServer {
  /** What the user calls it: "OpenHands Cloud", "Work", or the host by default. */
  name: string;
  /** Normalised (`checkServerUrl`): no trailing slash. */
  url: string;
  authHeader: AuthHeader;
  /** PEM file of extra CAs for this server; unset uses `openhands.tls.caFile`. */
  caFile?: string;
  /** Accept any certificate from this server; unset uses `openhands.tls.insecure`. */
  insecure?: boolean;
}

export const SERVERS_SETTING = 'servers';
export const OPENHANDS_CLOUD_URL = 'https://app.all-hands.dev';
export const AUTH_HEADERS: readonly AuthHeader[] = ['X-Session-API-Key', 'Authorization', 'X-Access-Token'];

/** `https://Host/` and `https://host` are one server. */
export function sameServerUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

/** A name for a server the user did not name: Cloud by its name, anything else by its host. */
export function defaultServerName(url: string): string {
  if (sameServerUrl(url, OPENHANDS_CLOUD_URL)) return 'OpenHands Cloud';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The remembered servers as the setting holds them, entries that make no sense dropped. */
export function parseServers(value: unknown): RememberedServer[] {
  if (!Array.isArray(value)) return [];
  const servers: RememberedServer[] = [];
  for (const entry of value as unknown[]) {
    if (entry === null || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    const check = typeof record.url === 'string' ? checkServerUrl(record.url) : undefined;
    if (!check?.ok || servers.some((server) => sameServerUrl(server.url, check.url))) continue;
    const name = typeof record.name === 'string' && record.name.trim() ? record.name.trim() : '';
    servers.push({
      name: (name || defaultServerName(check.url)).slice(0, 80),
      url: check.url,
      authHeader: AUTH_HEADERS.find((header) => header === record.authHeader) ?? 'X-Session-API-Key',
      ...(typeof record.caFile === 'string' && record.caFile.trim() ? { caFile: record.caFile.trim() } : {}),
      ...(typeof record.insecure === 'boolean' ? { insecure: record.insecure } : {}),
    });
  }
  return servers;
}

export function readServers(): RememberedServer[] {
  return parseServers(vscode.workspace.getConfiguration('openhands').get<unknown>(SERVERS_SETTING, []));
}

/** Adds the server, or replaces the one with its URL (keeping its place in the list). */
export async function rememberServer(server: RememberedServer): Promise<void> {
  const servers = readServers();
  const index = servers.findIndex((known) => sameServerUrl(known.url, server.url));
  if (index >= 0) servers[index] = server;
  else servers.push(server);
  await writeServers(servers);
}

export async function forgetServerEntry(url: string): Promise<void> {
  await writeServers(readServers().filter((server) => !sameServerUrl(server.url, url)));
}

function writeServers(servers: readonly RememberedServer[]): Thenable<void> {
  return vscode.workspace
    .getConfiguration('openhands')
    .update(SERVERS_SETTING, servers.length ? servers : undefined, vscode.ConfigurationTarget.Global);
}
