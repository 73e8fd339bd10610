/**
 * What the server holds, as the form works with it: each MCP entry with its id and its whole values
 * (credentials in URLs and args included), the secrets known for it (from the server's reply, or from
 * Secret Storage when the server hides them), and the secret-free model the webview renders.
 */
import type { Settings } from '../../../api';
import { maskCredentials } from '../shared/credentials';
import type { FormModel, SecretStatus } from '../shared/formSchema';
import { shownProviders } from '../shared/providers';
import { urlIdentity } from '../shared/validation';
import { entryId } from './entryIds';
import type { FormSecrets } from './formStorage';
import { serverMcpOf, type HiddenKeyMarker } from './serverMcpMap';

export interface HeldRemote {
  id: string;
  url: string;
  /** The key to send back; undefined when there is none, or only the server has it. */
  apiKey: string | undefined;
  /** The server says it has a key (1.11 shows only that). */
  keyOnServer: boolean;
  timeout: number | null;
}

export interface HeldEnv {
  id: string;
  name: string;
  /** undefined: no value known. */
  value: string | undefined;
}

export interface HeldStdio {
  id: string;
  name: string;
  command: string;
  args: string[];
  env: HeldEnv[];
  /** 1.11, set up outside VS Code: the server hides its env and none was saved from here. */
  envHidden: boolean;
}

export interface ServerForm {
  /** `provider_tokens_set` as read: provider → host (null for the default host). */
  providers: Record<string, string | null>;
  sse: HeldRemote[];
  shttp: HeldRemote[];
  stdio: HeldStdio[];
  /** 1.11+: settings under `/api/v1`; MCP servers in `agent_settings`, read back without secrets. */
  isV1: boolean;
  /** 1.11+: the names the server gave its remote servers, by `urlIdentity`, so a write keeps them. */
  remoteNames: Map<string, string>;
}

export function readServerForm(settings: Settings, stored: FormSecrets): ServerForm {
  const read = serverMcpOf(settings);
  const remote = (kind: 'sse' | 'shttp') => {
    const list = (kind === 'sse' ? read.config?.sse_servers : read.config?.shttp_servers) ?? [];
    return lastByKey(list, (server) => urlIdentity(server.url)).map((server): HeldRemote => {
      const id = entryId.remote(kind, server.url);
      const keyOnServer = Boolean(server.api_key || (server as HiddenKeyMarker).api_key_set);
      return {
        id,
        url: server.url.trim(),
        apiKey: server.api_key || (keyOnServer ? stored.apiKeys[id] : undefined),
        keyOnServer,
        timeout: 'timeout' in server && typeof server.timeout === 'number' ? server.timeout : null,
      };
    });
  };
  const stdio = lastByKey(read.config?.stdio_servers ?? [], (server) => server.name).map(
    (server): HeldStdio => {
      const id = entryId.stdio(server.name, server.command);
      // 1.11 drops env on read: the variables saved from here are still what it holds
      const kept = stored.env[id];
      const env = read.secretsHidden ? (kept ?? {}) : (server.env ?? {});
      return {
        id,
        name: server.name,
        command: server.command,
        args: server.args ?? [],
        envHidden: read.secretsHidden && kept === undefined,
        env: Object.entries(env).map(([name, value]) => ({
          id: entryId.env(server.name, name),
          name,
          // An empty value is "not set", as when the user clears one.
          value: value === '' ? undefined : value,
        })),
      };
    },
  );
  return {
    providers: settings.provider_tokens_set ?? {},
    sse: remote('sse'),
    shttp: remote('shttp'),
    stdio,
    isV1: read.secretsHidden,
    remoteNames: read.remoteNames,
  };
}

/** The secret-free model: credentials in URLs and args masked, secrets only as set/unset. */
export function formModel(serverUrl: string, form: ServerForm): FormModel {
  const status = (present: boolean): SecretStatus => (present ? 'set' : 'unset');
  return {
    serverUrl,
    providers: shownProviders(Object.keys(form.providers)).map((provider) => ({
      provider,
      host: form.providers[provider] ?? null,
      token: status(Object.hasOwn(form.providers, provider)),
    })),
    mcp: {
      sse: form.sse.map((e) => ({ id: e.id, url: maskCredentials(e.url), apiKey: status(e.keyOnServer) })),
      shttp: form.shttp.map((e) => ({
        id: e.id,
        url: maskCredentials(e.url),
        apiKey: status(e.keyOnServer),
        timeout: e.timeout,
      })),
      stdio: form.stdio.map((e) => ({
        id: e.id,
        name: e.name,
        command: e.command,
        args: e.args.map(maskCredentials),
        env: e.env.map((row) => ({ id: row.id, name: row.name, value: status(row.value !== undefined) })),
        envHidden: e.envHidden,
      })),
    },
  };
}

/**
 * The server merges its config.toml servers in front of the stored ones on every read, so after a
 * save they can appear twice; the later (stored) occurrence wins.
 */
function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const last = new Map<string, number>();
  items.forEach((item, index) => last.set(key(item), index));
  return items.filter((item, index) => last.get(key(item)) === index);
}
