import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConversation, ExecutionStatus, SandboxRecord, TestServer } from '../../server';
import type { AgentEvent } from '../../server/agentServer/events';
import { dashedUuid } from '../../server/ids';
import { getJson, postJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';
import { FIXTURES } from '../../shared/repository';

const APP_KEY = 'app-server-key';
const ACTION_EVENT = 'openhands.sdk.event.llm_convertible.action.ActionEvent';

interface Target {
  hex: string;
  sandbox: SandboxRecord;
  base: string;
  headers: Record<string, string>;
}

interface EventPage {
  items: AgentEvent[];
  next_page_id: string | null;
}

function runningSandbox(server: TestServer): SandboxRecord {
  const sandbox = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
  assert.ok(sandbox, 'the seed has a running sandbox');
  return sandbox;
}

function targetOf(server: TestServer, hex: string, sandbox: SandboxRecord): Target {
  return {
    hex,
    sandbox,
    base: `${server.url}/__sandboxes/${sandbox.id}/agent-server/api/conversations/${hex}`,
    headers: { 'X-Session-API-Key': sandbox.session_api_key },
  };
}

/** A new conversation (empty agent log) in a running sandbox; gone again after reset(). */
function freshConversation(server: TestServer, status: ExecutionStatus = 'idle'): Target {
  const sandbox = runningSandbox(server);
  const template = server.state.conversations[0];
  assert.ok(template);
  const hex = randomUUID().replace(/-/g, '');
  server.state.conversations.push({
    ...template,
    id: hex,
    sandbox_id: sandbox.id,
    parent_conversation_id: null,
    execution_status: status,
  });
  return targetOf(server, hex, sandbox);
}

/** A seeded conversation whose sandbox is running. */
function seededConversation(server: TestServer, status?: ExecutionStatus): Target {
  const sandbox = runningSandbox(server);
  const conversation = server.state.conversations.find(
    (candidate) =>
      candidate.sandbox_id === sandbox.id && (status === undefined || candidate.execution_status === status),
  );
  assert.ok(conversation, `a seeded ${status ?? ''} conversation in a running sandbox`);
  return targetOf(server, conversation.id, sandbox);
}

const kinds = (events: readonly AgentEvent[]): string[] =>
  events.map((event) =>
    event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'execution_status'
      ? `status:${String(event['value'])}`
      : event.kind === 'ActionEvent'
        ? `action:${String(event['tool_name'])}`
        : event.kind,
  );

const statusOf = (server: TestServer, hex: string): ExecutionStatus | undefined =>
  server.state.conversations.find((conversation) => conversation.id === hex)?.execution_status;

const untilStatus = (server: TestServer, hex: string, status: ExecutionStatus): Promise<true> =>
  eventuallyDefined(async () => (statusOf(server, hex) === status ? true : undefined));

describe('test server: agent-server double (REST)', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 3, conversations: 10, seed: 5 },
      sessionApiKey: APP_KEY,
      timings: { agentStepMs: 0 },
    });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('wants the sandbox key, not the app key; 503 while the sandbox is not running', async () => {
    const target = seededConversation(server);
    const missing = await getJson<{ detail: string }>(target.base);
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, { detail: 'Unauthorized' });
    const appKey = await getJson(target.base, { headers: { 'X-Session-API-Key': APP_KEY } });
    assert.equal(appKey.status, 401);

    const info = await getJson<Record<string, unknown>>(target.base, { headers: target.headers });
    assert.equal(info.status, 200);
    assert.equal(info.body['id'], dashedUuid(target.hex));
    assert.deepEqual(
      info.body['workspace'],
      { working_dir: '.', kind: 'LocalWorkspace' },
      'a process sandbox',
    );
    assert.equal(info.body['execution_status'], statusOf(server, target.hex));
    assert.equal(info.body['security_analyzer'] !== undefined, true, 'a response model keeps every field');
    const byDashedId = await getJson(target.base.replace(target.hex, dashedUuid(target.hex)), {
      headers: target.headers,
    });
    assert.deepEqual(byDashedId.body, info.body);

    const unknown = randomUUID();
    const base = target.base.replace(target.hex, unknown);
    assert.deepEqual((await getJson(base, { headers: target.headers })).body, { detail: 'Not Found' });
    assert.deepEqual((await getJson(`${base}/events/search`, { headers: target.headers })).body, {
      detail: `Conversation not found: ${unknown}`,
    });
    const list = await getJson<(Record<string, unknown> | null)[]>(
      `${target.base.replace(`/${target.hex}`, '')}?ids=${target.hex}&ids=${unknown}`,
      { headers: target.headers },
    );
    assert.equal(list.body[0]?.['id'], dashedUuid(target.hex));
    assert.equal(list.body[1], null);

    target.sandbox.status = 'PAUSED';
    const paused = await getJson<string>(target.base, { headers: target.headers });
    assert.equal(paused.status, 503);
    assert.equal(paused.body, 'Sandbox is not running');
  });

  it('pages search in storage order: next_page_id is the next page’s first item, DESC walks back', async () => {
    const target = seededConversation(server);
    server.agent.seedEvents(target.hex, 25);
    const stored = server.agent.events(target.hex);
    const search = (query: string) =>
      getJson<EventPage>(`${target.base}/events/search?${query}`, { headers: target.headers });

    const first = await search('limit=10');
    assert.deepEqual(
      first.body.items.map((event) => event.id),
      stored.slice(0, 10).map((event) => event.id),
    );
    assert.equal(first.body.next_page_id, stored[10]?.id);
    const second = await search(`limit=10&page_id=${first.body.next_page_id}`);
    assert.equal(second.body.items[0]?.id, stored[10]?.id, 'next_page_id is inclusive');
    const last = await search(`limit=10&page_id=${second.body.next_page_id}`);
    assert.equal(last.body.items.length, 5);
    assert.equal(last.body.next_page_id, null);

    const descending = await search('limit=10&sort_order=TIMESTAMP_DESC');
    assert.deepEqual(
      descending.body.items.map((event) => event.id),
      stored
        .slice(15)
        .reverse()
        .map((event) => event.id),
    );
    assert.equal(descending.body.next_page_id, stored[14]?.id);
    const restarted = await search(`limit=2&page_id=${randomUUID()}`);
    assert.equal(restarted.body.items[0]?.id, stored[0]?.id, 'an unknown page_id restarts');

    const tooMany = await getJson<Record<string, unknown>>(`${target.base}/events/search?limit=101`, {
      headers: target.headers,
    });
    assert.equal(tooMany.status, 500);
    assert.equal(tooMany.body['detail'], 'Internal Server Error');
    assert.equal(tooMany.body['exception'], '');
    assert.equal(typeof tooMany.body['error_id'], 'string');
    assert.equal((await search('limit=0')).status, 422);
  });

  it('filters by module-qualified kind, source and timestamp; count takes the same filters', async () => {
    const target = seededConversation(server);
    const stored = server.agent.events(target.hex);
    const count = async (query: string) =>
      (await getJson<number>(`${target.base}/events/count?${query}`, { headers: target.headers })).body;

    assert.equal(await count(''), stored.length);
    assert.equal(await count('kind=ActionEvent'), 0, 'a bare class name matches nothing');
    const actions = stored.filter((event) => event.kind === 'ActionEvent');
    assert.ok(actions.length > 3);
    assert.equal(await count(`kind=${ACTION_EVENT}`), actions.length);
    assert.equal(await count('source=user'), stored.filter((event) => event.source === 'user').length);
    const page = await getJson<EventPage>(`${target.base}/events/search?kind=${ACTION_EVENT}&limit=2`, {
      headers: target.headers,
    });
    assert.deepEqual(
      page.body.items.map((event) => event.id),
      actions.slice(0, 2).map((event) => event.id),
    );
    assert.equal(page.body.next_page_id, actions[2]?.id);
    const boundary = stored[6]?.timestamp ?? '';
    assert.equal(
      await count(`timestamp__gte=${encodeURIComponent(boundary)}`),
      stored.filter((event) => event.timestamp >= boundary).length,
    );
  });

  it('stores a message, runs the script on /run (409 while running), and the app view follows', async () => {
    const target = freshConversation(server);
    server.agent.setOptions({ agentStepMs: 15 });
    const sent = await postJson(
      `${target.base}/events`,
      { role: 'user', content: [{ type: 'text', text: 'Fix it' }] },
      target.headers,
    );
    assert.deepEqual(sent.body, { success: true });
    assert.deepEqual(kinds(server.agent.events(target.hex)), [
      'SystemPromptEvent',
      'MessageEvent',
      'ConversationStateUpdateEvent',
    ]);
    assert.equal(statusOf(server, target.hex), 'idle', 'run defaults to false');

    assert.deepEqual((await postJson(`${target.base}/run`, {}, target.headers)).body, { success: true });
    const again = await postJson(`${target.base}/run`, {}, target.headers);
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      detail: 'Conversation already running. Wait for completion or pause first.',
    });
    const appView = await getJson<AppConversation[]>(
      `${server.url}/api/v1/app-conversations?ids=${target.hex}`,
      { headers: { 'X-Session-API-Key': APP_KEY } },
    );
    assert.equal(appView.body[0]?.execution_status, 'running');

    await untilStatus(server, target.hex, 'finished');
    const events = server.agent.events(target.hex);
    const run = kinds(events)
      .slice(3)
      .filter((kind) => kind !== 'ConversationStateUpdateEvent');
    assert.deepEqual(run, [
      'status:running',
      'action:think',
      'ObservationEvent',
      'action:terminal',
      'ObservationEvent',
      'action:file_editor',
      'ObservationEvent',
      'action:finish',
      'ObservationEvent',
      'status:finished',
    ]);
    assert.ok(!events.some((event) => event.kind === 'StreamingDeltaEvent'), 'deltas are never stored');
    // Each stats update is stamped before the action stored just ahead of it.
    events.forEach((event, index) => {
      if (event.kind !== 'ActionEvent') return;
      const stats = events[index + 1];
      assert.equal(stats?.['key'], 'stats');
      assert.ok((stats?.timestamp ?? '') < event.timestamp);
    });
    const terminal = events.find(
      (event) => event['tool_name'] === 'terminal' && event.kind === 'ObservationEvent',
    );
    assert.equal((terminal?.['observation'] as { exit_code?: number }).exit_code, 0);
    const edit = events.find(
      (event) => event['tool_name'] === 'file_editor' && event.kind === 'ObservationEvent',
    );
    const editObservation = edit?.['observation'] as { old_content?: string; new_content?: string };
    assert.notEqual(editObservation.old_content, editObservation.new_content);

    const final = await getJson<{ response: string }>(`${target.base}/agent_final_response`, {
      headers: target.headers,
    });
    assert.match(final.body.response, /^Done/);
    const finishedView = await getJson<AppConversation[]>(
      `${server.url}/api/v1/app-conversations?ids=${target.hex}`,
      { headers: { 'X-Session-API-Key': APP_KEY } },
    );
    assert.equal(finishedView.body[0]?.execution_status, 'finished');

    const before = events.length;
    assert.equal((await postJson(`${target.base}/run`, {}, target.headers)).status, 200);
    assert.equal(
      server.agent.events(target.hex).length,
      before,
      '/run on a finished conversation is a no-op',
    );
    await postJson(
      `${target.base}/events`,
      { role: 'user', content: [{ type: 'text', text: 'More' }] },
      target.headers,
    );
    assert.deepEqual(kinds(server.agent.events(target.hex).slice(before, before + 2)), [
      'status:idle',
      'MessageEvent',
    ]);
  });

  it('an LLM that fails ends the run as the SDK does (error + ConversationErrorEvent); a silent one stays "running" with no event (issue 36)', async () => {
    const failing = freshConversation(server);
    const detail =
      'litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided';
    server.agent.setOptions({
      agentStepMs: 5,
      llm: { kind: 'fail', code: 'LLMAuthenticationError', detail },
    });
    const go = { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true };
    await postJson(`${failing.base}/events`, go, failing.headers);
    await untilStatus(server, failing.hex, 'error');
    const ended = server.agent.events(failing.hex);
    assert.deepEqual(kinds(ended.slice(-3)), ['status:running', 'status:error', 'ConversationErrorEvent']);
    assert.equal(ended.at(-1)?.['code'], 'LLMAuthenticationError');
    assert.equal(ended.at(-1)?.['detail'], detail);
    assert.equal(ended.at(-1)?.['source'], 'environment');

    const silent = freshConversation(server);
    server.agent.setOptions({ llm: 'silent' });
    await postJson(`${silent.base}/events`, go, silent.headers);
    await untilStatus(server, silent.hex, 'running');
    const before = server.agent.events(silent.hex).length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(statusOf(server, silent.hex), 'running');
    assert.equal(server.agent.events(silent.hex).length, before, 'no event while the LLM says nothing');
    assert.deepEqual((await postJson(`${silent.base}/pause`, {}, silent.headers)).body, { success: true });
    assert.equal(statusOf(server, silent.hex), 'paused');
  });

  it('pauses between steps (paused + PauseEvent) and resumes where the run stopped', async () => {
    const target = freshConversation(server);
    server.agent.setOptions({ agentStepMs: 20 });
    await postJson(
      `${target.base}/events`,
      { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true },
      target.headers,
    );
    await eventuallyDefined(async () =>
      server.agent.events(target.hex).some((event) => event.kind === 'ObservationEvent') ? true : undefined,
    );
    assert.deepEqual((await postJson(`${target.base}/pause`, {}, target.headers)).body, { success: true });
    const paused = server.agent.events(target.hex);
    assert.deepEqual(kinds(paused.slice(-2)), ['status:paused', 'PauseEvent']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(server.agent.events(target.hex).length, paused.length, 'nothing happens while paused');

    await postJson(`${target.base}/run`, {}, target.headers);
    await untilStatus(server, target.hex, 'finished');
    const actions = kinds(server.agent.events(target.hex)).filter((kind) => kind.startsWith('action:'));
    assert.deepEqual(actions, ['action:think', 'action:terminal', 'action:file_editor', 'action:finish']);
    const unknown = await postJson(
      `${target.base.replace(target.hex, randomUUID())}/pause`,
      {},
      target.headers,
    );
    assert.equal(unknown.status, 400);
  });

  it('interrupts at once: the action in flight fails, then paused + InterruptEvent', async () => {
    const target = freshConversation(server);
    server.agent.setOptions({ agentStepMs: 80 });
    await postJson(
      `${target.base}/events`,
      { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true },
      target.headers,
    );
    const action = await eventuallyDefined(async () => {
      const events = server.agent.events(target.hex);
      return events[events.length - 2]?.kind === 'ActionEvent' ? events[events.length - 2] : undefined;
    });
    await postJson(`${target.base}/interrupt`, {}, target.headers);
    const tail = server.agent.events(target.hex).slice(-3);
    assert.deepEqual(kinds(tail), ['AgentErrorEvent', 'status:paused', 'InterruptEvent']);
    assert.equal(tail[0]?.['tool_call_id'], action?.['tool_call_id']);
    assert.equal(statusOf(server, target.hex), 'paused');
  });

  it('AlwaysConfirm waits at the terminal action; reject → idle + UserRejectObservation; /run then finishes', async () => {
    const target = freshConversation(server);
    const policy = await postJson(
      `${target.base}/confirmation_policy`,
      { policy: { kind: 'AlwaysConfirm' } },
      target.headers,
    );
    assert.deepEqual(policy.body, { success: true });
    assert.deepEqual(server.agent.events(target.hex).at(-1)?.['value'], { kind: 'AlwaysConfirm' });
    await postJson(
      `${target.base}/events`,
      { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true },
      target.headers,
    );
    await untilStatus(server, target.hex, 'waiting_for_confirmation');
    let events = server.agent.events(target.hex);
    const pending = events.filter((event) => event.kind === 'ActionEvent').at(-1);
    assert.equal(pending?.['tool_name'], 'terminal');
    assert.ok(!events.some((event) => event['action_id'] === pending?.id), 'no observation while waiting');

    const reject = await postJson(
      `${target.base}/events/respond_to_confirmation`,
      { accept: false, reason: 'not now' },
      target.headers,
    );
    assert.deepEqual(reject.body, { success: true });
    events = server.agent.events(target.hex);
    assert.deepEqual(kinds(events.slice(-2)), ['status:idle', 'UserRejectObservation']);
    assert.equal(events.at(-1)?.['rejection_reason'], 'not now');
    assert.equal(events.at(-1)?.['rejection_source'], 'user');
    assert.equal(events.at(-1)?.['action_id'], pending?.id);

    // The agent stays idle; /run lets it go on, and after a rejection the scripted agent finishes.
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(server.agent.events(target.hex).length, events.length, 'nothing more after a reject');
    await postJson(`${target.base}/run`, {}, target.headers);
    await untilStatus(server, target.hex, 'finished');
    assert.deepEqual(
      kinds(server.agent.events(target.hex).slice(events.length)).filter(
        (kind) => kind !== 'ConversationStateUpdateEvent',
      ),
      ['status:running', 'action:finish', 'ObservationEvent', 'status:finished'],
    );
  });

  it('rejects a non-user role (500) and a malformed body (422)', async () => {
    const target = freshConversation(server);
    const assistant = await postJson<Record<string, unknown>>(
      `${target.base}/events`,
      { role: 'assistant', content: [] },
      target.headers,
    );
    assert.equal(assistant.status, 500);
    const malformed = await getJson(`${target.base}/events`, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(malformed.status, 422);
    const invalid = await postJson(`${target.base}/events/respond_to_confirmation`, {}, target.headers);
    assert.equal(invalid.status, 422);
  });
});

describe('test server: agent-server double (seeded transcripts and control)', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 6, conversations: 40, seed: 9 },
      timings: { agentStepMs: 0 },
    });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  const lastStatus = (events: readonly AgentEvent[]): unknown =>
    events.filter((event) => event['key'] === 'execution_status').at(-1)?.['value'];

  it('gives every seeded conversation a transcript that ends in its status, with every kind a panel meets', () => {
    const all = server.state.conversations.map((conversation) => ({
      status: conversation.execution_status,
      events: server.agent.events(conversation.id),
    }));
    for (const { status, events } of all) {
      assert.equal(lastStatus(events), status);
      assert.equal(events[0]?.kind, 'SystemPromptEvent');
      assert.ok((events[0]?.['tools'] as unknown[]).length >= 5);
      for (const kind of ['AgentErrorEvent', 'Condensation', 'FutureEvent']) {
        assert.ok(
          events.some((event) => event.kind === kind),
          kind,
        );
      }
      for (const event of events) {
        assert.match(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
        assert.equal(Object.keys(event).at(-1), 'kind');
        assert.ok(!('parent_id' in event));
        assert.ok(!Object.values(event).includes(null), 'nulls are omitted');
      }
      if (status === 'paused') assert.equal(events.at(-1)?.kind, 'PauseEvent');
      if (status === 'error') assert.equal(events.at(-1)?.kind, 'ConversationErrorEvent');
    }
    const statuses = new Set(all.map(({ status }) => status));
    assert.ok(statuses.has('finished') && statuses.has('paused') && statuses.has('error'));
    const exitCodes = all.flatMap(({ events }) =>
      events.map((event) => (event['observation'] as { exit_code?: number } | undefined)?.exit_code),
    );
    assert.ok(
      exitCodes.some((code) => code !== undefined && code !== 0),
      'some commands fail',
    );

    const summaries = server.agent.conversations();
    const markdown = summaries.filter((summary) => summary.ends_with_agent_message);
    assert.equal(markdown.length, 1);
    const reply = server.agent
      .events(markdown[0]?.id ?? '')
      .filter((event) => event.kind === 'MessageEvent')
      .at(-1);
    const text = JSON.stringify(reply?.['llm_message']);
    for (const part of ['## ', '- ', '```', '](https://', '<img src=x onerror=alert(1)>', '<script>']) {
      assert.ok(text.includes(JSON.stringify(part).slice(1, -1)), part);
    }
    const large = summaries.filter((summary) => summary.has_large_output);
    assert.equal(large.length, 1);
    assert.ok(JSON.stringify(server.agent.events(large[0]?.id ?? '')).length > 200_000);
  });

  it('shapes events like the real 1.34.0 frames (same keys, same order)', () => {
    const fixture = JSON.parse(
      readFileSync(path.join(FIXTURES, 'agent-server/frames-1.34.0.json'), 'utf8'),
    ) as { frames: AgentEvent[] };
    const target = freshConversation(server);
    const ours = [
      ...server.state.conversations.flatMap((conversation) => server.agent.events(conversation.id)),
      ...server.agent.stream(target.hex, ['']),
    ];
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.slice(0, 1).map(shape)
        : typeof value === 'object' && value !== null
          ? Object.entries(value).map(([key, item]) => [key, key === 'value' ? null : shape(item)])
          : null;
    const flavour = (event: AgentEvent): string =>
      [
        event.kind,
        event.source,
        event['key'],
        (event['action'] as { kind?: string } | undefined)?.kind,
        (event['observation'] as { kind?: string } | undefined)?.kind,
      ].join('/');
    for (const frame of fixture.frames) {
      const match = ours.find((event) => flavour(event) === flavour(frame));
      assert.ok(match, `an event like ${flavour(frame)}`);
      assert.deepEqual(shape(match), shape(frame), flavour(frame));
    }
  });

  it('restores the seeded logs on reset()', () => {
    const target = seededConversation(server);
    const before = server.agent.events(target.hex).map((event) => event.id);
    server.agent.append(target.hex, [{ kind: 'PauseEvent', source: 'user' }]);
    assert.equal(server.agent.events(target.hex).length, before.length + 1);
    server.reset();
    assert.deepEqual(
      server.agent.events(target.hex).map((event) => event.id),
      before,
    );
  });

  it('runs the initial message of conversations started later: the app view and the agent log agree', async () => {
    const started = await postJson<{ id: string }>(`${server.url}/api/v1/app-conversations`, {
      initial_message: { content: [{ type: 'text', text: 'Fix the flaky login test' }] },
    });
    const ready = await eventuallyDefined(async () => {
      const tasks = await getJson<({ status: string; app_conversation_id: string | null } | null)[]>(
        `${server.url}/api/v1/app-conversations/start-tasks?ids=${started.body.id}`,
      );
      return tasks.body[0]?.status === 'READY' ? tasks.body[0] : undefined;
    });
    const conversation = await getJson<AppConversation[]>(
      `${server.url}/api/v1/app-conversations?ids=${ready.app_conversation_id ?? ''}`,
    );
    const view = conversation.body[0];
    assert.ok(view?.conversation_url && view.session_api_key);
    const hex = ready.app_conversation_id ?? '';
    await untilStatus(server, hex, 'finished');
    const events = await getJson<EventPage>(`${view.conversation_url}/events/search`, {
      headers: { 'X-Session-API-Key': view.session_api_key },
    });
    const log = kinds(events.body.items);
    assert.deepEqual(log.slice(0, 4), [
      'SystemPromptEvent',
      'MessageEvent',
      'ConversationStateUpdateEvent',
      'status:running',
    ]);
    assert.match(JSON.stringify(events.body.items[1]), /Fix the flaky login test/);
    assert.deepEqual(
      log.filter((kind) => kind.startsWith('action:')),
      ['action:think', 'action:terminal', 'action:file_editor', 'action:finish'],
    );
    assert.equal(log.at(-1), 'status:finished');
  });

  it('is driven over /__control/agent: append (status follows), stream, run, seed, options', async () => {
    const target = freshConversation(server);
    const control = `${server.url}/__control/agent/conversations/${dashedUuid(target.hex)}`;
    const appended = await postJson<{ events: AgentEvent[] }>(`${control}/events`, {
      events: [{ kind: 'ConversationStateUpdateEvent', key: 'execution_status', value: 'error' }],
    });
    assert.equal(appended.status, 200);
    assert.equal(appended.body.events[0]?.source, 'environment');
    assert.equal(statusOf(server, target.hex), 'error', 'an appended status update sets the status');

    const streamed = await postJson<{ events: AgentEvent[] }>(`${control}/stream`, { deltas: ['', 'Hel'] });
    assert.deepEqual(
      streamed.body.events.map((event) => [event.kind, event['content']]),
      [
        ['StreamingDeltaEvent', ''],
        ['StreamingDeltaEvent', 'Hel'],
      ],
    );
    assert.equal(server.agent.events(target.hex).length, 1, 'deltas are not stored');

    assert.deepEqual((await postJson(`${control}/run`, {})).body, { outcome: 'started' });
    await untilStatus(server, target.hex, 'finished');
    assert.deepEqual((await postJson(`${control}/seed`, { count: 10_000 })).body, { count: 10_000 });
    const listed = await getJson<AgentEvent[]>(`${control}/events`);
    assert.equal(listed.body.length, 10_000);
    assert.deepEqual((await getJson(`${control}/sockets`)).body, { count: 0 });
    assert.deepEqual((await postJson(`${control}/drop`, { refuseMs: 10 })).body, { dropped: 0 });

    const options = await postJson<Record<string, unknown>>(`${server.url}/__control/agent/options`, {
      legacy: true,
      wsPingMs: 500,
    });
    assert.equal(options.body['legacy'], true);
    assert.equal(options.body['wsPingMs'], 500);
    server.reset();
    assert.equal(server.agent.settings.legacy, false, 'reset() restores the configured options');

    const unknown = await postJson(`${server.url}/__control/agent/conversations/${randomUUID()}/run`, {});
    assert.equal(unknown.status, 404);
    assert.equal((await postJson(`${server.url}/__control/agent/options`, { wsPingMs: -1 })).status, 400);
  });
});
