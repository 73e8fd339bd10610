import * as vscode from 'vscode';

/**
 * The API key lives only in SecretStorage, one per server URL, so switching servers never sends
 * one server's key to another.
 */
export class ApiKeyStore {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the server URL whose key changed (also from another window). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      const url = serverOfKey(event.key);
      if (url) this.changed.fire(url);
    });
  }

  get(serverUrl: string): Thenable<string | undefined> {
    return this.secrets.get(keyFor(serverUrl));
  }

  async set(serverUrl: string, apiKey: string): Promise<void> {
    await this.secrets.store(keyFor(serverUrl), apiKey);
  }

  async clear(serverUrl: string): Promise<void> {
    await this.secrets.delete(keyFor(serverUrl));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

const PREFIX = 'openhands.apiKey:';

export function keyFor(serverUrl: string): string {
  return PREFIX + serverUrl.replace(/\/+$/, '').toLowerCase();
}

function serverOfKey(key: string): string | undefined {
  return key.startsWith(PREFIX) ? key.slice(PREFIX.length) : undefined;
}
