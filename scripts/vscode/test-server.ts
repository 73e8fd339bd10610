// The OpenHands-compatible test server, started in-process with the seed the demo and the UI tests use.
import { startTestServer, type TestServer, type TimingOptions } from '../../test/server';

export type { TestServer };

/** Same data as `npm run server -- --seed 25`: 25 conversations, ceil(25/4) sandboxes, PRNG seed 1. */
export const DEMO_SEED = { sandboxes: 7, conversations: 25, seed: 1 };

/** Lifecycle delays short enough for a quick suite, long enough to see "Pausing…" in the UI. */
export const FAST_TIMINGS: TimingOptions = {
  sandboxStartMs: 300,
  sandboxPauseMs: 1500,
  sandboxResumeMs: 1500,
  startTaskStepMs: 100,
  rateLimitDelayMs: 100,
};

export function startSeededTestServer(options: { port?: number; fast?: boolean } = {}): Promise<TestServer> {
  return startTestServer({
    port: options.port ?? 0,
    host: '127.0.0.1',
    seed: DEMO_SEED,
    ...(options.fast ? { timings: FAST_TIMINGS } : {}),
  });
}

/** On `preferredPort` (the documented 3000) when free, else on any free port rather than failing. */
export async function startSeededTestServerPreferring(preferredPort: number): Promise<TestServer> {
  try {
    return await startSeededTestServer({ port: preferredPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.log(`[demo] port ${preferredPort} is busy; using a free port for the test server`);
    return startSeededTestServer({ port: 0 });
  }
}
