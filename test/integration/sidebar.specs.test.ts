import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SpecNode } from '../../src/views/nodes';
import { useFreshExtension } from './extensionApi';
import { server } from './serverControl';

interface SpecRow {
  id: string;
  initial_env: Record<string, string>;
}

describe('sidebar: Sandbox Specs view in a real VS Code', () => {
  const t = useFreshExtension();

  async function specsFromServer(): Promise<SpecRow[]> {
    const url = t.api.connection.config.serverUrl;
    assert.ok(url);
    const page = (await (await fetch(`${url}/api/v1/sandbox-specs/search?limit=100`)).json()) as {
      items: SpecRow[];
    };
    return page.items;
  }

  async function specRows(): Promise<SpecNode[]> {
    return t.api.specsProvider.getChildren();
  }

  it('lists the server specs in its order, the first as default, with their sandbox counts', async () => {
    const expected = await specsFromServer();
    assert.ok(expected.length >= 2, 'the test server has at least two specs');
    const rows = await specRows();
    assert.deepEqual(
      rows.map((row) => row.spec.id),
      expected.map((spec) => spec.id),
    );
    for (const [index, row] of rows.entries()) {
      const item = t.api.specsProvider.getTreeItem(row);
      assert.equal(item.id, `spec/${row.spec.id}`);
      assert.equal(item.contextValue, 'sandboxSpec');
      const count = t.api.store.sandboxes.filter((s) => s.sandbox_spec_id === row.spec.id).length;
      assert.equal(String(item.description).includes('default'), index === 0);
      assert.equal(String(item.description).includes(`${count} sandbox`), count > 0);
      const tooltip = (item.tooltip as vscode.MarkdownString).value;
      assert.match(tooltip, new RegExp(`Sandboxes from it: ${count}`));
      // environment names are shown, never their values (they can hold credentials)
      for (const [name, value] of Object.entries(expected[index]?.initial_env ?? {})) {
        assert.ok(tooltip.includes(name), `tooltip names ${name}`);
        assert.ok(!tooltip.includes(value), `tooltip hides the value of ${name}`);
      }
    }
  });

  it('reads the specs once, not on every redraw; Refresh reads them again', async () => {
    await specRows();
    await server.clearRequests();
    await specRows();
    const specReads = async () =>
      (await server.requests()).filter((r) => r.path === '/api/v1/sandbox-specs/search').length;
    assert.equal(await specReads(), 0);
    await vscode.commands.executeCommand('openhands.refresh');
    assert.equal(await specReads(), 1);
  });

  it('starts a sandbox from a spec row without asking which spec', async () => {
    const [, second] = await specRows();
    assert.ok(second, 'a non-default spec');
    const before = new Set(t.api.store.sandboxes.map((s) => s.id));
    const fromSpec = () => t.api.store.sandboxes.filter((s) => s.sandbox_spec_id === second.spec.id).length;
    const countBefore = fromSpec();
    const started = await vscode.commands.executeCommand<{ id: string; sandbox_spec_id: string } | undefined>(
      'openhands.startSandbox',
      second,
    );
    assert.ok(started && !before.has(started.id));
    assert.equal(started.sandbox_spec_id, second.spec.id);
    assert.equal(fromSpec(), countBefore + 1);
    assert.match(
      String(t.api.specsProvider.getTreeItem(second).description),
      new RegExp(`${countBefore + 1} sandbox`),
    );
  });

  it('says why when the specs cannot be read, keeps the last ones, and recovers on Refresh', async () => {
    const shown = (await specRows()).length;
    assert.ok(shown > 0);
    await server.addFault({ kind: 'status', status: 503, match: { path: '/api/v1/sandbox-specs/search' } });
    await vscode.commands.executeCommand('openhands.refresh');
    assert.match(t.api.specsView.message ?? '', /^Could not read the sandbox specs: ./);
    // stale, not empty: the last specs read stay listed under the message
    assert.equal((await specRows()).length, shown);
    await server.clearFaults();
    await vscode.commands.executeCommand('openhands.refresh');
    assert.equal(t.api.specsView.message, undefined);
    assert.ok((await specRows()).length > 0);
  });
});
