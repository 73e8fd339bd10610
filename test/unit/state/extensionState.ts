// The extension's state objects as `services.ts` wires them, in Node under the vscode stand-in,
// connected over real HTTP to the test server (`test/server`): settings point at it, the key (if any)
// is in Secret Storage, and each test starts from the server's seeded state and a fresh connection.
import { MementoManager } from '../../../src/core/mementoManager';
import { Log } from '../../../src/core/log';
import { PlainHttpConsent } from '../../../src/core/plainHttp';
import { SecretsManager } from '../../../src/core/secretsManager';
import { Connection } from '../../../src/state/connection';
import { SandboxActions } from '../../../src/state/sandboxActions';
import { SpecCatalog } from '../../../src/state/specCatalog';
import { OpenHandsStore } from '../../../src/state/store';
import type { TestServer, TestServerOptions } from '../../server';
import { useTestServer } from '../api/harness';
import { MemoryMemento, MemorySecretStorage, settings } from '../../shared/vscodeStandIn/standIn';

/** Sandboxes change status at once: an action's wait ends on its first poll. */
export const INSTANT_TIMINGS = {
  sandboxStartMs: 0,
  sandboxPauseMs: 0,
  sandboxResumeMs: 0,
  startTaskStepMs: 0,
};

export interface ExtensionState {
  server: TestServer;
  storage: MemorySecretStorage;
  memento: MemoryMemento;
  secrets: SecretsManager;
  log: Log;
  connection: Connection;
  store: OpenHandsStore;
  actions: SandboxActions;
  specs: SpecCatalog;
}

export interface ExtensionStateOptions extends TestServerOptions {
  /** Stored as the server's API key before the connection is built. */
  apiKey?: string;
  /** More settings (full keys), set before the connection reads them. */
  settings?: Record<string, unknown>;
}

/** For the enclosing `describe`: a connected extension state per test, disposed after it. */
export function useExtensionState(options: ExtensionStateOptions = {}): ExtensionState {
  const { apiKey, settings: more, ...serverOptions } = options;
  const fixture = useTestServer({ timings: INSTANT_TIMINGS, ...serverOptions });
  const state = {} as ExtensionState;
  beforeEach(async () => {
    state.server = fixture.server;
    settings.set({
      'openhands.serverUrl': fixture.server.url,
      // an action's wait polls at most this often: the shortest the setting allows
      'openhands.refresh.activeIntervalSeconds': 0.5,
      ...more,
    });
    state.storage = new MemorySecretStorage();
    state.memento = new MemoryMemento();
    state.secrets = new SecretsManager(state.storage);
    if (apiKey) await state.secrets.apiKeys.set(fixture.server.url, apiKey);
    state.log = new Log();
    const consent = new PlainHttpConsent(new MementoManager(state.memento));
    state.connection = new Connection(state.secrets.apiKeys, state.log, consent);
    state.store = new OpenHandsStore(state.connection);
    state.actions = new SandboxActions(state.store, state.connection, state.log);
    state.specs = new SpecCatalog(state.connection);
    await state.connection.rebuild();
  });
  afterEach(() => {
    state.specs.dispose();
    state.store.dispose();
    state.connection.dispose();
    state.secrets.dispose();
    state.log.dispose();
  });
  return state;
}
