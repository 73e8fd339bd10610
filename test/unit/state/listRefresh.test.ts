import assert from 'node:assert/strict';
import type { ConversationRecord, SandboxRecord, TestServer } from '../../server';
import {
  refreshLists,
  NOTHING_LOADED,
  type LoadedLists,
  type ListRefreshOptions,
} from '../../../src/state/listRefresh';
import type { OpenHandsClient } from '../../../src/api';
import { useTestServer } from '../api/harness';

const ALL: ListRefreshOptions = { full: true, titleFilter: undefined, pageSize: 100, wanted: 10_000 };

const CHANGES: ListRefreshOptions = { ...ALL, full: false };

/** The Refresh command's refresh: what changed, and the whole list only when something may have gone. */
const CHECKED: ListRefreshOptions = { ...CHANGES, verify: true };

const COUNT_PATH = '/api/v1/app-conversations/count';
const SEARCH_PATH = '/api/v1/app-conversations/search';

/** Everything loaded, as after "Load more" to the end. */
async function loadAll(client: OpenHandsClient): Promise<LoadedLists> {
  return (await refreshLists(client, NOTHING_LOADED, ALL)).lists;
}

/** A microsecond-precision "now" in the server's wire format, later than every seeded time. */
function now(): string {
  return new Date().toISOString().replace('Z', '123Z');
}

function record(server: TestServer, predicate: (c: ConversationRecord) => boolean): ConversationRecord {
  const found = server.state.conversations.find((c) => !c.parent_conversation_id && predicate(c));
  assert.ok(found, 'the seed has such a conversation');
  return found;
}

/** Pauses (in the server's state) a running sandbox that has conversations, and returns it. */
function pauseARunningSandbox(server: TestServer): SandboxRecord {
  const running = server.state.sandboxes.find(
    (s) => s.status === 'RUNNING' && server.state.conversations.some((c) => c.sandbox_id === s.id),
  );
  assert.ok(running, 'the seed has a running sandbox with conversations');
  running.status = 'PAUSED';
  return running;
}

function runningSandboxIds(server: TestServer): Set<string> {
  return new Set(server.state.sandboxes.filter((s) => s.status === 'RUNNING').map((s) => s.id));
}

/** Nothing moves by itself while a test reads: a STARTING sandbox stays so. */
const STILL = { sandboxStartMs: 3_600_000, sandboxPauseMs: 3_600_000, sandboxResumeMs: 3_600_000 };

/**
 * The reset before each test holds this process for seconds under load (the server runs in it): the
 * keep-alive timers that came due meanwhile run before the test's first request, which would otherwise
 * go out on a socket the server is closing (ECONNRESET).
 */
function keepAliveTimersFirst(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

describe('refreshLists at 10,000 conversations', function () {
  this.timeout(120_000);
  const t = useTestServer({ seed: { sandboxes: 60, conversations: 10_000, seed: 3 }, timings: STILL });
  beforeEach(keepAliveTimersFirst);

  it('a refresh with nothing changed makes at most 3 requests and changes nothing', async () => {
    const loaded = await loadAll(t.newClient({ timeoutMs: 60_000 }));
    assert.equal(
      loaded.conversations.length,
      t.server.state.conversations.filter((c) => !c.parent_conversation_id).length,
    );
    assert.equal(loaded.next, null);
    t.server.requests.length = 0;
    const { lists, changedRows } = await refreshLists(t.client, loaded, CHANGES);
    assert.ok(t.server.requests.length <= 3, `${t.server.requests.length} requests`);
    assert.equal(
      lists.conversations,
      loaded.conversations,
      'the same array: nothing downstream sees a new list',
    );
    assert.equal(lists.sandboxes, loaded.sandboxes);
    assert.deepEqual(changedRows, { conversations: [], sandboxes: [] });
  });

  it("the Refresh command's refresh with nothing changed: the same three requests and the count, no page read again", async () => {
    const loaded = await loadAll(t.newClient({ timeoutMs: 60_000 }));
    assert.ok(loaded.countMark, 'the full read took the count');
    t.server.requests.length = 0;
    // a client that waits as long as loading did: one that gave up under load would read everything
    const { lists, changedRows } = await refreshLists(t.newClient({ timeoutMs: 60_000 }), loaded, CHECKED);
    const paths = t.server.requests.map((r) => r.path).sort();
    assert.deepEqual(paths, [
      '/api/v1/app-conversations/count',
      SEARCH_PATH,
      SEARCH_PATH,
      '/api/v1/sandboxes/search',
    ]);
    assert.equal(lists.conversations, loaded.conversations);
    assert.deepEqual(changedRows, { conversations: [], sandboxes: [] });
  });
});

describe('refreshLists: a refresh reads what changed', function () {
  this.timeout(60_000);
  const t = useTestServer({ seed: { sandboxes: 30, conversations: 1_000, seed: 3 }, timings: STILL });
  beforeEach(keepAliveTimersFirst);

  it("an agent's new status (the server bumps updated_at) comes back as that row alone; the others keep their objects", async () => {
    const loaded = await loadAll(t.client);
    const running = runningSandboxIds(t.server);
    // far down the list, where no newest page reaches
    const target = [...t.server.state.conversations]
      .reverse()
      .find((c) => running.has(c.sandbox_id) && c.execution_status !== 'error' && !c.parent_conversation_id);
    assert.ok(target);
    target.execution_status = 'error';
    target.updated_at = now();
    const { lists, changedRows } = await refreshLists(t.client, loaded, CHANGES);
    assert.ok(changedRows, 'in place, not a new list');
    assert.deepEqual(
      changedRows.conversations.map((c) => [c.id, c.execution_status]),
      [[target.id, 'error']],
    );
    const index = lists.conversations.findIndex((c) => c.id === target.id);
    assert.equal(lists.conversations[index]?.execution_status, 'error');
    const untouched = lists.conversations.filter((c, i) => i !== index && c !== loaded.conversations[i]);
    assert.deepEqual(untouched, [], 'every other row is the object it was');
  });

  it('a new title on the newest conversation (no updated_at bump, as OpenHands sets auto-titles) shows', async () => {
    const loaded = await loadAll(t.client);
    const newest = loaded.conversations[0];
    assert.ok(newest);
    record(t.server, (c) => c.id === newest.id).title = 'Fix the flaky login test';
    const { lists, changedRows } = await refreshLists(t.client, loaded, CHANGES);
    assert.deepEqual(
      changedRows?.conversations.map((c) => c.title),
      ['Fix the flaky login test'],
    );
    assert.equal(lists.conversations[0]?.title, 'Fix the flaky login test');
  });

  it('a paused sandbox: its conversations are read again by id and say so', async () => {
    const loaded = await loadAll(t.client);
    const running = pauseARunningSandbox(t.server);
    t.server.requests.length = 0;
    const { lists, changedRows } = await refreshLists(t.client, loaded, CHANGES);
    assert.deepEqual(
      changedRows?.sandboxes.map((s) => [s.id, s.status]),
      [[running.id, 'PAUSED']],
    );
    const inIt = lists.conversations.filter((c) => c.sandbox_id === running.id);
    assert.ok(inIt.length > 0);
    assert.ok(inIt.every((c) => c.sandbox_status === 'PAUSED' && c.execution_status === null));
    assert.deepEqual(changedRows?.conversations.map((c) => c.id).sort(), inIt.map((c) => c.id).sort());
    const batchGets = t.server.requests.filter((r) => r.path === '/api/v1/app-conversations');
    assert.equal(batchGets.length, Math.ceil(inIt.length / 99));
    // and the next refresh is quiet again
    t.server.requests.length = 0;
    const after = await refreshLists(t.client, lists, CHANGES);
    assert.ok(t.server.requests.length <= 3);
    assert.deepEqual(after.changedRows, { conversations: [], sandboxes: [] });
  });

  it('a sandbox the extension already put in its list (a pause it asked for) still has its conversations read again', async () => {
    const loaded = await loadAll(t.client);
    const running = pauseARunningSandbox(t.server);
    // as SandboxActions' wait puts each reply into the store before the next refresh
    const upserted = { ...loaded, sandboxes: (await t.client.searchSandboxes({ limit: 100 })).items };
    const { lists } = await refreshLists(t.client, upserted, CHANGES);
    const inIt = lists.conversations.filter((c) => c.sandbox_id === running.id);
    assert.ok(inIt.length > 0);
    assert.ok(inIt.every((c) => c.sandbox_status === 'PAUSED'));
  });

  it('a new conversation goes first (the whole list redraws); one deleted elsewhere goes at the next full read', async () => {
    const loaded = await loadAll(t.client);
    const template = record(t.server, () => true);
    const created = now();
    const fresh: ConversationRecord = {
      ...template,
      id: 'f'.repeat(32),
      title: 'Brand new',
      created_at: created,
      updated_at: created,
    };
    t.server.state.conversations.push(fresh);
    const deleted = loaded.conversations[500];
    assert.ok(deleted);
    t.server.state.conversations = t.server.state.conversations.filter((c) => c.id !== deleted.id);

    const changes = await refreshLists(t.client, loaded, CHANGES);
    assert.equal(changes.changedRows, undefined, 'rows came: the list redraws');
    assert.equal(changes.lists.conversations[0]?.title, 'Brand new');
    assert.ok(
      changes.lists.conversations.some((c) => c.id === deleted.id),
      'not seen without a full read',
    );

    const full = await refreshLists(t.client, changes.lists, ALL);
    assert.ok(!full.lists.conversations.some((c) => c.id === deleted.id));
    assert.equal(full.lists.conversations[0]?.title, 'Brand new');
  });

  it('with one page loaded, an old conversation updated further down stays out of the list', async () => {
    const firstPage = (await refreshLists(t.client, NOTHING_LOADED, { ...ALL, pageSize: 20, wanted: 20 }))
      .lists;
    assert.equal(firstPage.conversations.length, 20);
    assert.notEqual(firstPage.next, null);
    const old = [...t.server.state.conversations].find((c) => !c.parent_conversation_id);
    assert.ok(old);
    old.title = 'Renamed long ago';
    old.updated_at = now();
    const { lists, changedRows } = await refreshLists(t.client, firstPage, {
      ...CHANGES,
      pageSize: 20,
      wanted: 20,
    });
    assert.equal(lists.conversations, firstPage.conversations);
    assert.deepEqual(changedRows, { conversations: [], sandboxes: [] });
  });

  it('the Refresh command: a conversation deleted far down goes, through a full read the count called for', async () => {
    const loaded = await loadAll(t.client);
    const deleted = loaded.conversations[500];
    assert.ok(deleted);
    t.server.state.conversations = t.server.state.conversations.filter((c) => c.id !== deleted.id);
    t.server.requests.length = 0;
    const { lists } = await refreshLists(t.client, loaded, CHECKED);
    assert.ok(!lists.conversations.some((c) => c.id === deleted.id));
    assert.equal(lists.conversations.length, loaded.conversations.length - 1);
    const searches = t.server.requests.filter((r) => r.path === SEARCH_PATH).length;
    assert.ok(searches > 10, `${searches} searches: the whole list was read`);
    // the full read took a new count: the next Refresh is cheap again
    t.server.requests.length = 0;
    await refreshLists(t.client, lists, CHECKED);
    assert.equal(t.server.requests.length, 4);
  });

  it('the Refresh command: a conversation made since the full read and deleted before it goes too', async () => {
    const loaded = await loadAll(t.client);
    const template = record(t.server, () => true);
    const created = now();
    t.server.state.conversations.push({
      ...template,
      id: 'e'.repeat(32),
      created_at: created,
      updated_at: created,
    });
    const polled = (await refreshLists(t.client, loaded, CHANGES)).lists;
    assert.ok(
      polled.conversations.some((c) => c.id === 'e'.repeat(32)),
      'the timed refresh brought it',
    );
    t.server.state.conversations = t.server.state.conversations.filter((c) => c.id !== 'e'.repeat(32));
    const { lists } = await refreshLists(t.client, polled, CHECKED);
    assert.ok(!lists.conversations.some((c) => c.id === 'e'.repeat(32)));
  });

  it('the Refresh command on a server without the count route reads the whole list, as it did', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 404,
      body: { detail: 'Not Found' },
      match: { path: COUNT_PATH },
    });
    const loaded = await loadAll(t.client);
    assert.equal(loaded.countMark, undefined);
    const deleted = loaded.conversations[500];
    assert.ok(deleted);
    t.server.state.conversations = t.server.state.conversations.filter((c) => c.id !== deleted.id);
    t.server.requests.length = 0;
    const { lists } = await refreshLists(t.client, loaded, CHECKED);
    assert.ok(!lists.conversations.some((c) => c.id === deleted.id));
    assert.ok(t.server.requests.filter((r) => r.path === SEARCH_PATH).length > 10);
  });

  it('the Refresh command when the count fails now reads the whole list', async () => {
    const loaded = await loadAll(t.client);
    t.server.faults.add({ kind: 'status', status: 500, times: 1, match: { path: COUNT_PATH } });
    t.server.requests.length = 0;
    const { lists } = await refreshLists(t.client, loaded, CHECKED);
    assert.equal(lists.conversations, loaded.conversations, 'nothing changed: the same array');
    assert.ok(t.server.requests.filter((r) => r.path === SEARCH_PATH).length > 10);
  });
});
