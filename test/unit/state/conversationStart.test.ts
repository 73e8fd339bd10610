// A conversation's start and the messages typed meanwhile, over real HTTP against the test server's
// pending-messages route (OpenHands 1.11): queued on `task-<hex>`, the limit of ten said before a
// request is made, every refusal of the server (its 429, a route it lacks, a 400 or 422, a reply that
// is not a queued message) said in words with no secret and no control character in them.
import assert from 'node:assert/strict';
import { MAX_QUEUED_MESSAGES, OpenHandsClient } from '../../../src/api';
import { ConversationStart, type QueueOutcome } from '../../../src/state/conversationStart';
import { useTestServer } from '../api/harness';

const API_KEY = 'sk-oh-start-queue-secret-0042';
const ROUTE = /\/pending-messages$/;

describe('ConversationStart: messages queued while a conversation starts', () => {
  const t = useTestServer({ seed: { sandboxes: 1, conversations: 1 } });
  let client: OpenHandsClient;
  beforeEach(() => {
    client = t.newClient({ apiKey: API_KEY });
  });

  const startFor = (taskId = 'a'.repeat(32)) => {
    const start = new ConversationStart(
      { queueMessage: (id, text) => client.manage.queueMessage(id, text) },
      'Starting…',
    );
    start.taskCreated(taskId);
    return start;
  };
  const queuedRequests = () => t.server.requests.filter((r) => ROUTE.test(r.path));
  const refusal = (outcome: QueueOutcome): string => {
    assert.equal(outcome.kind, 'refused', JSON.stringify(outcome));
    return outcome.kind === 'refused' ? outcome.reason : '';
  };
  const clean = (reason: string) => {
    assert.ok(!reason.includes(API_KEY), `no key in: ${reason}`);
    assert.ok(![...reason].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), reason);
    assert.ok(reason.length < 1200, `bounded: ${reason.length} characters`);
  };

  it('queues on the start task, in order; the eleventh is refused here, in words, without a request', async () => {
    const start = startFor();
    const outcomes: QueueOutcome[] = [];
    for (let i = 1; i <= MAX_QUEUED_MESSAGES; i++) outcomes.push(await start.queue(`message ${i}`));
    assert.deepEqual(
      outcomes.map((o) => (o.kind === 'queued' ? o.position : o.kind)),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.deepEqual(
      t.server.state.pendingMessages.map((m) => m.conversation_id),
      Array(MAX_QUEUED_MESSAGES).fill(`task-${'a'.repeat(32)}`),
    );
    const reason = refusal(await start.queue('one too many'));
    assert.equal(
      reason,
      'OpenHands holds at most 10 messages while a conversation starts. Send this one once it has started.',
    );
    assert.equal(queuedRequests().length, MAX_QUEUED_MESSAGES, 'no request for the eleventh');
  });

  it("the server's own 429 (the queue filled from elsewhere) says the limit", async () => {
    for (let i = 0; i < MAX_QUEUED_MESSAGES; i++)
      await client.manage.queueMessage(`task-${'b'.repeat(32)}`, `from the web UI ${i}`);
    const reason = refusal(await startFor('b'.repeat(32)).queue('mine'));
    assert.match(reason, /already holds 10 queued messages for this conversation, its limit/);
    clean(reason);
  });

  it('a server without the route (404 Not Found, or 405) says it cannot hold messages: never an error', async () => {
    for (const status of [404, 405]) {
      t.server.faults.clear();
      t.server.faults.add({
        kind: 'status',
        status,
        body: { detail: status === 404 ? 'Not Found' : 'Method Not Allowed' },
        match: { path: ROUTE },
      });
      const reason = refusal(await startFor().queue('hello'));
      assert.equal(
        reason,
        'This OpenHands server cannot hold messages while a conversation starts. Send it once the conversation has started.',
      );
    }
  });

  it('a 400 or 422 with hostile words is said without the key or control characters, bounded', async () => {
    const hostile = `Invalid content \u001b[31m${API_KEY}\u0007 ${'x'.repeat(100_000)}`;
    for (const status of [400, 422]) {
      t.server.faults.clear();
      t.server.faults.add({ kind: 'status', status, body: { detail: hostile }, match: { path: ROUTE } });
      const reason = refusal(await startFor().queue('hello'));
      assert.match(reason, /^The server did not queue it: /);
      clean(reason);
    }
  });

  it('a 201 that is not a queued message is refused in words, not taken as queued', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 201,
      body: { id: 7, queued: 'yes', note: API_KEY },
      match: { path: ROUTE },
    });
    const reason = refusal(await startFor().queue('hello'));
    assert.match(reason, /^The server did not queue it: /);
    clean(reason);
  });

  it('a message typed before the server named the task waits for it; a start that failed meanwhile refuses it', async () => {
    const start = new ConversationStart(
      { queueMessage: (id, text) => client.manage.queueMessage(id, text) },
      'Starting…',
    );
    const waiting = start.queue('typed at once');
    start.failed('The conversation could not be started: no sandbox.');
    assert.deepEqual(await waiting, {
      kind: 'refused',
      reason: 'The conversation could not be started: no sandbox.',
    });
    assert.equal(queuedRequests().length, 0);
  });

  it('once the start is over nothing more is queued (the server would never deliver it)', async () => {
    const start = startFor();
    start.started();
    assert.deepEqual(await start.queue('late'), { kind: 'notStarting' });
    assert.equal(queuedRequests().length, 0);
    assert.deepEqual(start.view().phase, 'started');
  });
});
