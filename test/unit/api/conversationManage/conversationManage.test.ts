// Rename, delete, download and a queued message over real HTTP against the test server: what
// OpenHands 1.11 answers, each refusal as an ApiError that says why, and a server before 1.11 (no
// such routes) as "not offered", never an error.
import assert from 'node:assert/strict';
import { ApiError, MAX_QUEUED_MESSAGES } from '../../../../src/api';
import { eventually } from '../../../shared/eventually';
import { zipEntries } from '../../../shared/zipEntries';
import { useTestServer } from '../harness';

const SEED = { sandboxes: 4, conversations: 6 };
const UNKNOWN = '0123456789ab4def8123456789abcdef';

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, not ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

describe('OpenHandsClient.manage', () => {
  describe('OpenHands 1.11', () => {
    const t = useTestServer({ seed: SEED });

    it('lists the four routes from /openapi.json', async () => {
      assert.deepEqual(await t.client.manage.offers(), {
        rename: true,
        delete: true,
        download: true,
        queueMessage: true,
      });
    });

    it('renames: PATCH {title}, the reply and the next read carry the new title', async () => {
      const conversation = t.server.state.conversations[0]!;
      const renamed = await t.client.manage.rename(conversation.id, '  Fix the flaky test  ');
      assert.ok(renamed.offered);
      assert.equal(renamed.value.title, 'Fix the flaky test');
      const patch = t.server.requests.find((r) => r.method === 'PATCH');
      assert.deepEqual(patch?.body, { title: 'Fix the flaky test' });
      const [read] = await t.client.getConversations([conversation.id]);
      assert.equal(read?.title, 'Fix the flaky test');
    });

    it('refuses an empty or overlong title before sending anything', async () => {
      const id = t.server.state.conversations[0]!.id;
      await assert.rejects(() => t.client.manage.rename(id, '   '), /cannot be empty/);
      await assert.rejects(() => t.client.manage.rename(id, 'x'.repeat(201)), /at most 200/);
      assert.equal(t.server.requests.length, 0);
    });

    it("a missing conversation is the server's 404, not 'not offered'", async () => {
      const renamed = await rejection(t.client.manage.rename(UNKNOWN, 'x'));
      assert.equal(renamed.kind, 'not_found');
      assert.match(renamed.message, /unknown_app_conversation/);
      const deleted = await rejection(t.client.manage.delete(UNKNOWN));
      assert.equal(deleted.kind, 'not_found');
      assert.match(deleted.message, /Conversation not found/);
      const downloaded = await rejection(t.client.manage.download(UNKNOWN));
      assert.equal(downloaded.kind, 'not_found');
    });

    it('a 422 (a title the server refuses) says what the server said', async () => {
      t.server.faults.add({
        kind: 'status',
        status: 422,
        body: {
          detail: [{ loc: ['body', 'title'], msg: 'Input should be a valid string', type: 'string_type' }],
        },
        match: { method: 'PATCH' },
      });
      const error = await rejection(t.client.manage.rename(t.server.state.conversations[0]!.id, 'x'));
      assert.equal(error.kind, 'validation');
      assert.match(error.message, /valid string/);
    });

    it('deletes: the conversation goes, and its sandbox once no other conversation uses it', async () => {
      const state = t.server.state;
      const bySandbox = new Map<string, number>();
      for (const c of state.conversations)
        bySandbox.set(c.sandbox_id, (bySandbox.get(c.sandbox_id) ?? 0) + 1);
      const own = state.conversations.find(
        (c) => bySandbox.get(c.sandbox_id) === 1 && !c.parent_conversation_id,
      );
      const shared = state.conversations.find(
        (c) => (bySandbox.get(c.sandbox_id) ?? 0) > 1 && !c.parent_conversation_id,
      );
      assert.ok(own && shared, 'the seed has an own and a shared sandbox');
      assert.deepEqual(await t.client.manage.delete(shared.id), { offered: true, value: { success: true } });
      assert.deepEqual(await t.client.manage.delete(own.id), { offered: true, value: { success: true } });
      assert.deepEqual(await t.client.getConversations([own.id, shared.id]), [null, null]);
      await waitFor(() => !state.sandboxes.some((s) => s.id === own.sandbox_id));
      assert.ok(
        state.sandboxes.some((s) => s.id === shared.sandbox_id),
        'the shared sandbox stays',
      );
    });

    it("downloads the server's zip: meta.json and one file per event", async () => {
      const conversation = t.server.state.conversations[0]!;
      const events = t.server.agent.events(conversation.id);
      const zip = await t.client.manage.download(conversation.id);
      assert.ok(zip.offered);
      const entries = zipEntries(zip.value);
      assert.equal(entries[0]?.name, 'meta.json');
      assert.equal(JSON.parse(entries[0]!.bytes.toString('utf8')).title, conversation.title);
      assert.equal(entries.length, events.length + 1);
      assert.deepEqual(JSON.parse(entries[1]!.bytes.toString('utf8')), JSON.parse(JSON.stringify(events[0])));
    });

    it('refuses a zip over the cap, and a cut body, in words; no bytes come back', async () => {
      const conversation = t.server.state.conversations[0]!;
      t.server.agent.seedEvents(conversation.id, 300);
      const whole = await t.client.manage.download(conversation.id);
      assert.ok(whole.offered);
      const over = await rejection(
        t.client.manage.download(conversation.id, { maxBytes: whole.value.length - 1 }),
      );
      assert.equal(over.overLimitBytes, whole.value.length - 1);
      assert.match(over.message, /larger than/i);

      t.server.faults.add({
        kind: 'cut',
        afterBytes: Math.floor(whole.value.length / 2),
        match: { path: /\/download$/ },
      });
      const cut = await rejection(t.client.manage.download(conversation.id));
      assert.ok(['network', 'invalid_response'].includes(cut.kind), cut.kind);
    });

    it('a 200 that is not a whole zip is refused, not saved', async () => {
      t.server.faults.add({
        kind: 'status',
        status: 200,
        body: 'PK\u0003\u0004 half a zip',
        contentType: 'application/zip',
        match: { path: /\/download$/ },
      });
      const error = await rejection(t.client.manage.download(t.server.state.conversations[0]!.id));
      assert.equal(error.kind, 'invalid_response');
      assert.match(error.message, /not a whole zip/);
    });

    it('queues a message for a start task; the start delivers it to the agent, in order', async () => {
      const task = await t.client.createConversation({});
      const first = await t.client.manage.queueMessage(`task-${task.id}`, 'first');
      const second = await t.client.manage.queueMessage(`task-${task.id}`, 'second');
      assert.deepEqual(
        [first, second].map((reply) => reply.offered && [reply.value.queued, reply.value.position]),
        [
          [true, 1],
          [true, 2],
        ],
      );
      const ready = await t.client.waitForStartTask(task.id, { intervalMs: 10 });
      const id = ready.app_conversation_id!;
      await waitFor(() => userTexts(t.server.agent.events(id)).length === 2);
      assert.deepEqual(userTexts(t.server.agent.events(id)), ['first', 'second']);
      assert.equal(t.server.state.pendingMessages.length, 0);
    });

    it(`the ${MAX_QUEUED_MESSAGES + 1}th queued message is refused with the limit in words`, async () => {
      for (let i = 0; i < MAX_QUEUED_MESSAGES; i++) await t.client.manage.queueMessage('task-abc', `m${i}`);
      const error = await rejection(t.client.manage.queueMessage('task-abc', 'one too many'));
      assert.equal(error.kind, 'rate_limited');
      assert.match(error.message, /already holds 10 queued messages/);
    });
  });

  describe('a server before 1.11 (none of these routes)', () => {
    const t = useTestServer({ seed: SEED, routesSince1_11: false });

    it('its /openapi.json lists none of them', async () => {
      assert.deepEqual(await t.client.manage.offers(), {
        rename: false,
        delete: false,
        download: false,
        queueMessage: false,
      });
    });

    it('each call answers "not offered" (405 for PATCH/DELETE/POST, the web page for the GET)', async () => {
      const id = t.server.state.conversations[0]!.id;
      assert.deepEqual(await t.client.manage.rename(id, 'x'), { offered: false });
      assert.deepEqual(await t.client.manage.delete(id), { offered: false });
      assert.deepEqual(await t.client.manage.download(id), { offered: false });
      assert.deepEqual(await t.client.manage.queueMessage(id, 'x'), { offered: false });
      assert.ok(
        t.server.state.conversations.some((c) => c.id === id),
        'nothing was deleted',
      );
    });
  });

  describe('a server that hides /openapi.json', () => {
    const t = useTestServer();

    it('offers are unknown (each call finds out for itself), not "none"', async () => {
      t.server.faults.add({ kind: 'status', status: 404, match: { path: '/openapi.json' } });
      assert.equal(await t.client.manage.offers(), undefined);
    });
  });
});

function userTexts(events: readonly { kind?: string; source?: string; llm_message?: unknown }[]): string[] {
  return events.flatMap((event) => {
    if (event.kind !== 'MessageEvent' || event.source !== 'user') return [];
    const message = event.llm_message as { content?: { text?: string }[] } | undefined;
    return (message?.content ?? []).map((part) => part.text ?? '');
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  await eventually(condition, (done) => done, { description: 'the server to get there' });
}
