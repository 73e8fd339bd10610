// The REST client's steering calls (send, run, pause, interrupt, confirmation, policy) against the
// agent-server double over real HTTP, checked against what agent server 1.34.0 does (reference §3
// "Transition", §4 "Send semantics", "Confirmation in 1.34.0", §10 conversations A/B/C): the reply,
// then the stored events in storage order, the status both servers report and the socket's full_state.
import { fixtureImage } from '../../../shared/images';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  AgentServerClient,
  agentEndpointOf,
  ApiError,
  OpenHandsClient,
  openEventSocket,
  type AgentEndpoint,
  type AgentEvent,
  type EventSocket,
} from '../../../../src/api';
import type { ExecutionStatus, TestServer } from '../../../server';
import { needsConfirmation } from '../../../server/agentServer/runner';
import { startFastServer } from '../../testServer/helpers';
import { eventuallyDefined } from '../../../shared/eventually';

const ALREADY_RUNNING = 'Conversation already running. Wait for completion or pause first.';
const INTERRUPTED = 'Tool call interrupted before completion. The conversation was paused.';
/** Steps slow enough that a call made while an action is in flight lands before its observation. */
const SLOW_STEP_MS = 500;
/** The whole scripted run after the message, without the `stats` updates. */
const SCRIPTED_RUN = [
  'status:running',
  'action:think',
  'observation:think',
  'action:terminal',
  'observation:terminal',
  'action:file_editor',
  'observation:file_editor',
  'action:finish',
  'observation:finish',
  'status:finished',
];

interface Steered {
  hex: string;
  endpoint: AgentEndpoint;
  client: AgentServerClient;
  /** Every frame the conversation's socket got since `steer()` (full_state first). */
  frames: AgentEvent[];
}

/** One readable token per event: statuses, state keys and tools are what the order is about. */
function label(event: AgentEvent): string {
  if (event.kind === 'ConversationStateUpdateEvent') {
    const key = String(event['key']);
    return key === 'execution_status' ? `status:${String(event['value'])}` : `state:${key}`;
  }
  if (event.kind === 'ActionEvent') return `action:${String(event['tool_name'])}`;
  if (event.kind === 'ObservationEvent') return `observation:${String(event['tool_name'])}`;
  return event.kind;
}

/** Labels without the `stats` updates (one per LLM call, beside each action). */
const labels = (events: readonly AgentEvent[]): string[] =>
  events.map(label).filter((name) => name !== 'state:stats');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, not ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

describe('AgentServerClient steering against the agent-server double', function () {
  this.timeout(20_000);
  let server: TestServer;
  let app: OpenHandsClient;
  const sockets: EventSocket[] = [];

  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 3, conversations: 10, seed: 5 },
      timings: { agentStepMs: 5 },
    });
    app = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 5000 });
  });
  after(() => server.close());
  beforeEach(() => server.reset());
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  /** A new idle conversation (empty agent log) in a running sandbox, reached as the extension does. */
  async function steer(): Promise<Steered> {
    const sandbox = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
    const template = server.state.conversations[0];
    assert.ok(sandbox && template, 'the seed has a running sandbox');
    const hex = randomUUID().replace(/-/g, '');
    server.state.conversations.push({
      ...template,
      id: hex,
      sandbox_id: sandbox.id,
      parent_conversation_id: null,
      execution_status: 'idle',
    });
    const [conversation] = await app.getConversations([hex]);
    const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
    assert.ok(endpoint, 'a conversation in a running sandbox has an agent endpoint');
    const frames: AgentEvent[] = [];
    const socket = await openEventSocket({
      endpoint,
      auth: 'first-message',
      onEvent: (event) => frames.push(event),
    });
    sockets.push(socket);
    await eventuallyDefined(async () => (frames.length > 0 ? true : undefined));
    return { hex, endpoint, client: new AgentServerClient({ endpoint, timeoutMs: 5000 }), frames };
  }

  /** The stored log over REST, every page, in storage order. */
  async function stored(target: Steered): Promise<AgentEvent[]> {
    const events: AgentEvent[] = [];
    let pageId: string | undefined;
    for (;;) {
      const page = await target.client.searchEvents({ pageId, limit: 100 });
      events.push(...page.items);
      if (page.next_page_id === null) return events;
      pageId = page.next_page_id;
    }
  }

  const statusOf = (target: Steered): ExecutionStatus | undefined =>
    server.state.conversations.find((conversation) => conversation.id === target.hex)?.execution_status;

  async function until(target: Steered, status: ExecutionStatus, timeoutMs = 5000): Promise<void> {
    await eventuallyDefined(async () => (statusOf(target) === status ? true : undefined), timeoutMs);
    // The agent server's own view and the app server's agree.
    assert.equal((await target.client.getConversation()).execution_status, status);
    const [view] = await app.getConversations([target.hex]);
    assert.equal(view?.execution_status, status);
  }

  const fullStates = (target: Steered): Record<string, unknown>[] =>
    target.frames
      .filter((frame) => frame.kind === 'ConversationStateUpdateEvent' && frame['key'] === 'full_state')
      .map((frame) => frame['value'] as Record<string, unknown>);

  /** Waits until the socket got a full_state with this status after `count` earlier ones. */
  const fullStateAfter = (target: Steered, count: number, status: ExecutionStatus): Promise<true> =>
    eventuallyDefined(async () =>
      fullStates(target)
        .slice(count)
        .some((value) => value['execution_status'] === status)
        ? true
        : undefined,
    );

  /** The log must not grow (and the status not move) for a while: nothing runs by itself. */
  async function staysPut(target: Steered, status: ExecutionStatus): Promise<AgentEvent[]> {
    const before = await stored(target);
    await sleep(120);
    const after = await stored(target);
    assert.deepEqual(
      after.map((event) => event.id),
      before.map((event) => event.id),
      'nothing happens by itself',
    );
    assert.equal(statusOf(target), status);
    return after;
  }

  /** The run's newest stored action while it has no observation yet (the run's steps must be slow). */
  const actionInFlight = (target: Steered): Promise<AgentEvent> =>
    eventuallyDefined(async () => {
      const events = server.agent.events(target.hex);
      const action = events.filter((event) => event.kind === 'ActionEvent').at(-1);
      const observed = events.some((event) => event['action_id'] === action?.id);
      return action && !observed ? action : undefined;
    });

  /** Under AlwaysConfirm, a sent message runs until the terminal action waits; returns that action. */
  async function waitingAtTerminal(target: Steered): Promise<AgentEvent> {
    assert.deepEqual(await target.client.setConfirmationPolicy({ kind: 'AlwaysConfirm' }), {
      success: true,
    });
    await target.client.sendMessage('Run one command, then finish.', true);
    await until(target, 'waiting_for_confirmation');
    const events = await stored(target);
    const pending = events.filter((event) => event.kind === 'ActionEvent').at(-1);
    assert.ok(pending, 'an action waits');
    return pending;
  }

  it('sends with run:false: the message is stored (system prompt first), nothing runs', async () => {
    const target = await steer();
    assert.deepEqual(await target.client.sendMessage('Fix the flaky test', false), { success: true });
    const events = await staysPut(target, 'idle');
    assert.deepEqual(labels(events), ['SystemPromptEvent', 'MessageEvent', 'state:last_user_message_id']);
    const message = events[1];
    assert.equal(message?.source, 'user');
    assert.deepEqual(message?.['llm_message'], {
      role: 'user',
      content: [{ cache_prompt: false, type: 'text', text: 'Fix the flaky test' }],
      thinking_blocks: [],
    });
    assert.equal(events[2]?.['value'], message?.id);
    assert.equal((await target.client.getConversation()).execution_status, 'idle');
  });

  it('sends images as one ImageContent after the text, stored as sent (data URLs)', async () => {
    const target = await steer();
    const png = `data:image/png;base64,${fixtureImage('page.png').toString('base64')}`;
    const jpeg = `data:image/jpeg;base64,${fixtureImage('page.jpg').toString('base64')}`;
    await target.client.sendMessage('Does the page look like this?', false, {}, [png, jpeg]);
    const events = await staysPut(target, 'idle');
    assert.deepEqual(events[1]?.['llm_message'], {
      role: 'user',
      content: [
        { cache_prompt: false, type: 'text', text: 'Does the page look like this?' },
        { cache_prompt: false, type: 'image', image_urls: [png, jpeg] },
      ],
      thinking_blocks: [],
    });
  });

  it('sends with run:true: replies at once, then the scripted run goes to finished in order', async () => {
    const target = await steer();
    server.agent.setOptions({ agentStepMs: 80 });
    const snapshots = fullStates(target).length;
    assert.deepEqual(await target.client.sendMessage('Go', true), { success: true });
    assert.ok(
      !labels(server.agent.events(target.hex)).includes('status:finished'),
      'the reply does not wait for the run',
    );
    await until(target, 'finished');
    const events = await stored(target);
    assert.deepEqual(labels(events), [
      'SystemPromptEvent',
      'MessageEvent',
      'state:last_user_message_id',
      ...SCRIPTED_RUN,
    ]);
    await fullStateAfter(target, snapshots, 'finished');
    // The socket carried the same events live, in the same order (plus transient frames).
    const live = target.frames.filter(
      (frame) => frame.kind !== 'StreamingDeltaEvent' && frame['key'] !== 'full_state',
    );
    assert.deepEqual(
      live.map((frame) => frame.id),
      events.map((event) => event.id),
    );
    assert.equal((await target.client.getConversation()).execution_status, 'finished');
  });

  it('runs once: a second run while running is an ApiError (409, kind validation) with the detail', async () => {
    const target = await steer();
    server.agent.setOptions({ agentStepMs: 80 });
    await target.client.sendMessage('Go', false);
    assert.deepEqual(await target.client.run(), { success: true });
    const conflict = await rejection(target.client.run());
    assert.equal(conflict.status, 409);
    assert.equal(conflict.kind, 'validation');
    assert.equal(conflict.serverMessage, ALREADY_RUNNING);
    await until(target, 'finished');
    const runs = labels(await stored(target)).filter((name) => name === 'status:running');
    assert.equal(runs.length, 1, 'the refused run started nothing');
  });

  it('run on a finished conversation is a 200 no-op; a new message takes it to idle first', async () => {
    const target = await steer();
    await target.client.sendMessage('Go', true);
    await until(target, 'finished');
    const finished = await stored(target);
    const snapshots = fullStates(target).length;

    assert.deepEqual(await target.client.run(), { success: true });
    await fullStateAfter(target, snapshots, 'finished');
    await staysPut(target, 'finished');
    assert.equal((await stored(target)).length, finished.length);

    assert.deepEqual(await target.client.sendMessage('One more thing', false), { success: true });
    const after = (await stored(target)).slice(finished.length);
    assert.deepEqual(labels(after), ['status:idle', 'MessageEvent', 'state:last_user_message_id']);
    await until(target, 'idle');
  });

  it('pause while running stops between steps: the action in flight completes, then paused + PauseEvent', async () => {
    const target = await steer();
    server.agent.setOptions({ agentStepMs: SLOW_STEP_MS });
    await target.client.sendMessage('Go', true);
    const inFlight = await actionInFlight(target);
    const snapshots = fullStates(target).length;
    assert.deepEqual(await target.client.pause(), { success: true });
    await fullStateAfter(target, snapshots, 'paused');
    const paused = await staysPut(target, 'paused');
    const tool = String(inFlight['tool_name']);
    assert.deepEqual(labels(paused).slice(-4), [
      `action:${tool}`,
      `observation:${tool}`,
      'status:paused',
      'PauseEvent',
    ]);
    assert.equal(paused.at(-3)?.['action_id'], inFlight.id, 'the pause waited for the tool call');
    assert.equal(paused.at(-1)?.source, 'user');
    const actions = paused.filter((event) => event.kind === 'ActionEvent');
    assert.ok(actions.length < 4, 'paused before the end of the script');

    server.agent.setOptions({ agentStepMs: 5 });
    assert.deepEqual(await target.client.run(), { success: true });
    await until(target, 'finished');
    const all = labels(await stored(target));
    assert.deepEqual(
      all.filter((name) => name.startsWith('action:')),
      ['action:think', 'action:terminal', 'action:file_editor', 'action:finish'],
      'the run went on where it stopped',
    );

    // Pausing a finished conversation does nothing; an unknown one is a 400.
    const count = all.length;
    assert.deepEqual(await target.client.pause(), { success: true });
    assert.equal(labels(await stored(target)).length, count);
    assert.equal(statusOf(target), 'finished');
    const unknown = new AgentServerClient({
      endpoint: { ...target.endpoint, conversationId: randomUUID() },
      timeoutMs: 5000,
    });
    const badRequest = await rejection(unknown.pause());
    assert.equal(badRequest.status, 400);
    assert.equal(badRequest.kind, 'validation');
  });

  it('interrupt fails the action in flight (AgentErrorEvent), then paused + InterruptEvent', async () => {
    const target = await steer();
    server.agent.setOptions({ agentStepMs: SLOW_STEP_MS });
    await target.client.sendMessage('Go', true);
    const inFlight = await actionInFlight(target);
    const snapshots = fullStates(target).length;
    assert.deepEqual(await target.client.interrupt(), { success: true });
    await fullStateAfter(target, snapshots, 'paused');
    const events = await staysPut(target, 'paused');
    assert.deepEqual(labels(events).slice(-3), ['AgentErrorEvent', 'status:paused', 'InterruptEvent']);
    const error = events.at(-3);
    assert.equal(error?.['tool_call_id'], inFlight['tool_call_id']);
    assert.equal(error?.['tool_name'], inFlight['tool_name']);
    assert.equal(error?.['error'], INTERRUPTED);
    assert.ok(!events.some((event) => event['action_id'] === inFlight.id), 'the action never ran');

    // Not running: interrupt falls back to pause (no-op when paused already, then a pause when idle).
    const idle = await steer();
    assert.deepEqual(await idle.client.interrupt(), { success: true });
    assert.deepEqual(labels(await stored(idle)), ['status:paused', 'PauseEvent']);
  });

  it('AlwaysConfirm: the policy is reported; think runs, the terminal action waits with no observation', async () => {
    const target = await steer();
    assert.deepEqual(await target.client.setConfirmationPolicy({ kind: 'AlwaysConfirm' }), {
      success: true,
    });
    const policy = (await stored(target)).at(-1);
    assert.equal(label(policy as AgentEvent), 'state:confirmation_policy');
    assert.deepEqual(policy?.['value'], { kind: 'AlwaysConfirm' });
    assert.deepEqual((await target.client.getConversation()).confirmation_policy, { kind: 'AlwaysConfirm' });

    const snapshots = fullStates(target).length;
    await target.client.sendMessage('Run one command, then finish.', true);
    await until(target, 'waiting_for_confirmation');
    await fullStateAfter(target, snapshots, 'waiting_for_confirmation');
    const waiting = fullStates(target)
      .slice(snapshots)
      .find((value) => value['execution_status'] === 'waiting_for_confirmation');
    assert.deepEqual(waiting?.['confirmation_policy'], { kind: 'AlwaysConfirm' });
    const events = await staysPut(target, 'waiting_for_confirmation');
    assert.deepEqual(labels(events).slice(-5), [
      'status:running',
      'action:think',
      'observation:think',
      'action:terminal',
      'status:waiting_for_confirmation',
    ]);
    const pending = events.filter((event) => event.kind === 'ActionEvent').at(-1);
    assert.ok(!events.some((event) => event['action_id'] === pending?.id), 'no observation while waiting');
    assert.equal(
      server.agent.conversations().find((summary) => summary.id === target.hex)?.pending_actions,
      1,
    );
  });

  it('reject: idle, then a UserRejectObservation; the agent stays idle until run, then finishes', async () => {
    const target = await steer();
    const pending = await waitingAtTerminal(target);
    const before = (await stored(target)).length;
    assert.deepEqual(await target.client.respondToConfirmation(false, 'not now'), { success: true });
    const rejected = await staysPut(target, 'idle');
    assert.deepEqual(labels(rejected.slice(before)), ['status:idle', 'UserRejectObservation']);
    const observation = rejected.at(-1);
    assert.equal(observation?.source, 'environment');
    assert.equal(observation?.['rejection_reason'], 'not now');
    assert.equal(observation?.['rejection_source'], 'user');
    assert.equal(observation?.['action_id'], pending.id);
    assert.equal(observation?.['tool_name'], 'terminal');
    assert.equal(observation?.['tool_call_id'], pending['tool_call_id']);

    // Nothing pending any more: a second reject changes nothing.
    assert.deepEqual(await target.client.respondToConfirmation(false), { success: true });
    assert.equal((await stored(target)).length, rejected.length);

    assert.deepEqual(await target.client.run(), { success: true });
    await until(target, 'finished');
    const after = await stored(target);
    assert.deepEqual(labels(after.slice(rejected.length)), [
      'status:running',
      'action:finish',
      'observation:finish',
      'status:finished',
    ]);
    assert.ok(
      !after.some((event) => event.kind === 'ObservationEvent' && event['action_id'] === pending.id),
      'the rejected command never ran',
    );
  });

  it('reject without a reason uses the server default "User rejected the action."', async () => {
    const target = await steer();
    await waitingAtTerminal(target);
    await target.client.respondToConfirmation(false);
    const last = (await stored(target)).at(-1);
    assert.equal(last?.kind, 'UserRejectObservation');
    assert.equal(last?.['rejection_reason'], 'User rejected the action.');
    await until(target, 'idle');
  });

  it('accept: replies at once, then running, the pending observation, and the agent finishes', async () => {
    const target = await steer();
    const pending = await waitingAtTerminal(target);
    const before = (await stored(target)).length;
    server.agent.setOptions({ agentStepMs: 80 });
    assert.deepEqual(await target.client.respondToConfirmation(true), { success: true });
    assert.notEqual(statusOf(target), 'finished', 'the reply does not wait for the run');
    await until(target, 'finished');
    const after = (await stored(target)).slice(before);
    assert.deepEqual(labels(after), [
      'status:running',
      'observation:terminal',
      'action:finish',
      'observation:finish',
      'status:finished',
    ]);
    const observation = after.find((event) => event.kind === 'ObservationEvent');
    assert.equal(observation?.['action_id'], pending.id);
    assert.equal((observation?.['observation'] as { kind?: string }).kind, 'TerminalObservation');
    // Accepting with nothing pending on a finished conversation changes nothing.
    const count = (await stored(target)).length;
    assert.deepEqual(await target.client.respondToConfirmation(true), { success: true });
    await staysPut(target, 'finished');
    assert.equal((await stored(target)).length, count);
  });

  it('a message with run:true while waiting runs the pending action (no idle on the way)', async () => {
    const target = await steer();
    const pending = await waitingAtTerminal(target);
    const before = (await stored(target)).length;
    await target.client.sendMessage('Yes, go ahead.', true);
    await until(target, 'finished');
    const after = (await stored(target)).slice(before);
    assert.deepEqual(labels(after), [
      'MessageEvent',
      'state:last_user_message_id',
      'status:running',
      'observation:terminal',
      'action:finish',
      'observation:finish',
      'status:finished',
    ]);
    assert.equal(after.find((event) => event.kind === 'ObservationEvent')?.['action_id'], pending.id);
  });

  it('ConfirmRisky waits at or above its threshold (and for UNKNOWN), never for a lone think/finish', async () => {
    const target = await steer();
    await target.client.setConfirmationPolicy({ kind: 'ConfirmRisky', threshold: 'MEDIUM' });
    const policy = (await stored(target)).at(-1);
    // pydantic's dump: defaults filled in, `kind` last.
    assert.equal(
      JSON.stringify(policy?.['value']),
      '{"threshold":"MEDIUM","confirm_unknown":true,"kind":"ConfirmRisky"}',
    );
    assert.deepEqual((await target.client.getConversation()).confirmation_policy, {
      threshold: 'MEDIUM',
      confirm_unknown: true,
      kind: 'ConfirmRisky',
    });
    await target.client.sendMessage('Go', true);
    await until(target, 'waiting_for_confirmation');
    const events = await stored(target);
    // The LOW terminal command ran; the MEDIUM edit waits.
    assert.ok(
      events.some((event) => label(event) === 'observation:terminal'),
      'the LOW terminal command ran',
    );
    assert.equal(events.filter((event) => event.kind === 'ActionEvent').at(-1)?.['tool_name'], 'file_editor');

    // The default threshold (HIGH) lets the whole script through.
    const relaxed = await steer();
    await relaxed.client.setConfirmationPolicy({ kind: 'ConfirmRisky' });
    await relaxed.client.sendMessage('Go', true);
    await until(relaxed, 'finished');
    assert.deepEqual(labels(await stored(relaxed)).slice(-SCRIPTED_RUN.length), SCRIPTED_RUN);

    const risky = { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true } as const;
    assert.equal(needsConfirmation(risky, 'terminal', 'UNKNOWN'), true);
    assert.equal(needsConfirmation(risky, 'terminal', 'HIGH'), true);
    assert.equal(needsConfirmation(risky, 'terminal', 'MEDIUM'), false);
    assert.equal(needsConfirmation({ ...risky, confirm_unknown: false }, 'terminal', 'UNKNOWN'), false);
    assert.equal(needsConfirmation(risky, 'think', 'UNKNOWN'), false);
    assert.equal(needsConfirmation({ kind: 'AlwaysConfirm' }, 'finish', 'UNKNOWN'), false);
  });

  it('a conversation started with an initial message runs the scripted agent; both views agree', async () => {
    server.agent.setOptions({ agentStepMs: 5 });
    const task = await app.createConversation({
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky login test' }] },
    });
    const ready = await app.waitForStartTask(task.id);
    const hex = ready.app_conversation_id ?? '';
    const [conversation] = await app.getConversations([hex]);
    const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
    assert.ok(endpoint, 'the started conversation has an agent endpoint');
    const target: Steered = {
      hex,
      endpoint,
      client: new AgentServerClient({ endpoint, timeoutMs: 5000 }),
      frames: [],
    };
    await until(target, 'finished');
    const events = await stored(target);
    assert.deepEqual(labels(events), [
      'SystemPromptEvent',
      'MessageEvent',
      'state:last_user_message_id',
      ...SCRIPTED_RUN,
    ]);
    assert.match(JSON.stringify(events[1]?.['llm_message']), /Fix the flaky login test/);
  });
});
