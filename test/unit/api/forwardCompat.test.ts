import assert from 'node:assert/strict';
import { useTestServer } from './harness';

describe('OpenHandsClient: replies from a newer server', () => {
  const t = useTestServer({ seed: { sandboxes: 3, conversations: 5 } });

  it('keeps unknown enum values and extra fields instead of failing', async () => {
    t.server.faults.add({ kind: 'drift' });
    const sandboxes = await t.client.searchSandboxes();
    assert.ok(
      sandboxes.items.some((s) => s.status === 'HIBERNATING'),
      'an unknown status is kept as is',
    );
    const drifted = sandboxes.items[0] as Record<string, unknown>;
    const known = new Set([
      'id',
      'created_by_user_id',
      'sandbox_spec_id',
      'status',
      'session_api_key',
      'exposed_urls',
      'created_at',
      'status_detail',
    ]);
    assert.ok(
      Object.keys(drifted).some((key) => !known.has(key)),
      'extra fields survive parsing',
    );

    const conversations = await t.client.searchConversations();
    assert.ok(conversations.items.length > 0);
  });

  it('drifted start tasks still parse, with the new status kept', async () => {
    const task = await t.client.createConversation({});
    t.server.faults.add({ kind: 'drift', match: { path: '/api/v1/app-conversations/start-tasks' } });
    const [drifted] = await t.client.getStartTasks([task.id]);
    assert.ok(drifted);
    assert.equal(typeof drifted.status, 'string');
  });
});
