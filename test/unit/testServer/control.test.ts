import assert from 'node:assert/strict';
import type { Page, SandboxInfo, TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';

describe('test server: /__control endpoints', () => {
  let server: TestServer;
  /** SESSION_API_KEY guards every /api/* route (openhands-ai 1.11.0). */
  const keyed = (init: RequestInit = {}): RequestInit => ({ ...init, headers: { 'X-Session-API-Key': 'k' } });

  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 3, conversations: 6, seed: 7 }, sessionApiKey: 'k' });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('installs a fault with a path regex that applies `times` times, then clears', async () => {
    const added = await postJson<{ id: string }>(`${server.url}/__control/faults`, {
      kind: 'status',
      status: 503,
      body: { detail: 'down for maintenance' },
      times: 1,
      match: { method: 'GET', pathRegex: '^/api/v1/sandboxes/' },
    });
    assert.equal(added.status, 200);
    const faulted = await getJson<{ detail: string }>(`${server.url}/api/v1/sandboxes/search`);
    assert.equal(faulted.status, 503);
    assert.deepEqual(faulted.body, { detail: 'down for maintenance' });
    const healthy = await getJson<Page<SandboxInfo>>(`${server.url}/api/v1/sandboxes/search`, keyed());
    assert.equal(healthy.status, 200);

    await postJson(`${server.url}/__control/faults`, { kind: 'html' });
    const html = await getJson<string>(`${server.url}/api/v1/sandboxes/search`);
    assert.match(html.contentType, /^text\/html/);
    await fetch(`${server.url}/__control/faults`, { method: 'DELETE' });
    assert.equal((await getJson(`${server.url}/api/v1/sandboxes/search`, keyed())).status, 200);
  });

  it('is exempt from auth and faults, and exposes recorded requests and state', async () => {
    server.faults.add({ kind: 'status', status: 500 });
    const state = await getJson<{ sandboxes: unknown[]; conversations: unknown[] }>(
      `${server.url}/__control/state`,
    );
    assert.equal(state.status, 200);
    assert.equal(state.body.sandboxes.length, 3);
    assert.equal(state.body.conversations.length, 6);

    server.faults.clear();
    await fetch(`${server.url}/api/v1/sandboxes/search?limit=2&limit=3`, keyed());
    const unauthorized = await getJson<{ detail: string }>(`${server.url}/api/settings`);
    assert.equal(unauthorized.status, 401);
    assert.deepEqual(unauthorized.body, { detail: 'Unauthorized' });
    const requests = await getJson<{ path: string; query: Record<string, string[]>; status: number }[]>(
      `${server.url}/__control/requests`,
    );
    assert.deepEqual(
      requests.body.map((request) => [request.path, request.status]),
      [
        ['/api/v1/sandboxes/search', 200],
        ['/api/settings', 401],
      ],
    );
    assert.deepEqual(requests.body[0]?.query, { limit: ['2', '3'] });
  });

  it('patches a sandbox status and cancels its pending transition', async () => {
    const started = await getJson<SandboxInfo>(`${server.url}/api/v1/sandboxes`, keyed({ method: 'POST' }));
    assert.equal(started.body.status, 'STARTING');
    const patched = await postJson<{ status: string }>(
      `${server.url}/__control/state/sandboxes/${started.body.id}`,
      {
        status: 'ERROR',
      },
    );
    assert.equal(patched.body.status, 'ERROR');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const after = await getJson<(SandboxInfo | null)[]>(
      `${server.url}/api/v1/sandboxes?id=${started.body.id}`,
      keyed(),
    );
    assert.equal(after.body[0]?.status, 'ERROR');
    assert.equal(after.body[0]?.exposed_urls, null);
    const missing = await postJson(`${server.url}/__control/state/sandboxes/oh-agent-server-nope`, {
      status: 'PAUSED',
    });
    assert.equal(missing.status, 404);
  });

  it('resets to the same seeded data and queues start failures over HTTP', async () => {
    const before = await getJson<Page<SandboxInfo>>(`${server.url}/api/v1/sandboxes/search`, keyed());
    await fetch(`${server.url}/api/v1/sandboxes`, keyed({ method: 'POST' }));
    const reset = await postJson(`${server.url}/__control/reset`, {});
    assert.equal(reset.status, 200);
    const after = await getJson<Page<SandboxInfo>>(`${server.url}/api/v1/sandboxes/search`, keyed());
    assert.deepEqual(
      after.body.items.map((sandbox) => sandbox.id),
      before.body.items.map((sandbox) => sandbox.id),
    );
    assert.equal(server.requests.length, 1);

    const queued = await postJson(`${server.url}/__control/fail-next-start`, { detail: 'boom', count: 2 });
    assert.equal(queued.status, 200);
  });
});
