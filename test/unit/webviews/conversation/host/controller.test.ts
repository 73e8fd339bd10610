// The panel's host side over a real EventFeed and an agent server in memory: what it posts to the page.
import assert from 'node:assert/strict';
import {
  ApiError,
  EventFeed,
  EventLog,
  SilentSocketError,
  type AgentEndpoint,
  type AgentEvent,
  type EventFeedOptions,
  type FeedTarget,
} from '../../../../../src/api';
import {
  ConversationController,
  type ControllerDeps,
} from '../../../../../src/webviews/conversation/host/controller';
import type { HostToWebview } from '../../../../../src/webviews/conversation/shared/protocol';
import { STREAMING_ROW_ID } from '../../../../../src/webviews/conversation/shared/rows';
import { RowStore } from '../../../../../src/webviews/conversation/webview/rowStore';
import { fakeAgentServer, feedOver, userMessages } from '../../../api/agentServer/fakeAgentServer';
import { actionEvent, observationEvent, withEnvelope } from '../../../../shared/agentEvents';
import { eventuallyDefined } from '../../../../shared/eventually';
import { postingControllerDeps } from './controllerDeps';

const API_KEY = 'app-api-key-controller-0001';
const SANDBOX_KEY = 'sandbox-key-controller-9f8e7d6c';
const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';
const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: CONVERSATION_ID,
  sessionApiKey: SANDBOX_KEY,
};

/** `env` run by the agent: its output quotes the sandbox's key. */
function envCommand(): AgentEvent[] {
  const call = { tool: 'terminal', callId: 'call-1' };
  const action = actionEvent(call, { command: 'env', kind: 'TerminalAction' });
  const observation = observationEvent(call, 'a1', {
    content: [{ type: 'text', text: `HOME=/root\nSESSION_API_KEY=${SANDBOX_KEY}\n` }],
    exit_code: 0,
    kind: 'TerminalObservation',
  });
  return [
    withEnvelope(action, 'a1', '2026-11-23T19:49:51.000001'),
    withEnvelope(observation, 'o1', '2026-11-23T19:49:52.000001'),
  ];
}

function controllerDeps(
  feed: EventFeed,
  posted: HostToWebview[],
  secrets: () => (string | undefined)[],
): ControllerDeps {
  return postingControllerDeps({ conversationId: CONVERSATION_ID, feed, posted, secrets });
}

/** A controller over a real feed of an agent server in memory, and what it posts. */
function followed(events: AgentEvent[], cleanup: (() => void)[], options: Partial<EventFeedOptions> = {}) {
  const agent = fakeAgentServer(events);
  const feed = feedOver(agent, ENDPOINT, options);
  const posted: HostToWebview[] = [];
  const controller = new ConversationController(controllerDeps(feed, posted, () => [API_KEY]));
  cleanup.push(
    () => controller.dispose(),
    () => feed.dispose(),
  );
  return { agent, feed, posted, controller };
}

/** The row ids a page holds after applying `posted` in order; fails on a gap in `rev`. */
function replay(posted: readonly HostToWebview[]): string[] {
  const page = new RowStore();
  for (const message of posted) {
    const applied =
      message.type === 'reset'
        ? page.reset(message.epoch, message.rev)
        : message.type === 'rows'
          ? page.upsert(message.epoch, message.rev, message.at, message.rows)
          : message.type === 'remove'
            ? page.remove(message.epoch, message.rev, message.ids)
            : undefined;
    assert.notEqual(applied?.kind, 'gap', `rev ${'rev' in message ? message.rev : ''} out of sequence`);
  }
  return page.rows.map((row) => row.id);
}

describe('conversation panel controller', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const dispose of cleanup.splice(0)) dispose();
  });

  it('shows the files the agent edited relative to its workspace; a path outside it stays whole', async () => {
    const folder = '/tmp/double/openhands-sandboxes/sb1';
    const edit = (n: number, path: string, workingDir?: string): AgentEvent[] => {
      const terminal = { tool: 'terminal', callId: `call-cmd-${n}` };
      const editor = { tool: 'file_editor', callId: `call-edit-${n}` };
      const time = (step: number) => `2026-11-23T19:49:5${n}.00000${step}`;
      return [
        withEnvelope(actionEvent(terminal, { command: 'ls', kind: 'TerminalAction' }), `cmd-${n}`, time(1)),
        withEnvelope(
          observationEvent(terminal, `cmd-${n}`, {
            content: [{ type: 'text', text: '' }],
            exit_code: 0,
            kind: 'TerminalObservation',
            ...(workingDir ? { metadata: { working_dir: workingDir } } : {}),
          }),
          `cmd-obs-${n}`,
          time(2),
        ),
        withEnvelope(
          actionEvent(editor, { command: 'create', path, file_text: 'x', kind: 'FileEditorAction' }),
          `edit-${n}`,
          time(3),
        ),
        withEnvelope(
          observationEvent(editor, `edit-${n}`, {
            kind: 'FileEditorObservation',
            command: 'create',
            path,
            prev_exist: false,
            new_content: 'x',
          }),
          `edit-obs-${n}`,
          time(4),
        ),
      ];
    };
    const { feed, posted, controller } = followed(
      [...userMessages(1), ...edit(1, `${folder}/src/app.ts`, folder), ...edit(2, '/etc/elsewhere.conf')],
      cleanup,
    );
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.historyComplete && feed.events.size === 9 ? true : undefined,
    );
    const paths = controller
      .rows()
      .flatMap((row) => (row.kind === 'action' && row.edit ? [row.edit.path] : []));
    assert.deepEqual(paths, ['src/app.ts', '/etc/elsewhere.conf']);
    // what reached the page says the same
    const shown = JSON.stringify(posted);
    assert.ok(!shown.includes(`"path":"${folder}/src/app.ts"`), 'the sandbox folder reached the page');
  });

  it("never sends the page a sandbox key the events quote, after the sandbox's key is gone (paused)", async () => {
    const agent = fakeAgentServer([...userMessages(1), ...envCommand()]);
    let target: FeedTarget = { endpoint: ENDPOINT };
    // what the app server says of the conversation: its key while the sandbox runs, null when paused
    let conversationKey: string | undefined = SANDBOX_KEY;
    const feed = new EventFeed({
      resolve: async () => target,
      clientFor: (endpoint) => agent.clientFor(endpoint),
      openSocket: (options) => agent.openSocket(options),
      initialBackoffMs: 5,
      maxBackoffMs: 10,
    });
    const posted: HostToWebview[] = [];
    const controller = new ConversationController(
      controllerDeps(feed, posted, () => [API_KEY, conversationKey]),
    );
    cleanup.push(
      () => controller.dispose(),
      () => feed.dispose(),
    );
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.historyComplete && feed.events.size === 3 ? true : undefined,
    );
    const shown = () => JSON.stringify(posted.splice(0));

    controller.receive({ type: 'ready' });
    const live = shown();
    assert.match(live, /SESSION_API_KEY=\[redacted\]/);
    assert.ok(!live.includes(SANDBOX_KEY));

    // the sandbox is paused: the socket drops, and the app server gives the conversation no key
    target = { endpoint: undefined, reason: 'The sandbox is paused.' };
    conversationKey = undefined;
    agent.sockets[0]?.end();
    await eventuallyDefined(async () => (feed.current.status === 'offline' ? true : undefined));
    // the panel is shown again (its page is not retained while hidden): everything is sent again
    controller.receive({ type: 'ready' });
    const offline = shown();
    assert.match(offline, /SESSION_API_KEY=\[redacted\]/);
    assert.ok(!offline.includes(SANDBOX_KEY), 'the old key reached the page');

    // closed, and opened again while paused: a new feed and controller on the events kept
    const reopened = new EventFeed({
      resolve: async () => target,
      clientFor: (endpoint) => agent.clientFor(endpoint),
      events: feed.events,
    });
    const again = new ConversationController(controllerDeps(reopened, posted, () => [API_KEY, undefined]));
    cleanup.push(
      () => again.dispose(),
      () => reopened.dispose(),
    );
    again.receive({ type: 'ready' });
    const reopenedShown = shown();
    assert.match(reopenedShown, /SESSION_API_KEY=\[redacted\]/);
    assert.ok(!reopenedShown.includes(SANDBOX_KEY), 'the old key reached the reopened page');
  });

  it('scrubs the header like the rows: the model, the statuses and the notice the server sent', async () => {
    // a log too small for the second event: the feed's notice quotes nothing, but is scrubbed too
    const [first] = userMessages(1);
    const maxEventBytes = first ? new EventLog().sizeOf(first) : 0;
    const { agent, feed, posted, controller } = followed(userMessages(1), cleanup, { maxEventBytes });
    feed.start();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
    // a hostile agent server names its model and its status after the keys
    agent.sockets[0]?.options.onEvent({
      id: 'state-1',
      timestamp: '',
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: {
        execution_status: `running ${API_KEY}`,
        agent: { llm: { model: `model-${SANDBOX_KEY}` } },
        confirmation_policy: { kind: `Never${API_KEY}` },
      },
    });
    agent.sockets[0]?.options.onEvent(userMessages(1, 2)[0] as AgentEvent);
    controller.receive({ type: 'ready' });
    const header = controller.header();
    assert.equal(header.model, 'model-[redacted]');
    assert.equal(header.executionStatus, 'running [redacted]');
    assert.equal(header.controls.confirmationPolicy, 'Never[redacted]');
    assert.match(header.notice ?? '', /limit/);
    const sent = JSON.stringify(posted);
    assert.ok(!sent.includes(SANDBOX_KEY) && !sent.includes(API_KEY), 'a key reached the page');
  });

  it('answers "Show all" with the row as it is now when its observation came while its events were read', async () => {
    const [action, observation] = envCommand() as [AgentEvent, AgentEvent];
    // the action's strings are cut on the way in, so "Show all" reads it again from the server
    const { agent, feed, posted, controller } = followed([action], cleanup, { maxStringChars: 20 });
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.status === 'live' && feed.events.size === 1 ? true : undefined,
    );
    let release: (() => void) | undefined;
    agent.beforeGetEvent = () => new Promise<void>((resolve) => (release = resolve));
    controller.receive({ type: 'expand', id: action.id });
    await eventuallyDefined(async () => (release ? true : undefined));
    // the command ends while the action is read whole
    agent.events.push(observation);
    agent.sockets[0]?.options.onEvent(observation);
    agent.beforeGetEvent = undefined;
    release?.();
    const expanded = await eventuallyDefined(async () => {
      const message = posted.find((candidate) => candidate.type === 'expanded');
      return message?.type === 'expanded' ? message.row : undefined;
    });
    assert.equal(expanded.kind, 'action');
    assert.equal(expanded.kind === 'action' && expanded.state, 'done', 'a stale row would show it running');
  });

  it('holds older pages until the page has its first rows, posts the newest first and keeps every row in order', async () => {
    const { agent, feed, posted, controller } = followed(userMessages(1500), cleanup);
    feed.start();
    await eventuallyDefined(async () => (feed.events.events.length >= 100 ? true : undefined));
    // the page is still loading: the newest page is read, the older ones wait for it
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(agent.searches.length, 1, 'only the newest page before the page is ready');

    posted.length = 0;
    controller.receive({ type: 'ready' });
    assert.deepEqual(
      posted.map((message) => message.type),
      ['reset', 'rows'],
    );
    const first = posted[1];
    assert.ok(first?.type === 'rows' && first.at === 'end');
    assert.equal(first.rows.at(-1)?.id, 'm1500');
    await eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined));
    agent.sockets[0]?.options.onEvent(userMessages(1, 1501)[0] as AgentEvent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      replay(posted),
      Array.from({ length: 1501 }, (_, i) => `m${i + 1}`),
    );

    // the panel opened again on the feed it kept: the newest 300 rows now, the rest a turn at a
    // time, and a live event before those turns comes after them
    const again: HostToWebview[] = [];
    const reopened = new ConversationController(controllerDeps(feed, again, () => [API_KEY]));
    cleanup.push(() => reopened.dispose());
    reopened.receive({ type: 'ready' });
    assert.deepEqual(
      again.map((message) => message.type),
      ['reset', 'rows'],
    );
    assert.equal(again[1]?.type === 'rows' ? again[1].rows.length : 0, 300);
    agent.sockets[0]?.options.onEvent(userMessages(1, 1502)[0] as AgentEvent);
    assert.deepEqual(
      replay(again),
      Array.from({ length: 1502 }, (_, i) => `m${i + 1}`),
    );
  });

  it('keeps the streaming reply the last row when another event comes while it streams', async () => {
    const { agent, feed, posted, controller } = followed(userMessages(1), cleanup);
    feed.start();
    await eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined));
    controller.receive({ type: 'ready' });
    const live = (event: Partial<AgentEvent> & { id: string; kind: string }) =>
      agent.sockets[0]?.options.onEvent({ timestamp: '', source: 'agent', ...event });
    live({ id: 'd1', kind: 'StreamingDeltaEvent', content: 'Hel' });
    // the user sends a follow-up while the agent's reply streams
    agent.sockets[0]?.options.onEvent(userMessages(1, 2)[0] as AgentEvent);
    live({ id: 'd2', kind: 'StreamingDeltaEvent', content: 'lo' });
    assert.deepEqual(replay(posted), ['m1', 'm2', STREAMING_ROW_ID]);
  });

  it('says in plain words why it reconnects after a silent socket, and the kind for other ends', async () => {
    // a long backoff: the header is read while the feed waits to reconnect
    const { agent, feed, controller } = followed(userMessages(1), cleanup, { initialBackoffMs: 60_000 });
    feed.start();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
    agent.sockets[0]?.end(
      new SilentSocketError(
        { kind: 'timeout', message: 'The agent server went silent on the event socket of conversation x.' },
        15_400,
      ),
    );
    await eventuallyDefined(async () => (feed.current.status === 'reconnecting' ? true : undefined));
    assert.equal(controller.header().feedDetail, 'No word from the sandbox for 15 s; reconnecting');

    feed.wake();
    await eventuallyDefined(async () =>
      feed.current.status === 'live' && agent.sockets.length === 2 ? true : undefined,
    );
    assert.equal(controller.header().feedDetail, null);
    agent.sockets[1]?.end(new ApiError({ kind: 'timeout', message: 'The handshake took too long.' }));
    await eventuallyDefined(async () => (feed.current.status === 'reconnecting' ? true : undefined));
    assert.equal(controller.header().feedDetail, 'The sandbox did not answer in time');
  });
});
