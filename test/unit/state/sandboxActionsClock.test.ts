// The waits of sandbox actions in time, on a clock of the test's own (`ActionClock`: each sleep moves it
// on at once), against the test server: a fresh container's brief ERROR is waited out, one that stays
// in ERROR past the grace fails with the sandbox's own words, and a sandbox that never settles is
// given up after three minutes with a warning that it may still finish.
import assert from 'node:assert/strict';
import type { SandboxInfo } from '../../../src/api';
import { SandboxActions, type ActionClock } from '../../../src/state/sandboxActions';
import { useExtensionState } from './extensionState';

/** Starts at 0 and sleeps no real time; each sleep moves it on by `step` (default: the time asked). */
class TestClock implements ActionClock {
  time = 0;

  constructor(private readonly step?: number) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.time += this.step ?? ms;
    return Promise.resolve();
  }
}

describe('SandboxActions in time', function () {
  this.timeout(20_000);
  // the default interval: each wait between polls is 1 s
  const t = useExtensionState({
    seed: { sandboxes: 4, conversations: 4, seed: 5 },
    settings: { 'openhands.refresh.activeIntervalSeconds': 2 },
  });
  let clock: TestClock;
  let actions: SandboxActions;
  let paused: SandboxInfo;

  beforeEach(async () => {
    clock = new TestClock();
    actions = new SandboxActions(t.store, t.connection, t.log, clock);
    await t.store.refresh();
    const found = t.store.sandboxes.find((sandbox) => sandbox.status === 'PAUSED');
    assert.ok(found, 'the seed has a paused sandbox');
    paused = found;
  });

  /** The batch get reports the sandbox in ERROR, `times` times (default: always). */
  function reportError(times?: number): void {
    t.server.faults.add({
      kind: 'status',
      status: 200,
      body: [{ ...paused, status: 'ERROR', status_detail: 'health check failed' }],
      match: { method: 'GET', path: '/api/v1/sandboxes' },
      ...(times === undefined ? {} : { times }),
    });
  }

  it('waits out a brief ERROR while the sandbox comes up', async () => {
    reportError(3);
    assert.deepEqual(await actions.resume(paused), { ok: true });
    assert.equal(t.store.findSandbox(paused.id)?.status, 'RUNNING');
    assert.ok(clock.now() <= 5000, `${clock.now()} ms`);
  });

  it('fails with the sandbox’s own words once it stays in ERROR past 30 s', async () => {
    reportError();
    const outcome = await actions.resume(paused);
    assert.deepEqual(outcome, {
      ok: false,
      level: 'error',
      canRetry: false,
      message: `Could not resume sandbox “${t.store.sandboxName(paused.id)}”: health check failed`,
    });
    assert.ok(clock.now() > 30_000 && clock.now() <= 32_000, `${clock.now()} ms`);
    assert.equal(t.store.transitions.size, 0);
  });

  it('gives up after three minutes with a warning that it may still finish', async () => {
    // 20 s a sleep, as a machine that sleeps between polls: the deadline is the clock's, not a count of polls
    actions = new SandboxActions(t.store, t.connection, t.log, (clock = new TestClock(20_000)));
    // the server takes the resume and never acts on it
    t.server.faults.add({
      kind: 'status',
      status: 200,
      body: { success: true },
      match: { method: 'POST', path: `/api/v1/sandboxes/${paused.id}/resume` },
    });
    const outcome = await actions.resume(paused);
    assert.deepEqual(outcome, {
      ok: false,
      level: 'warning',
      canRetry: false,
      message: `Sandbox “${t.store.sandboxName(paused.id)}” did not settle within 3 minutes; it may still finish on the server.`,
    });
    assert.equal(clock.now(), 200_000, 'the first poll after the deadline gives up');
    assert.equal(t.store.findSandbox(paused.id)?.status, 'PAUSED');
  });
});
