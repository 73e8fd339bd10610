import assert from 'node:assert/strict';
import { collectAll } from '../../../src/api';
import { useTestServer } from './harness';

describe('OpenHandsClient: sandbox specs', () => {
  const t = useTestServer();

  it('searchSandboxSpecs lists the specs with their defaults', async () => {
    const page = await t.client.searchSandboxSpecs();
    assert.ok(page.items.length >= 2);
    const python = page.items.find((spec) => spec.id.endsWith('-python'));
    assert.ok(python, 'the default python spec is listed');
    assert.ok(Array.isArray(python.command));
    assert.equal(typeof python.working_dir, 'string');
  });

  it('pages through specs one at a time', async () => {
    const specs = await collectAll((pageId, signal) =>
      t.client.searchSandboxSpecs({ pageId, limit: 1 }, { signal }),
    );
    const all = (await t.client.searchSandboxSpecs()).items;
    assert.deepEqual(
      specs.map((spec) => spec.id),
      all.map((spec) => spec.id),
    );
  });

  it('getSandboxSpecs encodes ids with / and : and returns null for unknown ones', async () => {
    const [first] = (await t.client.searchSandboxSpecs()).items;
    assert.ok(first);
    const result = await t.client.getSandboxSpecs([first.id, 'ghcr.io/unknown:tag']);
    assert.equal(result[0]?.id, first.id);
    assert.equal(result[1], null);
  });

  it('getSandboxSpecs accepts 100 ids in one call', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `ghcr.io/missing:${i}`);
    const result = await t.client.getSandboxSpecs(ids);
    assert.equal(result.length, 100);
    assert.equal(t.server.requests.filter((r) => r.path === '/api/v1/sandbox-specs').length, 1);
  });
});
