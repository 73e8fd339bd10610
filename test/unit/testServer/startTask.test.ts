import assert from 'node:assert/strict';
import type { AppConversation, AppConversationStartTask, TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';

describe('test server: start tasks', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer();
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  async function taskById(id: string): Promise<AppConversationStartTask> {
    const reply = await getJson<(AppConversationStartTask | null)[]>(
      `${server.url}/api/v1/app-conversations/start-tasks?ids=${id}`,
    );
    const task = reply.body[0];
    assert.ok(task);
    return task;
  }

  it('walks a new task through every status to READY and creates the conversation', async () => {
    const started = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {
      selected_repository: 'acme/webapp',
      initial_message: { content: [{ type: 'text', text: 'Fix the flaky login test\nDetails follow' }] },
    });
    assert.equal(started.status, 200);
    assert.equal(started.body.status, 'WORKING');
    assert.match(started.body.id, /^[0-9a-f]{32}$/);

    const seen = new Set<string>();
    const ready = await eventuallyDefined(async () => {
      const task = await taskById(started.body.id);
      seen.add(task.status);
      return task.status === 'READY' || task.status === 'ERROR' ? task : undefined;
    });
    assert.equal(ready.status, 'READY');
    assert.ok(seen.has('WAITING_FOR_SANDBOX'), `statuses seen: ${[...seen].join(', ')}`);
    assert.match(ready.sandbox_id ?? '', /^oh-agent-server-[0-9A-Za-z]+$/);
    assert.ok(ready.agent_server_url?.startsWith(server.url));
    assert.ok(ready.app_conversation_id);

    const conversations = await getJson<(AppConversation | null)[]>(
      `${server.url}/api/v1/app-conversations?ids=${ready.app_conversation_id}`,
    );
    const conversation = conversations.body[0];
    assert.ok(conversation);
    assert.equal(conversation.sandbox_status, 'RUNNING');
    assert.equal(conversation.selected_repository, 'acme/webapp');
    // Saved as "Conversation <hex5>"; the auto-title processor renames it from the message shortly after.
    assert.ok(
      [`Conversation ${conversation.id.slice(0, 5)}`, 'Fix the flaky login test'].includes(
        conversation.title ?? '',
      ),
    );
    const titled = await eventuallyDefined(async () => {
      const reply = await getJson<(AppConversation | null)[]>(
        `${server.url}/api/v1/app-conversations?ids=${conversation.id}`,
      );
      return reply.body[0]?.title === 'Fix the flaky login test' ? reply.body[0] : undefined;
    });
    assert.equal(titled.title, 'Fix the flaky login test');
  });

  it('keeps the "Conversation <hex5>" title when auto-titling is switched off', async () => {
    const started = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {
      processors: [],
      title: 'ignored by the server',
      initial_message: { content: [{ text: 'Write docs' }] },
    });
    const ready = await eventuallyDefined(async () => {
      const task = await taskById(started.body.id);
      return task.status === 'READY' ? task : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await getJson<(AppConversation | null)[]>(
      `${server.url}/api/v1/app-conversations?ids=${ready.app_conversation_id}`,
    );
    assert.equal(reply.body[0]?.title, `Conversation ${(ready.app_conversation_id ?? '').slice(0, 5)}`);
  });

  it('streams every task update as a JSON array from stream-start', async () => {
    const response = await fetch(`${server.url}/api/v1/app-conversations/stream-start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.headers.get('content-type'), 'application/json');
    const tasks = JSON.parse(await response.text()) as AppConversationStartTask[];
    assert.equal(tasks[0]?.status, 'WORKING');
    assert.equal(tasks[tasks.length - 1]?.status, 'READY');
    const order = tasks.map((task) => task.status).filter((status, i, all) => all.indexOf(status) === i);
    assert.deepEqual(order, [
      'WORKING',
      'WAITING_FOR_SANDBOX',
      'PREPARING_REPOSITORY',
      'RUNNING_SETUP_SCRIPT',
      'SETTING_UP_GIT_HOOKS',
      'STARTING_CONVERSATION',
      'READY',
    ]);
  });

  it("names the conversation by the request's conversation_id (dashed or not) and holds it at STARTING_CONVERSATION until released", async () => {
    const wanted = '3f2a9c1e7b6d4e0f9a8b7c6d5e4f3a2b';
    const dashed = `${wanted.slice(0, 8)}-${wanted.slice(8, 12)}-${wanted.slice(12, 16)}-${wanted.slice(16, 20)}-${wanted.slice(20)}`;
    server.holdStarts(true);
    const started = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {
      conversation_id: dashed,
    });
    const held = await eventuallyDefined(async () => {
      const task = await taskById(started.body.id);
      return task.status === 'STARTING_CONVERSATION' ? task : undefined;
    });
    assert.equal(held.app_conversation_id, null);
    server.holdStarts(false);
    const ready = await eventuallyDefined(async () => {
      const task = await taskById(started.body.id);
      return task.status === 'READY' ? task : undefined;
    });
    assert.equal(ready.app_conversation_id, wanted);
    const invalid = await postJson(`${server.url}/api/v1/app-conversations`, {
      conversation_id: 'not-a-uuid',
    });
    assert.equal(invalid.status, 422);
  });

  it('ends in ERROR with the given detail after failNextStartTasks', async () => {
    server.failNextStartTasks('', 1);
    const started = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {});
    const finished = await eventuallyDefined(async () => {
      const task = await taskById(started.body.id);
      return task.status === 'READY' || task.status === 'ERROR' ? task : undefined;
    });
    assert.equal(finished.status, 'ERROR');
    assert.equal(finished.detail, '');
  });

  it('fails the task for an unknown sandbox_id and resumes a paused one', async () => {
    const unknown = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {
      sandbox_id: 'oh-agent-server-doesnotexist',
    });
    const failed = await eventuallyDefined(async () => {
      const task = await taskById(unknown.body.id);
      return task.status === 'ERROR' ? task : undefined;
    });
    assert.match(failed.detail ?? '', /oh-agent-server-doesnotexist/);

    server.state.sandboxes.push({
      id: 'oh-agent-server-paused1',
      created_by_user_id: null,
      sandbox_spec_id: server.state.specs[0]?.id ?? '',
      status: 'PAUSED',
      session_api_key: 'key',
      created_at: '2025-11-15T10:00:00Z',
    });
    const resumed = await postJson<AppConversationStartTask>(`${server.url}/api/v1/app-conversations`, {
      sandbox_id: 'oh-agent-server-paused1',
    });
    const ready = await eventuallyDefined(async () => {
      const task = await taskById(resumed.body.id);
      return task.status === 'READY' ? task : undefined;
    });
    assert.equal(ready.sandbox_id, 'oh-agent-server-paused1');
    assert.equal(server.state.sandboxes.find((s) => s.id === 'oh-agent-server-paused1')?.status, 'RUNNING');
  });

  it('answers 500 for an unknown parent conversation', async () => {
    const reply = await postJson<string>(`${server.url}/api/v1/app-conversations`, {
      parent_conversation_id: '0123456789abcdef0123456789abcdef',
    });
    assert.equal(reply.status, 500);
    assert.equal(reply.body, 'Internal Server Error');
  });
});
