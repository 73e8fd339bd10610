/** The form's non-secret state (URLs, names, commands, args, env names, hosts, pending changes) in globalState per server URL. */
import type * as vscode from 'vscode';
import { emptyLocalConfig, LocalConfigSchema, type LocalConfig } from './localState';
import { serverKey } from './serverKey';

export const CONFIG_KEY_PREFIX = 'openhands.mcpForm.config:';

export type ConfigMemento = Pick<vscode.Memento, 'get' | 'update'>;

export class ConfigStore {
  constructor(private readonly memento: ConfigMemento) {}

  get(serverUrl: string): LocalConfig {
    const parsed = LocalConfigSchema.safeParse(this.memento.get(serverKey(CONFIG_KEY_PREFIX, serverUrl)));
    return parsed.success ? parsed.data : emptyLocalConfig();
  }

  async set(serverUrl: string, config: LocalConfig): Promise<void> {
    await this.memento.update(serverKey(CONFIG_KEY_PREFIX, serverUrl), config);
  }

  /** `Memento.update` with undefined removes the key. */
  async clear(serverUrl: string): Promise<void> {
    await this.memento.update(serverKey(CONFIG_KEY_PREFIX, serverUrl), undefined);
  }
}
