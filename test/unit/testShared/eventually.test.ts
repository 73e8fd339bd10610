// The tests' one polling loop: what it returns, when it gives up, and what its message says. The
// probes count their calls, so nothing here races the clock but the timeouts that must expire.
import assert from 'node:assert/strict';
import { eventually, eventuallyDefined } from '../../shared/eventually';

/** A probe that answers each of `answers` in turn, then the last one forever. */
function countingProbe<T>(answers: T[]): { probe: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    probe: async () => answers[Math.min(calls++, answers.length - 1)] as T,
    calls: () => calls,
  };
}

describe('test/shared/eventually', () => {
  it('returns the first value the predicate accepts, and probes no more', async () => {
    const { probe, calls } = countingProbe([1, 2, 3, 4]);
    assert.equal(await eventually(probe, (value) => value >= 3, { intervalMs: 1 }), 3);
    assert.equal(calls(), 3);
  });

  it('eventuallyDefined waits past undefined and returns the value', async () => {
    const { probe } = countingProbe<string | undefined>([undefined, undefined, 'ready']);
    assert.equal(await eventuallyDefined(probe, { intervalMs: 1 }), 'ready');
  });

  it('on timeout names what was awaited and the last value, cut when long', async () => {
    const { probe } = countingProbe([{ status: 'running', log: 'x'.repeat(10_000) }]);
    await assert.rejects(
      eventually(probe, (value) => value.status === 'idle', {
        description: 'the agent to go idle',
        timeoutMs: 30,
        intervalMs: 5,
      }),
      (error: Error) => {
        assert.match(
          error.message,
          /^timed out after 30 ms waiting for the agent to go idle; last value: \{"status":"running","log":"x+… \(10\d\d\d chars\)$/,
        );
        assert.ok(error.message.length < 700, `${error.message.length} chars`);
        return true;
      },
    );
  });

  it('a bare number is the timeout', async () => {
    await assert.rejects(
      eventuallyDefined(async () => undefined, 20),
      /^Error: timed out after 20 ms waiting for the condition; last value: undefined$/,
    );
  });

  it("a probe's error fails at once unless errors are retried", async () => {
    const { probe, calls } = countingProbe([0]);
    const failing = async () => {
      await probe();
      throw new Error('no such element');
    };
    await assert.rejects(eventuallyDefined(failing, { intervalMs: 1 }), /^Error: no such element$/);
    assert.equal(calls(), 1);
  });

  it('retried errors are reported as the last error, with what was last seen', async () => {
    let calls = 0;
    const missing = async (): Promise<string | undefined> => {
      calls++;
      throw new Error(`not there yet (${calls})`);
    };
    const result = eventuallyDefined(missing, {
      description: 'the row',
      timeoutMs: 30,
      intervalMs: 1,
      retryErrors: true,
      lastSeen: () => 'an empty tree',
    });
    await assert.rejects(
      result,
      /^Error: timed out after 30 ms waiting for the row; last error: not there yet \(\d+\); last seen: an empty tree$/,
    );
    assert.ok(calls > 1);
  });

  it('a retried error followed by a value returns the value', async () => {
    let calls = 0;
    const value = await eventuallyDefined(
      async () => {
        if (++calls < 3) throw new Error('not yet');
        return 'found';
      },
      { intervalMs: 1, retryErrors: true },
    );
    assert.equal(value, 'found');
  });
});
