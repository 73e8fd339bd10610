/** `FormStore` on VS Code storage: secrets in SecretStorage, the rest in globalState. */
import type { ConfigStore } from './configStore';
import type { FormStore, LocalState } from './formStore';
import type { SecretVault } from './secretVault';

export class VscodeFormStore implements FormStore {
  constructor(
    private readonly vault: SecretVault,
    private readonly configs: ConfigStore,
  ) {}

  async load(serverUrl: string): Promise<LocalState> {
    return { config: this.configs.get(serverUrl), secrets: await this.vault.get(serverUrl) };
  }

  /** Secrets first: a config that refers to a secret not yet stored would show it as missing. */
  async save(serverUrl: string, state: LocalState): Promise<void> {
    await this.vault.set(serverUrl, state.secrets);
    await this.configs.set(serverUrl, state.config);
  }
}
