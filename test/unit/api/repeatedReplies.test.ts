// A polled list whose reply is the same text as last time is the same (frozen) value, over real HTTP
// against the test server; a changed reply is read anew, and the secrets a repeated reply carries
// are still masked.
import assert from 'node:assert/strict';
import { ApiError, ConnectionPool, OpenHandsClient, type RequestLogEntry } from '../../../src/api';
import { startTestServer, type TestServer } from '../../server';

describe('repeated replies of polled lists', () => {
  let server: TestServer;
  let pool: ConnectionPool;
  let client: OpenHandsClient;

  before(async () => {
    server = await startTestServer({ seed: { sandboxes: 3, conversations: 6 } });
  });
  beforeEach(() => {
    server.reset();
    pool = new ConnectionPool();
    client = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, pool });
  });
  afterEach(() => pool.dispose());
  after(() => server.close());

  it('gives the same frozen page while the reply does not change, and a new one when it does', async () => {
    const first = await client.searchSandboxes({ limit: 100 });
    assert.equal(await client.searchSandboxes({ limit: 100 }), first, 'the same value');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.items[0]), 'frozen, since callers share it');
    assert.throws(() => {
      (first.items as unknown[]).push({});
    }, TypeError);

    // another query is another reply
    const smaller = await client.searchSandboxes({ limit: 1 });
    assert.notEqual(smaller, first);
    assert.equal(smaller.items.length, 1);
    // a later page is read to the end of a listing, not polled: not kept
    const pageId = smaller.next_page_id;
    assert.ok(pageId, 'a second page');
    const second = await client.searchSandboxes({ limit: 1, pageId });
    assert.deepEqual(await client.searchSandboxes({ limit: 1, pageId }), second);
    assert.notEqual(await client.searchSandboxes({ limit: 1, pageId }), second);
    assert.ok(!Object.isFrozen(second));

    const running = first.items.find((sandbox) => sandbox.status === 'RUNNING');
    assert.ok(running, 'the seed has a running sandbox');
    await client.pauseSandbox(running.id);
    // the double pauses after a moment, as the real server does
    let after = await client.searchSandboxes({ limit: 100 });
    while (after === first) after = await client.searchSandboxes({ limit: 100 });
    assert.notEqual(after.items.find((sandbox) => sandbox.id === running.id)?.status, 'RUNNING');
  });

  it('conversation pages too; other reads (a batch get) are read each time', async () => {
    const page = await client.searchConversations({ limit: 5 });
    assert.equal(await client.searchConversations({ limit: 5 }), page);
    const ids = page.items.map((conversation) => conversation.id);
    const [one] = await client.getConversations(ids.slice(0, 1));
    const [again] = await client.getConversations(ids.slice(0, 1));
    assert.deepEqual(again, one);
    assert.notEqual(again, one);
  });

  it("says in its log entry that a reply was the last poll's, so the log can keep it quiet", async () => {
    const entries: RequestLogEntry[] = [];
    const logged = new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 2000,
      pool,
      onLog: (entry) => entries.push(entry),
    });
    const page = await logged.searchConversations({ limit: 5 });
    await logged.searchConversations({ limit: 5 });
    await logged.getConversations(page.items.slice(0, 1).map((conversation) => conversation.id));
    server.faults.add({
      kind: 'status',
      status: 503,
      body: { detail: 'busy' },
      match: { path: '/api/v1/app-conversations/search' },
      times: 1,
    });
    await logged.searchConversations({ limit: 5 }).catch(() => undefined);
    assert.deepEqual(
      entries.map((entry) => [entry.path.split('?')[0], entry.status, entry.repeated ?? false]),
      [
        ['/api/v1/app-conversations/search', 200, false],
        ['/api/v1/app-conversations/search', 200, true],
        ['/api/v1/app-conversations', 200, false],
        ['/api/v1/app-conversations/search', 503, false],
      ],
    );
  });

  it('masks a session key a repeated reply carries in a later failure that quotes it', async () => {
    const page = await client.searchSandboxes({ limit: 100 });
    const key = page.items.find((sandbox) => sandbox.session_api_key)?.session_api_key;
    assert.ok(key, 'a running sandbox has a session key');
    // a fresh client whose first reply of the list is the repeat of nothing; its second is a repeat
    const fresh = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 2000, pool });
    await fresh.searchSandboxes({ limit: 100 });
    await fresh.searchSandboxes({ limit: 100 });
    server.faults.add({
      kind: 'status',
      status: 500,
      body: { detail: `sandbox key ${key} refused` },
      match: { path: '/api/v1/sandbox-specs/search' },
      times: 1,
    });
    const error = await fresh.searchSandboxSpecs().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ApiError);
    assert.ok(!JSON.stringify(error).includes(key) && !error.message.includes(key), error.message);
  });
});
