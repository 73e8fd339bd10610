import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { useTestServer } from './harness';

const SEED = { sandboxes: 4, conversations: 250, seed: 11 };

/** What search would list for this sandbox: top-level conversations, newest first ids aside. */
function expectedIds(server: TestServer, sandboxId: string): string[] {
  return server.state.conversations
    .filter((c) => c.sandbox_id === sandboxId && !c.parent_conversation_id)
    .map((c) => c.id.replaceAll('-', ''))
    .sort();
}

function searchRequests(server: TestServer): number {
  return server.requests.filter((r) => r.path === '/api/v1/app-conversations/search').length;
}

describe('OpenHandsClient.listSandboxConversations', () => {
  describe('against the OSS server, which ignores sandbox_id__eq', () => {
    const t = useTestServer({ seed: SEED });

    it('filters locally and follows every page', async () => {
      const sandboxId = t.server.state.sandboxes[1]?.id;
      assert.ok(sandboxId);
      const result = await t.client.listSandboxConversations(sandboxId);
      assert.equal(result.complete, true);
      const ids = result.items.map((c) => c.id).sort();
      assert.ok(ids.length > 0);
      assert.deepEqual(ids, expectedIds(t.server, sandboxId));
      assert.equal(searchRequests(t.server), 3, '250 conversations at 100 per page');
      assert.equal(t.server.requests[0]?.query.sandbox_id__eq?.[0], sandboxId);
    });

    it('stops at maxScanned and says the list may be incomplete', async () => {
      const sandboxId = t.server.state.sandboxes[0]?.id;
      assert.ok(sandboxId);
      const result = await t.client.listSandboxConversations(sandboxId, { maxScanned: 100 });
      assert.equal(result.complete, false);
      assert.equal(searchRequests(t.server), 1);
      assert.ok(result.items.every((c) => c.sandbox_id === sandboxId));
    });

    it('an abort stops the scan with a cancelled error', async () => {
      const sandboxId = t.server.state.sandboxes[0]?.id;
      assert.ok(sandboxId);
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(t.client.listSandboxConversations(sandboxId, { signal: controller.signal }), {
        kind: 'cancelled',
      });
    });
  });

  describe('against a newer server that applies sandbox_id__eq', () => {
    const t = useTestServer({ seed: SEED, filterConversationsBySandbox: true });

    it('gets the same conversations in fewer requests', async () => {
      const sandboxId = t.server.state.sandboxes[2]?.id;
      assert.ok(sandboxId);
      const result = await t.client.listSandboxConversations(sandboxId);
      assert.equal(result.complete, true);
      assert.deepEqual(result.items.map((c) => c.id).sort(), expectedIds(t.server, sandboxId));
      assert.equal(searchRequests(t.server), 1);
    });

    it('an unknown sandbox has no conversations', async () => {
      const result = await t.client.listSandboxConversations('oh-agent-server-nope');
      assert.deepEqual(result, { items: [], complete: true });
    });
  });
});
