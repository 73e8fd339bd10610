import assert from 'node:assert/strict';
import {
  ApiError,
  collectAll,
  normalizeUuid,
  StartTaskFailedError,
  type AppConversationStartTask,
} from '../../../src/api';
import { useTestServer } from './harness';

function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('OpenHandsClient: app conversations', () => {
  const t = useTestServer({ seed: { sandboxes: 4, conversations: 30, seed: 7 } });

  it('searchConversations returns dashless ids, newest first', async () => {
    const page = await t.client.searchConversations({ limit: 100 });
    assert.ok(page.items.length > 0);
    for (const conversation of page.items) assert.match(conversation.id, /^[0-9a-f]{32}$/);
    const created = page.items.map((c) => Date.parse(c.created_at ?? ''));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
  });

  it('searchConversations follows next_page_id to the end without repeats', async () => {
    const all = await collectAll((pageId, signal) =>
      t.client.searchConversations({ pageId, limit: 7 }, { signal }),
    );
    const single = await t.client.searchConversations({ limit: 100 });
    assert.deepEqual(
      all.map((c) => c.id),
      single.items.map((c) => c.id),
    );
  });

  it('searchConversations filters by title (title__contains) and dates', async () => {
    const everything = (await t.client.searchConversations()).items;
    const sample = everything.find((c) => c.title && c.title.length > 6);
    assert.ok(sample?.title);
    const word = sample.title.split(' ')[1] ?? sample.title;
    const filtered = (await t.client.searchConversations({ titleContains: word })).items;
    assert.ok(filtered.length > 0);
    assert.ok(filtered.every((c) => c.title?.includes(word)));
    assert.ok(filtered.length <= everything.length);

    const newest = everything[0];
    assert.ok(newest?.created_at);
    const recent = await t.client.searchConversations({
      createdAtGte: new Date(Date.parse(newest.created_at)),
    });
    assert.ok(recent.items.some((c) => c.id === newest.id));
    assert.ok(
      recent.items.every((c) => Date.parse(c.created_at ?? '') >= Date.parse(newest.created_at ?? '')),
    );
    const request = t.server.requests.at(-1);
    assert.match(request?.query.created_at__gte?.[0] ?? '', /Z$/);
  });

  it('includeSubConversations brings back conversations that have a parent; count includes them', async () => {
    const top = (await t.client.searchConversations()).items;
    const withSubs = (await t.client.searchConversations({ includeSubConversations: true })).items;
    assert.ok(withSubs.length > top.length, 'the seed has sub-conversations');
    assert.ok(top.every((c) => c.parent_conversation_id === null));
    assert.equal(await t.client.countConversations(), withSubs.length);
  });

  it('countConversations applies the title filter', async () => {
    const sample = (await t.client.searchConversations()).items[0];
    assert.ok(sample?.title);
    const count = await t.client.countConversations({ titleContains: sample.title });
    assert.ok(count >= 1);
    assert.ok(count < (await t.client.countConversations()));
  });

  it('getConversations accepts dashed ids, keeps order, returns null for unknown, fills sub_conversation_ids', async () => {
    const all = (await t.client.searchConversations({ includeSubConversations: true })).items;
    const parent = all.find((c) => all.some((other) => other.parent_conversation_id === c.id));
    assert.ok(parent, 'the seed has a parent conversation');
    const unknown = '0123456789abcdef0123456789abcdef';
    const [got, missing] = await t.client.getConversations([dashed(parent.id), unknown]);
    assert.equal(got?.id, parent.id);
    assert.equal(missing, null);
    assert.ok((got?.sub_conversation_ids.length ?? 0) > 0);
  });

  it('createConversation returns a WORKING start task; waitForStartTask reports each status until READY', async () => {
    const task = await t.client.createConversation({
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky login test' }] },
      selected_repository: 'acme/webapp',
      selected_branch: 'main',
    });
    assert.equal(task.status, 'WORKING');
    assert.equal(task.app_conversation_id, null);
    const seen: string[] = [];
    const ready = await t.client.waitForStartTask(dashed(task.id), {
      intervalMs: 5,
      onProgress: (update) => seen.push(update.status),
    });
    assert.equal(ready.status, 'READY');
    assert.ok(ready.app_conversation_id);
    assert.equal(seen.at(-1), 'READY');
    assert.ok(seen.includes('WAITING_FOR_SANDBOX') || seen.length >= 2, `progress seen: ${seen.join(',')}`);
    const [conversation] = await t.client.getConversations([ready.app_conversation_id]);
    assert.equal(conversation?.selected_repository, 'acme/webapp');
    assert.equal(conversation?.sandbox_id, ready.sandbox_id);
  });

  it('waitForStartTask throws StartTaskFailedError with the server detail on ERROR', async () => {
    t.server.failNextStartTasks('Sandbox image could not be pulled');
    const task = await t.client.createConversation({});
    await assert.rejects(t.client.waitForStartTask(task.id, { intervalMs: 5 }), (error: unknown) => {
      assert.ok(error instanceof StartTaskFailedError);
      assert.ok(error instanceof ApiError);
      assert.equal(error.task.status, 'ERROR');
      assert.match(error.message, /Sandbox image could not be pulled/);
      return true;
    });
  });

  it('waitForStartTask explains an ERROR with an empty detail', async () => {
    t.server.failNextStartTasks('');
    const task = await t.client.createConversation({});
    await assert.rejects(t.client.waitForStartTask(task.id, { intervalMs: 5 }), /gave no reason/);
  });

  it('waitForStartTask rides out a short outage of the server', async () => {
    const task = await t.client.createConversation({});
    t.server.faults.add({
      match: { path: '/api/v1/app-conversations/start-tasks' },
      times: 2,
      kind: 'status',
      status: 503,
    });
    const ready = await t.client.waitForStartTask(task.id, { intervalMs: 5 });
    assert.equal(ready.status, 'READY');
  });

  it('waitForStartTask stops with `cancelled` when its signal aborts', async () => {
    const task = await t.client.createConversation({});
    const controller = new AbortController();
    const progress: AppConversationStartTask[] = [];
    const waiting = t.client.waitForStartTask(task.id, {
      intervalMs: 50,
      signal: controller.signal,
      onProgress: (update) => {
        progress.push(update);
        controller.abort();
      },
    });
    await assert.rejects(waiting, (error: ApiError) => error.kind === 'cancelled');
    assert.equal(progress.length, 1);
  });

  it('waitForStartTask is not_found for an unknown task', async () => {
    await assert.rejects(
      t.client.waitForStartTask('0123456789abcdef0123456789abcdef', { intervalMs: 5 }),
      (error: ApiError) => error.kind === 'not_found',
    );
  });

  it('createConversationStreaming reports the statuses as they stream, ending READY', async () => {
    const seen: string[] = [];
    const last = await t.client.createConversationStreaming(
      { initial_message: { content: [{ type: 'text', text: 'hello' }] } },
      { onProgress: (task) => seen.push(task.status) },
    );
    assert.equal(last.status, 'READY');
    assert.equal(seen[0], 'WORKING');
    assert.ok(seen.length >= 3, `statuses: ${seen.join(',')}`);
  });

  it('searchStartTasks, getStartTasks and countStartTasks find the task by its conversation', async () => {
    const task = await t.client.createConversation({});
    const ready = await t.client.waitForStartTask(task.id, { intervalMs: 5 });
    const conversationId = ready.app_conversation_id;
    assert.ok(conversationId);
    const page = await t.client.searchStartTasks({
      conversationIdEq: dashed(conversationId),
      sortOrder: 'CREATED_AT',
    });
    assert.deepEqual(
      page.items.map((item) => item.id),
      [task.id],
    );
    assert.equal(await t.client.countStartTasks({ conversationIdEq: conversationId }), 1);
    const [byId, missing] = await t.client.getStartTasks([task.id, '0123456789abcdef0123456789abcdef']);
    assert.equal(normalizeUuid(byId?.id ?? ''), task.id);
    assert.equal(missing, null);
    const recent = await t.client.searchStartTasks({ createdAtGte: new Date(Date.now() - 60_000), limit: 5 });
    assert.ok(recent.items.some((item) => item.id === task.id));
  });
});
