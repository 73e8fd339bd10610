import { OpenHandsClient, type OpenHandsClientOptions, type RequestLogEntry } from '../../../src/api';
import { startTestServer, type TestServer, type TestServerOptions } from '../../server';

/** Timings small enough for unit tests, large enough to observe each transition. */
export const FAST_TIMINGS = {
  sandboxStartMs: 40,
  sandboxPauseMs: 30,
  sandboxResumeMs: 30,
  startTaskStepMs: 15,
};

export interface ServerFixture {
  server: TestServer;
  client: OpenHandsClient;
  logs: RequestLogEntry[];
  newClient(options?: Partial<OpenHandsClientOptions>): OpenHandsClient;
}

/**
 * Starts a test server for the enclosing `describe` and resets it before each test, so every test
 * sees the same seeded state over real HTTP.
 */
export function useTestServer(options: TestServerOptions = {}): ServerFixture {
  const fixture = { logs: [] as RequestLogEntry[] } as ServerFixture;
  before(async () => {
    fixture.server = await startTestServer({ timings: FAST_TIMINGS, ...options });
    fixture.newClient = (overrides = {}) =>
      new OpenHandsClient({
        baseUrl: fixture.server.url,
        timeoutMs: 2000,
        onLog: (entry) => fixture.logs.push(entry),
        ...overrides,
      });
  });
  beforeEach(() => {
    fixture.server.reset();
    fixture.logs.length = 0;
    fixture.client = fixture.newClient();
  });
  after(async () => {
    await fixture.server?.close();
  });
  return fixture;
}
