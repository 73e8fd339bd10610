// The store the views draw from, against the test server over HTTP: what a refresh loads and what it
// says changed (nothing, some rows, or everything), the last data kept and marked stale while the
// server fails, and everything dropped for another server.
import assert from 'node:assert/strict';
import { forgetAskedWords, rememberAsked } from '../../../src/state/askedWords';
import type { StoreChange } from '../../../src/state/store';
import type { ConversationRecord } from '../../server';
import { settings } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from './extensionState';

const SEED = { sandboxes: 4, conversations: 12, seed: 11, baseTime: Date.parse('2026-03-01T12:00:00Z') };

/** A time later than every seeded one, in the server's wire format: the refresh asks for what changed since. */
function later(records: readonly ConversationRecord[]): string {
  const newest = Math.max(...records.map((record) => Date.parse(record.updated_at)));
  return new Date(newest + 60_000).toISOString().replace('Z', '123Z');
}

describe('OpenHandsStore: what the views show, and what changed', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: SEED });

  function record(): StoreChange[] {
    const changes: StoreChange[] = [];
    t.store.onDidChange((change) => changes.push(change));
    return changes;
  }

  /** Changes the settings and waits for the connection's "server changed". */
  function serverChange(change: () => void): Promise<void> {
    const changed = new Promise<void>((resolve) => {
      const subscription = t.connection.onDidChange(() => {
        subscription.dispose();
        resolve();
      });
    });
    change();
    return changed;
  }

  it('loads the lists on the first refresh, newest first, and a refresh that finds nothing new fires nothing', async () => {
    assert.equal(t.store.state, 'idle');
    const changes = record();
    await t.store.refresh();
    assert.equal(t.store.state, 'ready');
    assert.equal(t.store.sandboxes.length, 4);
    assert.equal(
      t.store.conversations.length,
      t.server.state.conversations.filter((c) => !c.parent_conversation_id).length,
    );
    const created = t.store.conversations.map((c) => Date.parse(c.created_at ?? ''));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
    assert.ok(changes.length >= 1 && changes.every((change) => change.rows === undefined));
    assert.ok(t.store.hasAllConversations);

    const before = { sandboxes: t.store.sandboxes, conversations: t.store.conversations };
    changes.length = 0;
    await t.store.refresh();
    await t.store.refresh({ full: true });
    assert.deepEqual(changes, []);
    assert.equal(t.store.sandboxes, before.sandboxes);
    assert.equal(t.store.conversations, before.conversations);
  });

  it('names just the row that changed on the server', async () => {
    await t.store.refresh();
    const changes = record();
    const target = t.server.state.conversations.find((c) => !c.parent_conversation_id);
    assert.ok(target);
    target.title = 'Renamed on the server';
    target.updated_at = later(t.server.state.conversations);
    await t.store.refresh();
    assert.equal(changes.length, 1);
    assert.deepEqual(
      changes[0]?.rows?.conversations.map((c) => c.title),
      ['Renamed on the server'],
    );
    assert.equal(t.store.findConversation(target.id)?.title, 'Renamed on the server');
  });

  it('redraws a conversation’s row and its sandbox’s when what the user asked it is learnt', async () => {
    await t.store.refresh();
    const target = t.store.conversations.find((c) => t.store.findSandbox(c.sandbox_id));
    assert.ok(target);
    const changes = record();
    try {
      rememberAsked(target.id, 'Add a dark mode toggle');
      assert.equal(changes.length, 1);
      assert.deepEqual(changes[0]?.rows?.conversations, [target]);
      assert.deepEqual(
        changes[0]?.rows?.sandboxes.map((s) => s.id),
        [target.sandbox_id],
      );
      rememberAsked('0'.repeat(32), 'not a conversation of this list');
      assert.equal(changes.length, 1, 'a conversation not in the list redraws nothing');
    } finally {
      forgetAskedWords();
    }
  });

  it('keeps the last data, marked stale, while the server fails, and says why', async () => {
    await t.store.refresh();
    const shown = t.store.sandboxes.length;
    t.server.faults.add({ kind: 'status', status: 500, match: { path: '/api/v1/sandboxes/search' } });
    await t.store.refresh();
    assert.equal(t.store.state, 'error');
    assert.equal(t.store.stale, true);
    assert.equal(t.store.sandboxes.length, shown);
    assert.equal(t.store.lastError?.kind, 'server');
    t.server.faults.clear();
    await t.store.refresh();
    assert.equal(t.store.state, 'ready');
    assert.equal(t.store.stale, false);
    assert.equal(t.store.lastError, undefined);
  });

  it('without any earlier success is an error, not stale data', async () => {
    t.server.faults.add({ kind: 'reset', match: { path: '/api/v1/sandboxes/search' } });
    await t.store.refresh();
    assert.equal(t.store.state, 'error');
    assert.equal(t.store.stale, false);
    assert.equal(t.store.lastError?.kind, 'network');
  });

  it('drops everything for another server, and is unconfigured without one', async () => {
    await t.store.refresh();
    const begun = t.store.beginTransition(t.store.sandboxes[0]?.id ?? '', {
      kind: 'pausing',
      target: 'PAUSED',
    });
    assert.ok(begun);
    const changes = record();
    await serverChange(() => settings.set({ 'openhands.serverUrl': 'http://127.0.0.1:9' }));
    assert.deepEqual([t.store.sandboxes, t.store.conversations, t.store.transitions.size], [[], [], 0]);
    assert.equal(t.store.state, 'idle');
    assert.deepEqual(changes, [{}]);
    await serverChange(() => settings.set({ 'openhands.serverUrl': '' }));
    assert.equal(t.store.state, 'unconfigured');
    await t.store.refresh();
    assert.equal(t.store.state, 'unconfigured');
  });

  it('shows a transition at once on its row, and ends only its own', async () => {
    await t.store.refresh();
    const sandbox = t.store.sandboxes[0];
    assert.ok(sandbox);
    const changes = record();
    const pausing = t.store.beginTransition(sandbox.id, { kind: 'pausing', target: 'PAUSED' });
    assert.deepEqual(changes.at(-1)?.rows?.sandboxes, [sandbox]);
    assert.equal(t.store.busy, true);
    const resuming = t.store.beginTransition(sandbox.id, { kind: 'resuming', target: 'RUNNING' });
    t.store.endTransition(sandbox.id, pausing);
    assert.equal(t.store.transitions.get(sandbox.id), resuming);
    t.store.endTransition(sandbox.id, resuming);
    assert.equal(t.store.transitions.size, 0);
  });

  it('filters by title, and then asks the server for a sandbox’s conversations once per refresh', async () => {
    const titled = t.server.state.conversations.find((c) => !c.parent_conversation_id && c.title);
    assert.ok(titled?.title);
    const word = titled.title.split(' ')[0] ?? '';
    await t.store.setTitleFilter(`  ${word} `);
    assert.equal(t.store.titleFilter, word);
    assert.equal(t.store.hasAllConversations, false);
    assert.ok(t.store.conversations.length > 0);
    assert.ok(t.store.conversations.every((c) => c.title?.toLowerCase().includes(word.toLowerCase())));
    const requests = () =>
      t.server.requests.filter((r) => r.path === '/api/v1/app-conversations/search').length;
    const before = requests();
    const [first, second] = await Promise.all([
      t.store.conversationsOfSandbox(titled.sandbox_id),
      t.store.conversationsOfSandbox(titled.sandbox_id),
    ]);
    assert.equal(first, second);
    assert.equal(requests(), before + 1);
    assert.ok(first.items.some((c) => c.id.replace(/-/g, '') === titled.id.replace(/-/g, '')));
    await t.store.setTitleFilter('   ');
    assert.equal(t.store.titleFilter, undefined);
    assert.equal(t.store.hasAllConversations, true);
  });
});
