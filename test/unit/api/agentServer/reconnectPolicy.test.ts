import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api';
import { ReconnectPolicy } from '../../../../src/api/agentServer/reconnectPolicy';

const dropped = new ApiError({ kind: 'network', message: 'The socket closed.' });
const refused = new ApiError({ kind: 'unauthorized', message: 'The sandbox refused the key.' });
const overCap = new ApiError({
  kind: 'invalid_response',
  message: 'A frame was too large.',
  overLimitBytes: 1,
});

describe('ReconnectPolicy: when a feed connects again', () => {
  it('doubles the wait from the first to the ceiling, with a quarter of jitter either way', () => {
    const low = new ReconnectPolicy({ initialBackoffMs: 1000, maxBackoffMs: 8000 }, () => 0);
    assert.equal(low.retrying, false);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => low.failed(dropped)),
      [750, 1500, 3000, 6000, 6000],
    );
    assert.equal(low.retrying, true);
    const high = new ReconnectPolicy({}, () => 1);
    assert.deepEqual(
      Array.from({ length: 7 }, () => high.failed(dropped)),
      [1250, 2500, 5000, 10_000, 20_000, 37_500, 37_500],
    );
  });

  it('starts the schedule over only after a connection stayed live long enough', () => {
    const policy = new ReconnectPolicy({ initialBackoffMs: 100, healthyAfterMs: 10_000 }, () => 0.5);
    policy.failed(dropped);
    policy.failed(dropped);
    assert.equal(policy.ended(dropped, 5_000, 9_000), false, 'live 4 s: not healthy');
    assert.equal(policy.failed(dropped), 400);
    assert.equal(policy.ended(dropped, undefined, 20_000), false, 'never live');
    assert.equal(policy.failed(dropped), 800);
    policy.ended(dropped, 0, 10_000);
    assert.equal(policy.failed(dropped), 100);
    policy.failed(dropped);
    policy.restart();
    assert.equal(policy.retrying, false);
    assert.equal(policy.failed(dropped), 100);
  });

  it('gives up after refusals in a row; another failure in between starts the count over', () => {
    const policy = new ReconnectPolicy({ maxRefusals: 3 }, () => 0.5);
    assert.notEqual(policy.failed(refused), undefined);
    assert.notEqual(policy.failed(refused), undefined);
    assert.notEqual(policy.failed(dropped), undefined);
    assert.notEqual(policy.failed(refused), undefined);
    assert.notEqual(policy.failed(refused), undefined);
    assert.equal(
      policy.failed(new ApiError({ kind: 'not_found', message: 'No such conversation.' })),
      undefined,
    );
  });

  it('a frame over the cap reconnects at once, once per healthy connection', () => {
    const policy = new ReconnectPolicy({ healthyAfterMs: 10_000 });
    assert.equal(policy.ended(overCap, undefined, 1_000), false, 'not live yet: no frame came');
    assert.equal(policy.ended(overCap, 1_000, 2_000), true);
    assert.equal(policy.ended(overCap, 3_000, 4_000), false, 'again before a healthy connection');
    assert.equal(policy.ended(overCap, 5_000, 20_000), true, 'after one');
  });
});
