import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { startFastServer } from './helpers';

describe('test server: rate limiting and faults', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({ rateLimit: true, timings: { rateLimitDelayMs: 50 } });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('delays requests 11-20 within a second and answers 429 beyond 20', async () => {
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => fetch(`${server.url}/api/v1/sandbox-specs/search`)),
    );
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 20);
    const limited = responses.filter((response) => response.status === 429);
    assert.equal(limited.length, 5);
    assert.equal(limited[0]?.headers.get('retry-after'), '1');
    assert.deepEqual(await limited[0]?.json(), { message: 'Too many requests' });
    assert.ok(Date.now() - started >= 50, 'requests 11-20 were held');
  });

  it('hangs, resets and drifts on demand', async () => {
    server.faults.add({ kind: 'reset', times: 1 });
    await assert.rejects(fetch(`${server.url}/api/v1/sandbox-specs/search`));

    server.faults.add({ kind: 'drift', times: 1, match: { path: '/api/v1/sandboxes' } });
    const started = await fetch(`${server.url}/api/v1/sandboxes`, { method: 'POST' });
    const drifted = (await started.json()) as Record<string, unknown>;
    assert.equal(drifted['status'], 'HIBERNATING');
    assert.ok('x_newer_server_field' in drifted);

    server.faults.add({ kind: 'hang', match: { path: '/api/v1/sandbox-specs/search' } });
    await assert.rejects(
      fetch(`${server.url}/api/v1/sandbox-specs/search`, { signal: AbortSignal.timeout(50) }),
    );
  });
});
