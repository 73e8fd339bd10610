/** Where the form's local state lives, per server URL: secrets and the rest, stored apart. */
import type { LocalConfig, LocalSecrets } from './localState';

export interface LocalState {
  config: LocalConfig;
  secrets: LocalSecrets;
}

export interface FormStore {
  load(serverUrl: string): Promise<LocalState>;
  save(serverUrl: string, state: LocalState): Promise<void>;
}
