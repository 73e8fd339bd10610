// The server's sandbox images, read on demand against the test server: concurrent asks share one
// read, a failed read is not repeated by every redraw (only Refresh or another server reads again).
import assert from 'node:assert/strict';
import { settings } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from './extensionState';

describe('SpecCatalog', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 1, conversations: 1 } });
  const PATH = '/api/v1/sandbox-specs/search';
  const reads = () => t.server.requests.filter((r) => r.path === PATH).length;

  it('reads once for concurrent asks, in the server’s order, and not again once read', async () => {
    const [a, b] = await Promise.all([t.specs.ensureLoaded(), t.specs.ensureLoaded()]);
    assert.equal(a, b);
    assert.deepEqual(
      a.map((spec) => spec.id),
      t.server.state.specs.map((spec) => spec.id),
    );
    await t.specs.ensureLoaded();
    assert.equal(reads(), 1);
  });

  it('keeps a failure without reading again on every look, until Refresh', async () => {
    t.server.faults.add({ kind: 'status', status: 500, match: { path: PATH }, times: 1 });
    await assert.rejects(t.specs.ensureLoaded());
    assert.ok(t.specs.lastError);
    assert.deepEqual(await t.specs.ensureLoaded(), []);
    assert.equal(reads(), 1);
    await t.specs.refreshIfUsed();
    assert.equal(t.specs.lastError, undefined);
    assert.equal(t.specs.specs.length, t.server.state.specs.length);
  });

  it('refreshes only what was read, and forgets everything for another server', async () => {
    await t.specs.refreshIfUsed();
    assert.equal(reads(), 0, 'never read, so nothing to refresh');
    await t.specs.ensureLoaded();
    const changed = new Promise<void>((resolve) => t.specs.onDidChange(() => resolve()));
    settings.set({ 'openhands.serverUrl': 'http://127.0.0.1:9' });
    await changed;
    assert.deepEqual([t.specs.loaded, t.specs.specs], [false, []]);
  });
});
