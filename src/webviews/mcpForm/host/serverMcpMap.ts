/**
 * OpenHands 1.11 keeps the MCP servers in `agent_settings.mcp_config`, a map from a server's name to
 * its config, and leaves their secrets out when read (`auth` keeps only its strategy, `env` is
 * dropped). The form works in the older three lists (`sse_servers`, `shttp_servers`, `stdio_servers`);
 * this converts a settings reply into them, and the lists into the map to write.
 */
import type {
  McpConfig,
  McpServerEntry,
  Settings,
  StoredMcpConfig,
  StoredMcpServerEntry,
} from '../../../api';
import { urlIdentity } from '../shared/validation';

export interface ServerMcp {
  /** The servers as the three lists; `null` when the server reported none. */
  config: StoredMcpConfig | null;
  /** 1.11+: an api key or env value that is not in the reply is unknown, not unset. */
  secretsHidden: boolean;
  /** Remote servers' names on the server, by `urlIdentity`, so a write keeps them. */
  remoteNames: Map<string, string>;
}

/** A remote server read from 1.11: its api key is hidden, but whether it has one is known. */
export interface HiddenKeyMarker {
  api_key_set?: boolean;
}

export function serverMcpOf(settings: Settings): ServerMcp {
  const map = settings.agent_settings?.mcp_config;
  if (settings.agent_settings === undefined) {
    return { config: settings.mcp_config, secretsHidden: false, remoteNames: new Map() };
  }
  const config: StoredMcpConfig = { sse_servers: [], shttp_servers: [], stdio_servers: [] };
  const remoteNames = new Map<string, string>();
  for (const [name, entry] of Object.entries(map ?? {})) {
    if (entry.command !== undefined) {
      config.stdio_servers.push({ name, command: entry.command, args: entry.args, env: entry.env ?? {} });
    } else if (entry.url !== undefined) {
      remoteNames.set(urlIdentity(entry.url), name);
      const remote = { url: entry.url, api_key: null, api_key_set: hasAuth(entry) };
      if (entry.transport === 'sse') config.sse_servers.push(remote);
      else config.shttp_servers.push({ ...remote, timeout: entry.timeout });
    }
  }
  return { config, secretsHidden: true, remoteNames };
}

/**
 * The map to write for these lists. Remote servers keep the name the server gave them; new ones are
 * named after their host. `api_key` is sent as such: the server turns it into its `auth`.
 */
export function mcpServerMap(
  config: McpConfig,
  remoteNames: ReadonlyMap<string, string>,
): Record<string, McpServerEntry> {
  const map: Record<string, McpServerEntry> = {};
  const taken = new Set<string>();
  const claim = (wanted: string) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
    taken.add(name);
    return name;
  };
  for (const server of config.stdio_servers ?? []) {
    map[claim(server.name)] = { command: server.command, args: server.args ?? [], env: server.env ?? {} };
  }
  const remote = (url: string, entry: McpServerEntry) => {
    map[claim(remoteNames.get(urlIdentity(url)) ?? hostName(url))] = entry;
  };
  for (const server of config.sse_servers ?? []) {
    remote(server.url, {
      url: server.url,
      transport: 'sse',
      ...(server.api_key ? { api_key: server.api_key } : {}),
    });
  }
  for (const server of config.shttp_servers ?? []) {
    remote(server.url, {
      url: server.url,
      transport: 'streamable-http',
      ...(server.timeout ? { timeout: server.timeout } : {}),
      ...(server.api_key ? { api_key: server.api_key } : {}),
    });
  }
  return map;
}

function hasAuth(entry: StoredMcpServerEntry): boolean {
  return entry.auth !== undefined && entry.auth !== null;
}

/** `mcp.example.com` → `mcp-example-com`; what is not a URL → `mcp`. */
function hostName(url: string): string {
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@]+@)?([^/?#:]+)/i.exec(url.trim())?.[2];
  return host ? host.toLowerCase().replace(/[^a-z0-9]+/g, '-') : 'mcp';
}
