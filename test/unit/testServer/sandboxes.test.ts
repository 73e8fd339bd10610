import assert from 'node:assert/strict';
import type { SandboxInfo, TestServer } from '../../server';
import { getJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';

describe('test server: sandbox lifecycle', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({ maxRunningSandboxes: 2 });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  const post = (path: string) => getJson<unknown>(`${server.url}${path}`, { method: 'POST' });
  const statusOf = async (id: string) =>
    (await getJson<(SandboxInfo | null)[]>(`${server.url}/api/v1/sandboxes?id=${id}`)).body[0]?.status;

  it('starts, pauses (idempotently) and resumes with timers', async () => {
    const started = (await post('/api/v1/sandboxes')).body as SandboxInfo;
    assert.equal(started.status, 'STARTING');
    assert.equal(started.session_api_key, null);
    await eventuallyDefined(async () => ((await statusOf(started.id)) === 'RUNNING' ? true : undefined));

    assert.deepEqual((await post(`/api/v1/sandboxes/${started.id}/pause`)).body, { success: true });
    assert.equal(await statusOf(started.id), 'RUNNING', 'still running until the pause lands');
    await eventuallyDefined(async () => ((await statusOf(started.id)) === 'PAUSED' ? true : undefined));
    assert.equal((await post(`/api/v1/sandboxes/${started.id}/pause`)).status, 200);

    assert.deepEqual((await post(`/api/v1/sandboxes/${started.id}/resume`)).body, { success: true });
    await eventuallyDefined(async () => ((await statusOf(started.id)) === 'RUNNING' ? true : undefined));
    assert.deepEqual((await post('/api/v1/sandboxes/oh-agent-server-nope/pause')).body, {
      detail: 'Not Found',
    });
  });

  it('pauses the oldest running sandbox beyond the maximum, and deletes by the sandbox_id query', async () => {
    const first = (await post('/api/v1/sandboxes')).body as SandboxInfo;
    await eventuallyDefined(async () => ((await statusOf(first.id)) === 'RUNNING' ? true : undefined));
    const second = (await post('/api/v1/sandboxes')).body as SandboxInfo;
    const third = (await post('/api/v1/sandboxes')).body as SandboxInfo;
    await eventuallyDefined(async () => ((await statusOf(third.id)) === 'RUNNING' ? true : undefined));
    await eventuallyDefined(async () => ((await statusOf(first.id)) === 'PAUSED' ? true : undefined));
    assert.equal(await statusOf(second.id), 'RUNNING');

    const deleted = await getJson(`${server.url}/api/v1/sandboxes/ignored?sandbox_id=${second.id}`, {
      method: 'DELETE',
    });
    assert.deepEqual(deleted.body, { success: true });
    assert.equal(await statusOf(second.id), undefined);
    const again = await getJson(`${server.url}/api/v1/sandboxes/ignored?sandbox_id=${second.id}`, {
      method: 'DELETE',
    });
    assert.equal(again.status, 404);
  });
});
