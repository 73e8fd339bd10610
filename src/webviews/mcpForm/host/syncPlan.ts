/**
 * What to send so that nothing is lost. `POST /api/add-git-providers` replaces the server's whole
 * provider map: an omitted provider is deleted, an empty token keeps the stored one (and takes the
 * host sent, where `""` and `null` differ and a changed host re-validates the stored token). So
 * every provider the server reports is sent, with an empty token and its host exactly as reported,
 * unless the user changed or removed it.
 */
import type { McpConfig, ProviderToken, StoredMcpConfig } from '../../../api';
import { credentialKey } from '../shared/credentials';
import type { HiddenKeyMarker } from './serverMcpMap';
import type { LocalMcp, LocalSecrets, ProviderChange } from './localState';

/** The server's default for a streamable HTTP server without a timeout. */
export const DEFAULT_SHTTP_TIMEOUT = 60;

export interface ProviderTokensPlan {
  /** The `provider_tokens` body; `{}` removes every token. */
  request: Record<string, ProviderToken>;
  /** Providers with a pending new token that is no longer in Secret Storage (not sent). */
  missingTokens: string[];
}

/**
 * @param serverSet `provider_tokens_set` as just read (provider → host), unknown providers included.
 * @param pending local changes not yet accepted by the server.
 * @param tokens the tokens in Secret Storage.
 */
export function planProviderTokens(
  serverSet: Readonly<Record<string, string | null>>,
  pending: Readonly<Record<string, ProviderChange>>,
  tokens: Readonly<Record<string, string>>,
): ProviderTokensPlan {
  const request: Record<string, ProviderToken> = {};
  const missingTokens: string[] = [];
  const providers = new Set([...Object.keys(serverSet), ...Object.keys(pending)]);
  for (const provider of providers) {
    const change = pending[provider];
    const onServer = Object.hasOwn(serverSet, provider);
    if (change === undefined) {
      if (onServer) request[provider] = { token: '', host: serverSet[provider] ?? null };
    } else if (change.kind === 'token') {
      const token = tokens[provider];
      if (token) request[provider] = { token, host: change.host };
      else {
        missingTokens.push(provider);
        // Keep what the server has rather than dropping it because the new token went missing.
        if (onServer) request[provider] = { token: '', host: serverSet[provider] ?? null };
      }
    } else if (change.kind === 'host') {
      if (onServer) request[provider] = { token: '', host: change.host };
      else if (tokens[provider]) request[provider] = { token: tokens[provider], host: change.host };
      // Otherwise the server lost the token and none is stored locally: nothing to send.
    }
    // `remove`: omitted, which is how the server deletes a provider.
  }
  return { request, missingTokens };
}

/** The MCP config to send, secrets filled in from Secret Storage. */
export function buildMcpConfig(mcp: LocalMcp, secrets: LocalSecrets): McpConfig {
  /** A stored field with its credential (kept in Secret Storage) put back. */
  const whole = (stored: string, key: string) => secrets.credentialFields?.[key] ?? stored;
  return {
    sse_servers: mcp.sse.map((entry) => ({
      url: whole(entry.url, credentialKey.url(entry.id)),
      api_key: secrets.apiKeys[entry.id] ?? null,
    })),
    shttp_servers: mcp.shttp.map((entry) => ({
      url: whole(entry.url, credentialKey.url(entry.id)),
      api_key: secrets.apiKeys[entry.id] ?? null,
      // Omitted rather than null, so the server applies its default.
      ...(entry.timeout === null ? {} : { timeout: entry.timeout }),
    })),
    stdio_servers: mcp.stdio.map((entry) => ({
      name: entry.name,
      command: entry.command,
      args: entry.args.map((arg, index) => whole(arg, credentialKey.arg(entry.id, index))),
      env: Object.fromEntries(entry.env.map((row) => [row.name, secrets.env[entry.id]?.[row.id] ?? ''])),
    })),
  };
}

interface ComparableMcp {
  sse: string[];
  shttp: string[];
  stdio: string[];
}

/**
 * One string per server with defaults applied, so a read-back compares equal to what was sent. From a
 * server that hides secrets (1.11+), only whether a server has an api key can be compared, and no env.
 */
function comparable(config: McpConfig | StoredMcpConfig, secretsHidden: boolean): ComparableMcp {
  const key = (server: { api_key?: string | null } & HiddenKeyMarker) =>
    secretsHidden ? Boolean(server.api_key || server.api_key_set) : server.api_key || null;
  return {
    sse: (config.sse_servers ?? []).map((s) => JSON.stringify([s.url.trim(), key(s)])),
    shttp: (config.shttp_servers ?? []).map((s) =>
      JSON.stringify([s.url.trim(), key(s), s.timeout ?? DEFAULT_SHTTP_TIMEOUT]),
    ),
    stdio: (config.stdio_servers ?? []).map((s) =>
      JSON.stringify([
        s.name,
        s.command,
        s.args ?? [],
        secretsHidden ? [] : Object.entries(s.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      ]),
    ),
  };
}

/** Exactly what was sent: used right after add-git-providers, which a server may have ignored. */
export function mcpConfigEquals(read: StoredMcpConfig | McpConfig | null, desired: McpConfig): boolean {
  const a = comparable(read ?? {}, false);
  const b = comparable(desired, false);
  return (['sse', 'shttp', 'stdio'] as const).every(
    (key) => JSON.stringify(a[key]) === JSON.stringify(b[key]),
  );
}

/**
 * What was sent, possibly after servers from the server's config.toml (merged in front on read):
 * used after our own settings write, which is known to replace the stored lists.
 */
export function mcpConfigStored(
  read: StoredMcpConfig | McpConfig | null,
  desired: McpConfig,
  secretsHidden = false,
): boolean {
  const a = comparable(read ?? {}, secretsHidden);
  const b = comparable(desired, secretsHidden);
  return (['sse', 'shttp', 'stdio'] as const).every((key) => {
    const tail = a[key].slice(a[key].length - b[key].length);
    return b[key].length <= a[key].length && JSON.stringify(tail) === JSON.stringify(b[key]);
  });
}
