import assert from 'node:assert/strict';
import { ApiError, collectAll } from '../../../src/api';
import { eventually } from '../../shared/eventually';
import { useTestServer } from './harness';

describe('OpenHandsClient: sandboxes', () => {
  const t = useTestServer({ seed: { sandboxes: 7, conversations: 12, seed: 3 } });

  it('searchSandboxes returns the seeded sandboxes, newest first', async () => {
    const page = await t.client.searchSandboxes({ limit: 100 });
    assert.equal(page.items.length, 7);
    assert.equal(page.next_page_id, null);
    const created = page.items.map((sandbox) => Date.parse(sandbox.created_at ?? ''));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
    for (const sandbox of page.items) assert.match(sandbox.id, /^oh-agent-server-[0-9A-Za-z]+$/);
  });

  it('pages with limit and next_page_id until the end', async () => {
    const first = await t.client.searchSandboxes({ limit: 3 });
    assert.equal(first.items.length, 3);
    assert.equal(first.next_page_id, '3');
    const all = await collectAll((pageId, signal) =>
      t.client.searchSandboxes({ pageId, limit: 3 }, { signal }),
    );
    assert.equal(all.length, 7);
    assert.equal(new Set(all.map((sandbox) => sandbox.id)).size, 7);
    // three calls: 3 + 3 + 1
    assert.equal(t.logs.filter((entry) => entry.path.startsWith('/api/v1/sandboxes/search')).length, 4);
  });

  it('getSandboxes sends repeated `id` params and keeps input order with null for unknown ids', async () => {
    const [a, b] = (await t.client.searchSandboxes({ limit: 2 })).items;
    assert.ok(a && b);
    const result = await t.client.getSandboxes([b.id, 'oh-agent-server-doesnotexist', a.id]);
    assert.deepEqual(
      result.map((sandbox) => sandbox?.id ?? null),
      [b.id, null, a.id],
    );
    const request = t.server.requests.find((r) => r.path === '/api/v1/sandboxes');
    assert.deepEqual(request?.query.id, [b.id, 'oh-agent-server-doesnotexist', a.id]);
  });

  it('getSandboxes splits 150 ids into calls of fewer than 100 (the server 500s at 100)', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `oh-agent-server-missing${i}`);
    const result = await t.client.getSandboxes(ids);
    assert.equal(result.length, 150);
    assert.ok(result.every((sandbox) => sandbox === null));
    const sizes = t.server.requests
      .filter((r) => r.path === '/api/v1/sandboxes')
      .map((r) => r.query.id?.length);
    assert.deepEqual(sizes, [99, 51]);
  });

  it('startSandbox posts without a body, with the spec as a query parameter, then the sandbox runs', async () => {
    const specs = await t.client.searchSandboxSpecs();
    const spec = specs.items.at(-1);
    assert.ok(spec);
    const sandbox = await t.client.startSandbox({ sandboxSpecId: spec.id });
    assert.equal(sandbox.status, 'STARTING');
    assert.equal(sandbox.sandbox_spec_id, spec.id);
    assert.equal(sandbox.session_api_key, null);
    const request = t.server.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/sandboxes');
    assert.deepEqual(request?.query.sandbox_spec_id, [spec.id]);
    assert.equal(request?.body, undefined);
    const [running] = await eventually(
      () => t.client.getSandboxes([sandbox.id]),
      ([s]) => s?.status === 'RUNNING',
    );
    assert.ok(running?.session_api_key, 'a running sandbox has a session key');
    assert.ok(running?.exposed_urls?.some((url) => url.name === 'AGENT_SERVER'));
  });

  it('startSandbox with an unknown spec fails with a server error', async () => {
    await assert.rejects(t.client.startSandbox({ sandboxSpecId: 'ghcr.io/nope:1' }), (error: ApiError) => {
      assert.equal(error.kind, 'server');
      assert.equal(error.status, 500);
      return true;
    });
  });

  it('pauseSandbox then resumeSandbox walk RUNNING → PAUSED → RUNNING, and both are idempotent', async () => {
    const running = (await t.client.searchSandboxes()).items.find((s) => s.status === 'RUNNING');
    assert.ok(running, 'the seed has a running sandbox');
    assert.deepEqual(await t.client.pauseSandbox(running.id), { success: true });
    await eventually(
      () => t.client.getSandboxes([running.id]),
      ([s]) => s?.status === 'PAUSED',
    );
    assert.equal((await t.client.pauseSandbox(running.id)).success, true, 'pausing a paused sandbox is fine');
    assert.equal((await t.client.resumeSandbox(running.id)).success, true);
    const [resumed] = await eventually(
      () => t.client.getSandboxes([running.id]),
      ([s]) => s?.status === 'RUNNING',
    );
    assert.equal(resumed?.status, 'RUNNING');
    assert.equal(
      (await t.client.resumeSandbox(running.id)).success,
      true,
      'resuming a running sandbox is fine',
    );
  });

  it('pause/resume/delete of an unknown sandbox is not_found', async () => {
    for (const call of [
      () => t.client.pauseSandbox('oh-agent-server-unknown'),
      () => t.client.resumeSandbox('oh-agent-server-unknown'),
      () => t.client.deleteSandbox('oh-agent-server-unknown'),
    ]) {
      await assert.rejects(call(), (error: ApiError) => error.kind === 'not_found' && error.status === 404);
    }
  });

  it('deleteSandbox sends the id as the sandbox_id query parameter and removes the sandbox', async () => {
    const victim = (await t.client.searchSandboxes()).items[0];
    assert.ok(victim);
    assert.deepEqual(await t.client.deleteSandbox(victim.id), { success: true });
    const request = t.server.requests.find((r) => r.method === 'DELETE');
    assert.deepEqual(request?.query.sandbox_id, [victim.id]);
    assert.deepEqual(await t.client.getSandboxes([victim.id]), [null]);
  });
});
