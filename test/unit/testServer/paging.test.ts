import assert from 'node:assert/strict';
import type { AppConversation, Page, SandboxInfo, TestServer } from '../../server';
import { getJson, startFastServer } from './helpers';

describe('test server: paging and batch limits', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 4, conversations: 10, seed: 3 } });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('gives next_page_id only when another item exists', async () => {
    const exact = await getJson<Page<SandboxInfo>>(`${server.url}/api/v1/sandboxes/search?limit=4`);
    assert.equal(exact.body.items.length, 4);
    assert.equal(exact.body.next_page_id, null);

    const first = await getJson<Page<SandboxInfo>>(`${server.url}/api/v1/sandboxes/search?limit=3`);
    assert.equal(first.body.next_page_id, '3');
    const second = await getJson<Page<SandboxInfo>>(
      `${server.url}/api/v1/sandboxes/search?limit=3&page_id=3`,
    );
    assert.equal(second.body.items.length, 1);
    assert.equal(second.body.next_page_id, null);
    assert.notEqual(second.body.items[0]?.id, first.body.items[0]?.id);

    const restarted = await getJson<Page<SandboxInfo>>(
      `${server.url}/api/v1/sandboxes/search?limit=3&page_id=abc`,
    );
    assert.equal(restarted.body.items[0]?.id, first.body.items[0]?.id);
  });

  it('lists newest first and hides sub-conversations unless asked', async () => {
    const page = await getJson<Page<AppConversation>>(`${server.url}/api/v1/app-conversations/search`);
    const created = page.body.items.map((item) => item.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    assert.ok(page.body.items.every((item) => item.parent_conversation_id === null));
    const all = await getJson<Page<AppConversation>>(
      `${server.url}/api/v1/app-conversations/search?include_sub_conversations=true`,
    );
    const count = await getJson<number>(`${server.url}/api/v1/app-conversations/count`);
    assert.equal(count.body, 10);
    assert.equal(all.body.items.length, 10);
    assert.ok(page.body.items.length < 10);
  });

  it('limits as openhands-ai 1.11.0: 422 above limit 100, 400 for 100 conversation ids or 101 spec ids', async () => {
    const tooLarge = await getJson<{ detail: { type: string; ctx: unknown }[] }>(
      `${server.url}/api/v1/sandboxes/search?limit=101`,
    );
    assert.equal(tooLarge.status, 422);
    assert.equal(tooLarge.body.detail[0]?.type, 'less_than_equal');
    assert.deepEqual(tooLarge.body.detail[0]?.ctx, { le: 100 });

    const hundredIds = Array.from({ length: 100 }, (_, i) => `ids=${i.toString(16).padStart(32, '0')}`).join(
      '&',
    );
    const tooMany = await getJson(`${server.url}/api/v1/app-conversations?${hundredIds}`);
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body, { detail: 'Too many ids requested. Maximum is 99.' });
    const notUuid = await getJson(`${server.url}/api/v1/app-conversations?ids=xyz&ids=${'0'.repeat(32)}`);
    assert.equal(notUuid.status, 400);
    assert.deepEqual(notUuid.body, { detail: "Invalid UUID format for ids: ['xyz']" });
    // sandboxes and start tasks take any number of ids
    assert.equal(
      (await getJson(`${server.url}/api/v1/app-conversations/start-tasks?${hundredIds}`)).status,
      200,
    );
    const sandboxIds = Array.from({ length: 100 }, (_, i) => `id=s${i}`).join('&');
    assert.equal((await getJson(`${server.url}/api/v1/sandboxes?${sandboxIds}`)).status, 200);
    const ninetyNine = hundredIds.split('&').slice(1).join('&');
    const batch = await getJson<unknown[]>(`${server.url}/api/v1/app-conversations?${ninetyNine}`);
    assert.equal(batch.body.length, 99);

    const specIds = Array.from({ length: 100 }, () => 'id=x').join('&');
    assert.equal((await getJson(`${server.url}/api/v1/sandbox-specs?${specIds}`)).status, 200);
    const tooManySpecs = await getJson(`${server.url}/api/v1/sandbox-specs?${specIds}&id=y`);
    assert.equal(tooManySpecs.status, 400);
    assert.deepEqual(tooManySpecs.body, {
      detail: 'Cannot request more than 100 sandbox specs at once, got 101',
    });
  });

  it('returns batch results in input order with null for unknown ids, accepting dashed UUIDs', async () => {
    const conversation = server.state.conversations[0];
    assert.ok(conversation);
    const hex = conversation.id;
    const dashed = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const reply = await getJson<(AppConversation | null)[]>(
      `${server.url}/api/v1/app-conversations?ids=${'0'.repeat(32)}&ids=${dashed.toUpperCase()}`,
    );
    assert.equal(reply.body[0], null);
    assert.equal(reply.body[1]?.id, hex);
  });
});
