/**
 * Whether what the server reads back is what the form sent, with the server's defaults applied
 * (timeout 60, "" and null keys, env order).
 */
import type { McpConfig, StoredMcpConfig } from '../../../api';
import type { HiddenKeyMarker } from './serverMcpMap';

/** The server's default for a streamable HTTP server without a timeout. */
export const DEFAULT_SHTTP_TIMEOUT = 60;

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
