/**
 * The form's secrets (provider tokens, MCP api keys, stdio env values) as one JSON value in
 * SecretStorage per server URL. Nothing here is ever logged or sent to the webview.
 */
import type * as vscode from 'vscode';
import { emptyLocalSecrets, LocalSecretsSchema, type LocalSecrets } from './localState';
import { serverKey } from './serverKey';

export const SECRET_KEY_PREFIX = 'openhands.mcpForm.secrets:';

export type SecretStore = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>;

export class SecretVault {
  constructor(private readonly secrets: SecretStore) {}

  async get(serverUrl: string): Promise<LocalSecrets> {
    const raw = await this.secrets.get(serverKey(SECRET_KEY_PREFIX, serverUrl));
    if (raw === undefined) return emptyLocalSecrets();
    try {
      const parsed = LocalSecretsSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : emptyLocalSecrets();
    } catch {
      return emptyLocalSecrets();
    }
  }

  async set(serverUrl: string, secrets: LocalSecrets): Promise<void> {
    const key = serverKey(SECRET_KEY_PREFIX, serverUrl);
    const empty =
      Object.keys(secrets.providers).length +
        Object.keys(secrets.apiKeys).length +
        Object.keys(secrets.env).length ===
      0;
    if (empty) await this.secrets.delete(key);
    else await this.secrets.store(key, JSON.stringify(secrets));
  }

  async clear(serverUrl: string): Promise<void> {
    await this.secrets.delete(serverKey(SECRET_KEY_PREFIX, serverUrl));
  }
}
