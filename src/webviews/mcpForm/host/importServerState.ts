/**
 * Refreshes the local state from what the server holds, for every part without a pending local
 * change (a pending change wins until the server has accepted it). MCP secrets the server returns
 * go to Secret Storage, so a later save can send them back instead of wiping them.
 */
import type { StoredMcpConfig } from '../../../api';
import { credentialKey, maskCredentials } from '../shared/credentials';
import type { HiddenKeyMarker } from './serverMcpMap';
import {
  storedField,
  type LocalConfig,
  type LocalMcp,
  type LocalSecrets,
  type LocalStdio,
} from './localState';
import { urlIdentity } from '../shared/validation';

export interface ServerState {
  providerTokensSet: Record<string, string | null>;
  mcpConfig: StoredMcpConfig | null;
  /** OpenHands 1.11+ reads back no MCP secrets: the ones held locally stay where the server has some. */
  mcpSecretsHidden?: boolean;
}

export function importServerState(
  config: LocalConfig,
  secrets: LocalSecrets,
  server: ServerState,
  newId: () => string,
): { config: LocalConfig; secrets: LocalSecrets } {
  const providers = { ...config.providers };
  const tokens = { ...secrets.providers };
  const names = new Set([...Object.keys(providers), ...Object.keys(server.providerTokensSet)]);
  for (const name of names) {
    if (config.pending.providers[name] !== undefined) continue;
    if (Object.hasOwn(server.providerTokensSet, name)) {
      providers[name] = { host: server.providerTokensSet[name] ?? null };
    } else {
      delete providers[name];
      delete tokens[name];
    }
  }
  const next = { config: { ...config, providers }, secrets: { ...secrets, providers: tokens } };
  if (config.pending.mcp) return next;
  const mcp = importMcp(config.mcp, server.mcpConfig, newId, server.mcpSecretsHidden ? secrets : undefined);
  const { credentialFields: _previous, ...rest } = next.secrets;
  return {
    config: { ...next.config, mcp: mcp.mcp },
    secrets: {
      ...rest,
      apiKeys: mcp.apiKeys,
      env: mcp.env,
      ...(Object.keys(mcp.credentialFields).length > 0 ? { credentialFields: mcp.credentialFields } : {}),
    },
  };
}

/**
 * The server's lists become the local ones. Ids are reused by URL (SSE/HTTP) or name (stdio) so
 * a webview holding an older model still refers to the right entries. The server merges its
 * config.toml servers in front of the stored ones on every read, so after a save they appear
 * twice; the later (stored) occurrence wins.
 */
function importMcp(
  local: LocalMcp,
  read: StoredMcpConfig | null,
  newId: () => string,
  /** Set when the server hides its secrets: what to keep for the entries it still has. */
  kept?: LocalSecrets,
): {
  mcp: LocalMcp;
  apiKeys: Record<string, string>;
  env: Record<string, Record<string, string>>;
  credentialFields: Record<string, string>;
} {
  const apiKeys: Record<string, string> = {};
  const credentialFields: Record<string, string> = {};
  const env: Record<string, Record<string, string>> = {};
  const mcp: LocalMcp = { sse: [], shttp: [], stdio: [] };
  const idFor = (existing: { id: string } | undefined, taken: Set<string>) => {
    const id = existing && !taken.has(existing.id) ? existing.id : newId();
    taken.add(id);
    return id;
  };
  const taken = new Set<string>();
  /** The server's api key, or (secrets hidden) the one held for this entry if the server has one. */
  const keepSecrets = (id: string, server: { api_key?: string | null } & HiddenKeyMarker) => {
    const key = server.api_key || (kept && server.api_key_set ? kept.apiKeys[id] : undefined);
    if (key) apiKeys[id] = key;
    const whole = kept?.credentialFields?.[credentialKey.url(id)];
    if (whole !== undefined && credentialFields[credentialKey.url(id)] === undefined)
      credentialFields[credentialKey.url(id)] = whole;
  };

  for (const server of lastByKey(read?.sse_servers ?? [], (s) => urlIdentity(s.url))) {
    const id = idFor(
      local.sse.find((e) => urlIdentity(e.url) === urlIdentity(maskCredentials(server.url))),
      taken,
    );
    mcp.sse.push({ id, url: storedField(server.url.trim(), credentialKey.url(id), credentialFields) });
    keepSecrets(id, server);
  }
  for (const server of lastByKey(read?.shttp_servers ?? [], (s) => urlIdentity(s.url))) {
    const id = idFor(
      local.shttp.find((e) => urlIdentity(e.url) === urlIdentity(maskCredentials(server.url))),
      taken,
    );
    mcp.shttp.push({
      id,
      url: storedField(server.url.trim(), credentialKey.url(id), credentialFields),
      timeout: server.timeout ?? null,
    });
    keepSecrets(id, server);
  }
  for (const server of lastByKey(read?.stdio_servers ?? [], (s) => s.name)) {
    const previous: LocalStdio | undefined = local.stdio.find((e) => e.name === server.name);
    const id = idFor(previous, taken);
    const values: Record<string, string> = {};
    let rows = Object.entries(server.env ?? {}).map(([name, value]) => {
      const rowId = previous?.env.find((row) => row.name === name)?.id ?? newId();
      // An empty value is "not set", as when the user clears one.
      if (value !== '') values[rowId] = value;
      return { id: rowId, name };
    });
    if (kept && previous && rows.length === 0) {
      // the server dropped the env on read: the rows and values held locally are still what it has
      rows = previous.env;
      Object.assign(values, kept.env[previous.id]);
    }
    mcp.stdio.push({
      id,
      name: server.name,
      command: server.command,
      args: (server.args ?? []).map((arg, index) =>
        storedField(arg, credentialKey.arg(id, index), credentialFields),
      ),
      env: rows,
    });
    if (Object.keys(values).length > 0) env[id] = values;
  }
  return { mcp, apiKeys, env, credentialFields };
}

function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const last = new Map<string, number>();
  items.forEach((item, index) => last.set(key(item), index));
  return items.filter((item, index) => last.get(key(item)) === index);
}
