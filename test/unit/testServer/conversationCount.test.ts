// `GET /api/v1/app-conversations/count` as openhands-ai 1.11 answers it (reference §5): a bare integer,
// five filters (title and the created/updated bounds, each `__lt` strict), sub-conversations counted,
// `sandbox_id__eq` applied only by newer servers. The Refresh command holds one count against another.
import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { getJson, startFastServer } from './helpers';

describe('test server: the conversation count', () => {
  let server: TestServer;
  let filtering: TestServer;

  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 4, conversations: 12, seed: 3 } });
    filtering = await startFastServer({
      seed: { sandboxes: 4, conversations: 12, seed: 3 },
      filterConversationsBySandbox: true,
    });
  });
  after(async () => {
    await server.close();
    await filtering.close();
  });
  beforeEach(() => {
    server.reset();
    filtering.reset();
  });

  const count = async (on: TestServer, query = ''): Promise<number> => {
    const reply = await getJson<number>(`${on.url}/api/v1/app-conversations/count${query}`);
    assert.equal(reply.status, 200);
    return reply.body;
  };

  it('counts sub-conversations too, which the search hides', async () => {
    const all = server.state.conversations;
    assert.ok(
      all.some((c) => c.parent_conversation_id),
      'the seed has a sub-conversation',
    );
    assert.equal(await count(server), all.length);
  });

  it('created_at__lt is strict, with the microseconds the server keeps', async () => {
    const [newest] = [...server.state.conversations].sort((a, b) => b.created_at.localeCompare(a.created_at));
    assert.ok(newest);
    const all = server.state.conversations.length;
    assert.equal(await count(server, `?created_at__lt=${encodeURIComponent(newest.created_at)}`), all - 1);
    const later = new Date(Date.parse(newest.created_at) + 1).toISOString();
    assert.equal(await count(server, `?created_at__lt=${encodeURIComponent(later)}`), all);
  });

  it('takes the title filter; sandbox_id__eq only on a newer server', async () => {
    const sample = server.state.conversations[0];
    assert.ok(sample?.title);
    const titled = server.state.conversations.filter((c) => c.title?.includes(sample.title ?? '')).length;
    assert.equal(await count(server, `?title__contains=${encodeURIComponent(sample.title)}`), titled);
    const inSandbox = `?sandbox_id__eq=${encodeURIComponent(sample.sandbox_id)}`;
    assert.equal(
      await count(server, inSandbox),
      server.state.conversations.length,
      'the OSS server ignores it',
    );
    assert.equal(
      await count(filtering, inSandbox),
      filtering.state.conversations.filter((c) => c.sandbox_id === sample.sandbox_id).length,
    );
  });

  it('refuses a malformed bound with a 422', async () => {
    const reply = await getJson(`${server.url}/api/v1/app-conversations/count?created_at__lt=yesterday`);
    assert.equal(reply.status, 422);
  });
});
