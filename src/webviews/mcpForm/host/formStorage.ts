/**
 * Where the form keeps what it knows of each server: its secrets in Secret Storage and the rest
 * (URLs, names, commands, args, env names, hosts, pending changes) in globalState, stored apart and
 * read back through zod, so a corrupt or older value degrades to "empty", never a crash.
 */
import type { MementoManager } from '../../../core/mementoManager';
import type { ServerSecrets } from '../../../core/secretsManager';
import {
  emptyLocalConfig,
  emptyLocalSecrets,
  LocalConfigSchema,
  LocalSecretsSchema,
  storedField,
  type LocalConfig,
  type LocalSecrets,
} from './localState';
import { credentialKey } from '../shared/credentials';

export interface LocalState {
  config: LocalConfig;
  secrets: LocalSecrets;
}

/** The form's storage, per server URL (tests use one in memory). */
export interface FormStorage {
  load(serverUrl: string): Promise<LocalState>;
  save(serverUrl: string, state: LocalState): Promise<void>;
}

export class VscodeFormStorage implements FormStorage {
  constructor(
    private readonly secrets: ServerSecrets,
    private readonly mementos: Pick<MementoManager, 'mcpForm' | 'setMcpForm'>,
  ) {}

  async load(serverUrl: string): Promise<LocalState> {
    const config = LocalConfigSchema.safeParse(this.mementos.mcpForm(serverUrl));
    const state = {
      config: config.success ? config.data : emptyLocalConfig(),
      secrets: parseSecrets(await this.secrets.get(serverUrl)),
    };
    // Earlier versions kept credentials inside URLs and args as plain data: move them now.
    const moved = withCredentialsMoved(state);
    if (moved !== state) await this.save(serverUrl, moved);
    return moved;
  }

  /** Secrets first: a config that refers to a secret not yet stored would show it as missing. */
  async save(serverUrl: string, state: LocalState): Promise<void> {
    if (isEmpty(state.secrets)) await this.secrets.clear(serverUrl);
    else await this.secrets.set(serverUrl, JSON.stringify(state.secrets));
    await this.mementos.setMcpForm(serverUrl, state.config);
  }

  async clear(serverUrl: string): Promise<void> {
    await this.secrets.clear(serverUrl);
    await this.mementos.setMcpForm(serverUrl, undefined);
  }
}

function parseSecrets(raw: string | undefined): LocalSecrets {
  if (raw === undefined) return emptyLocalSecrets();
  try {
    const parsed = LocalSecretsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : emptyLocalSecrets();
  } catch {
    return emptyLocalSecrets();
  }
}

function isEmpty(secrets: LocalSecrets): boolean {
  const { providers, apiKeys, env, credentialFields = {} } = secrets;
  return [providers, apiKeys, env, credentialFields].every((part) => Object.keys(part).length === 0);
}

/** The state with any credential still inside a stored URL or arg moved to Secret Storage; itself when there is none. */
function withCredentialsMoved(state: LocalState): LocalState {
  const found: Record<string, string> = {};
  const { mcp } = state.config;
  const next = {
    sse: mcp.sse.map((entry) => ({
      ...entry,
      url: storedField(entry.url, credentialKey.url(entry.id), found),
    })),
    shttp: mcp.shttp.map((entry) => ({
      ...entry,
      url: storedField(entry.url, credentialKey.url(entry.id), found),
    })),
    stdio: mcp.stdio.map((entry) => ({
      ...entry,
      args: entry.args.map((arg, index) => storedField(arg, credentialKey.arg(entry.id, index), found)),
    })),
  };
  if (Object.keys(found).length === 0) return state;
  return {
    config: { ...state.config, mcp: next },
    secrets: { ...state.secrets, credentialFields: { ...state.secrets.credentialFields, ...found } },
  };
}
