// Behaviour the real OpenHands 1.11.0 showed under test:real, now emulated by the test server, and
// what the client makes of it.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import { useTestServer } from './harness';

describe('OpenHandsClient: what the real OpenHands 1.11.0 does (seen by test:real)', () => {
  const t = useTestServer({ seed: { sandboxes: 2, conversations: 4, seed: 3 } });

  it('start tasks read back without a time zone are taken as UTC', async () => {
    const task = await t.client.createConversation({});
    assert.match(task.created_at ?? '', /Z$/);
    const raw = await fetch(`${t.server.url}/api/v1/app-conversations/start-tasks?ids=${task.id}`);
    const [wire] = (await raw.json()) as { created_at: string }[];
    assert.doesNotMatch(wire?.created_at ?? '', /Z$/, 'the server sends a naive datetime');
    const [read] = await t.client.getStartTasks([task.id]);
    assert.equal(read?.created_at, `${wire?.created_at}Z`);
    assert.equal(Date.parse(read?.created_at ?? ''), Date.parse(task.created_at ?? ''));
  });

  it('a conversation id that is not a UUID is a 400 with the server message, not a 422', async () => {
    await assert.rejects(t.client.getConversations(['not-a-uuid']), (error: ApiError) => {
      assert.equal(error.status, 400);
      assert.match(error.message, /Invalid UUID format for ids: \['not-a-uuid'\]/);
      return true;
    });
  });

  it('the status routes answer: GET /alive', async () => {
    const reply = await fetch(`${t.server.url}/alive`);
    assert.deepEqual(await reply.json(), { status: 'ok' });
  });
});
