// The status bar item through the store's states against the test server: which server, its counts,
// why it is offline, what a click does, and only what changed sent to the window.
import assert from 'node:assert/strict';
import { StatusBar } from '../../../src/views/statusBar';
import { settings, windowRecord } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from '../state/extensionState';

describe('StatusBar', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 4, conversations: 4, seed: 5 } });
  let bar: StatusBar;

  beforeEach(() => {
    bar = new StatusBar(t.store, t.connection);
  });
  afterEach(() => bar.dispose());

  const item = () => {
    const [found] = windowRecord.statusBarItems;
    assert.ok(found);
    return found;
  };

  it('before anything is asked, says what opening the view does, and switches server on click', () => {
    assert.equal(bar.text, '$(cloud) OpenHands');
    assert.equal(
      bar.tooltip,
      `${new URL(t.server.url).host} (${t.server.url}): open the OpenHands view to load the sandboxes. Click to switch server.`,
    );
    assert.equal(item().command, 'openhands.switchServer');
    assert.equal(item().visible, true);
  });

  it('counts the running and paused sandboxes once loaded, and sends nothing when nothing changed', async () => {
    await t.store.refresh();
    const running = t.server.state.sandboxes.filter((s) => s.status === 'RUNNING').length;
    const paused = t.server.state.sandboxes.filter((s) => s.status === 'PAUSED').length;
    assert.equal(bar.text, `$(cloud) OpenHands: ${running} running · ${paused} paused`);
    assert.match(bar.tooltip, /^Connected to .*\. Click to switch server\.$/);
    const writes = item().writes;
    bar.update();
    await t.store.refresh();
    assert.equal(item().writes, writes);
  });

  it('tells in the tooltip what the server says the listed conversations cost together', async () => {
    await t.store.refresh();
    const listed = t.store.conversations.map((c) => c.id);
    const total = t.server.state.conversations
      .filter((c) => listed.includes(c.id) && c.metrics && c.metrics.accumulated_cost > 0)
      .reduce((sum, c) => sum + (c.metrics?.accumulated_cost ?? 0), 0);
    assert.ok(total > 0, 'the seed prices some conversations');
    assert.match(
      bar.tooltip,
      new RegExp(
        `^Connected to .*\\. The conversations listed cost \\$${total.toFixed(2)} together\\. Click to switch server\\.$`,
      ),
    );
  });

  it('says offline with the last counts and the error, with a warning background', async () => {
    await t.store.refresh();
    t.server.faults.add({ kind: 'status', status: 502, match: { path: '/api/v1/sandboxes/search' } });
    await t.store.refresh();
    assert.match(bar.text, /^\$\(debug-disconnect\) OpenHands: offline \(\d+ running · \d+ paused\)$/);
    assert.match(bar.tooltip, /502/);
    assert.equal(item().backgroundColor?.id, 'statusBarItem.warningBackground');
    t.server.faults.clear();
    await t.store.refresh();
    assert.equal(item().backgroundColor, undefined);
  });

  it('says unauthorized when the server refuses the key', async () => {
    t.server.faults.add({ kind: 'status', status: 401, body: { detail: 'Unauthorized' } });
    await t.store.refresh();
    assert.equal(bar.text, '$(key) OpenHands: unauthorized');
  });

  it('names the server when several are remembered, and hides when the setting says so', async () => {
    settings.set({
      'openhands.servers': [
        { name: 'Local', url: t.server.url },
        { name: 'Cloud', url: 'https://app.all-hands.dev' },
      ],
    });
    assert.equal(bar.text, '$(cloud) Local');
    settings.set({ 'openhands.statusBar.show': false });
    assert.equal(item().visible, false);
  });

  it('without a server offers to connect, and with settings it cannot use says so as a warning', async () => {
    const changed = new Promise<void>((resolve) => t.connection.onDidChange(() => resolve()));
    settings.set({ 'openhands.serverUrl': '' });
    await changed;
    assert.equal(bar.text, '$(plug) OpenHands');
    assert.equal(item().command, 'openhands.connect');
    const again = new Promise<void>((resolve) => t.connection.onDidChange(() => resolve()));
    settings.set({ 'openhands.serverUrl': 'ftp://x' });
    await again;
    assert.equal(bar.text, '$(warning) OpenHands: settings');
    assert.match(bar.tooltip, /^The OpenHands server URL is not valid/);
    assert.equal(item().backgroundColor?.id, 'statusBarItem.warningBackground');
  });
});
