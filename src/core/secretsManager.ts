/**
 * Everything the extension keeps in VS Code Secret Storage, and nowhere else: the API key, the LLM key
 * of the Model page and the MCP form's secrets (provider tokens, MCP api keys, env values, credentials inside URLs and arguments),
 * each in one slot per server URL, so one server's secrets are never another's.
 */
import * as vscode from 'vscode';

type SecretStorageLike = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete' | 'onDidChange'>;

/** One secret per server URL under a fixed prefix. */
export interface ServerSecrets {
  get(serverUrl: string): Thenable<string | undefined>;
  set(serverUrl: string, value: string): Promise<void>;
  clear(serverUrl: string): Promise<void>;
}

export interface ApiKeys extends ServerSecrets {
  /** Fires with the server URL whose key changed (also from another window). */
  readonly onDidChange: vscode.Event<string>;
}

/** `https://Host/` and `https://host` are one server. The prefixes are stored data: never rename them. */
export function serverSlotKey(prefix: string, serverUrl: string): string {
  return prefix + serverUrl.replace(/\/+$/, '').toLowerCase();
}

const API_KEY_PREFIX = 'openhands.apiKey:';
const MCP_FORM_PREFIX = 'openhands.mcpForm.secrets:';
const LLM_KEY_PREFIX = 'openhands.llmKey:';

export class SecretsManager implements vscode.Disposable {
  readonly apiKeys: ApiKeys;
  /** The MCP form's secrets, as one JSON document per server. */
  readonly mcpForm: ServerSecrets;
  /** The agent's LLM key the Model page sent to each server (the server never sends it back). */
  readonly llmKeys: ServerSecrets;
  private readonly apiKeyChanged = new vscode.EventEmitter<string>();
  private readonly subscription: vscode.Disposable;

  constructor(secrets: SecretStorageLike) {
    const slot = (prefix: string): ServerSecrets => ({
      get: (serverUrl) => secrets.get(serverSlotKey(prefix, serverUrl)),
      set: async (serverUrl, value) => secrets.store(serverSlotKey(prefix, serverUrl), value),
      clear: async (serverUrl) => secrets.delete(serverSlotKey(prefix, serverUrl)),
    });
    this.apiKeys = { ...slot(API_KEY_PREFIX), onDidChange: this.apiKeyChanged.event };
    this.mcpForm = slot(MCP_FORM_PREFIX);
    this.llmKeys = slot(LLM_KEY_PREFIX);
    this.subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith(API_KEY_PREFIX))
        this.apiKeyChanged.fire(event.key.slice(API_KEY_PREFIX.length));
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.apiKeyChanged.dispose();
  }
}
