// The server's sandbox specs (images) have no view of their own: Start Sandbox… offers them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { openHandsExtension, type Manifest } from './manifest';
import { server } from './serverControl';

const SPECS_PATH = '/api/v1/sandbox-specs/search';

interface SandboxRow {
  id: string;
  sandbox_spec_id: string;
}

type PickItem = vscode.QuickPickItem & { id?: string };

describe('sidebar: sandbox specs through Start Sandbox… in a real VS Code', () => {
  const t = useFreshExtension();

  async function specIdsFromServer(): Promise<string[]> {
    const url = t.api.connection.config.serverUrl;
    assert.ok(url);
    const page = (await (await fetch(`${url}${SPECS_PATH}?limit=100`)).json()) as { items: { id: string }[] };
    return page.items.map((spec) => spec.id);
  }

  /**
   * Runs `body` with the real quick pick and error message recorded on their way to VS Code (the
   * user still sees them; the test drives the pick with the workbench's own commands). `active` is
   * the item the window reports focused: the pick shows its items only after `showQuickPick` has
   * returned here, and a key sent before that lands on nothing.
   */
  async function recording<T>(
    body: (shown: { picks: PickItem[][]; errors: string[]; active?: PickItem }) => Promise<T>,
  ): Promise<T> {
    const window = vscode.window as {
      showQuickPick: (items: readonly PickItem[], options?: vscode.QuickPickOptions) => Thenable<unknown>;
      showErrorMessage: (message: string, ...items: string[]) => Thenable<string | undefined>;
    };
    const { showQuickPick, showErrorMessage } = window;
    const shown: { picks: PickItem[][]; errors: string[]; active?: PickItem } = { picks: [], errors: [] };
    window.showQuickPick = (items, options) => {
      shown.picks.push([...items]);
      return showQuickPick(items, {
        ...options,
        onDidSelectItem: (item) => {
          if (typeof item !== 'string') shown.active = item;
          return options?.onDidSelectItem?.(item);
        },
      });
    };
    window.showErrorMessage = (message, ...items) => {
      shown.errors.push(message);
      return showErrorMessage(message, ...items);
    };
    try {
      return await body(shown);
    } finally {
      window.showQuickPick = showQuickPick;
      window.showErrorMessage = showErrorMessage;
    }
  }

  it('has no view of its own: the container shows Conversations first, then Sandboxes', () => {
    const views = (openHandsExtension().packageJSON as Manifest).contributes?.views?.openhands ?? [];
    const shown = views.filter((view) => (view as { when?: string }).when !== 'false');
    assert.deepEqual(
      shown.map((view) => view.id),
      ['openhands.conversations', 'openhands.sandboxes'],
    );
  });

  it('offers every spec, readable, with its full id in the detail, and starts the one chosen', async () => {
    const specIds = await specIdsFromServer();
    assert.ok(specIds.length >= 2, 'the test server has at least two specs');
    const [, second] = specIds;
    assert.ok(second);
    const before = new Set(t.api.store.sandboxes.map((s) => s.id));
    await recording(async (shown) => {
      const starting = vscode.commands.executeCommand<SandboxRow | undefined>('openhands.startSandbox');
      const [items] = await eventually(
        () => shown.picks,
        (picks) => picks.length === 1,
      );
      assert.ok(items);
      assert.deepEqual(
        items.map((item) => item.detail),
        specIds,
        'each spec, in the server order',
      );
      for (const [index, item] of items.entries()) {
        const full = specIds[index] ?? '';
        assert.equal(item.label, full.split('/').at(-1), 'the image name and tag, whole');
        assert.equal(String(item.description ?? '').includes('default'), index === 0);
        const count = t.api.store.sandboxes.filter((s) => s.sandbox_spec_id === full).length;
        assert.equal(String(item.description ?? '').includes(`${count} sandbox`), count > 0);
      }
      // the real quick pick, driven as a user would once it shows its items: down once, Enter
      await eventually(
        () => shown.active?.detail,
        (focused) => focused === specIds[0],
        { description: 'the first spec focused in the quick pick' },
      );
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await eventually(
        () => shown.active?.detail,
        (focused) => focused === second,
        { description: 'the second spec focused' },
      );
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const started = await starting;
      assert.ok(started && !before.has(started.id), 'a new sandbox');
      assert.equal(started.sandbox_spec_id, second);
    });
  });

  it('reads the specs afresh for each Start (an administrator may have changed them)', async () => {
    await server.clearRequests();
    await recording(async (shown) => {
      for (let round = 1; round <= 2; round++) {
        const starting = vscode.commands.executeCommand('openhands.startSandbox');
        await eventually(
          () => shown.picks.length,
          (count) => count === round,
        );
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        assert.equal(await starting, undefined, 'cancelled: nothing started');
      }
    });
    const reads = (await server.requests()).filter((r) => r.path === SPECS_PATH).length;
    assert.equal(reads, 2);
  });

  it('says why when the specs cannot be read, and starts nothing', async () => {
    const count = t.api.store.sandboxes.length;
    await server.addFault({ kind: 'status', status: 503, match: { path: SPECS_PATH } });
    try {
      await server.clearRequests();
      await recording(async (shown) => {
        assert.equal(await vscode.commands.executeCommand('openhands.startSandbox'), undefined);
        assert.equal(shown.picks.length, 0);
        assert.equal(shown.errors.length, 1);
        assert.match(shown.errors[0] ?? '', /^Could not read the sandbox images the server offers: ./);
      });
      const starts = (await server.requests()).filter((r) => r.method === 'POST');
      assert.deepEqual(starts, [], 'no sandbox was started');
      await t.api.store.refresh();
      assert.equal(t.api.store.sandboxes.length, count);
    } finally {
      await server.clearFaults();
    }
  });

  it('a spec id as the argument starts from it without asking', async () => {
    const [, second] = await specIdsFromServer();
    assert.ok(second);
    await recording(async (shown) => {
      const started = await vscode.commands.executeCommand<SandboxRow | undefined>(
        'openhands.startSandbox',
        second,
      );
      assert.equal(started?.sandbox_spec_id, second);
      assert.equal(shown.picks.length, 0);
    });
  });
});
