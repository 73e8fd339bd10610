// The client suite's real-server part: every OpenHandsClient method, over HTTP, against the real
// OpenHands app server (openhands-ai 1.11.0, local process sandboxes) with the scripted LLM, and the
// agent server's controls (AgentServerClient: a follow-up message, run, pause, interrupt, confirmation
// policy, accept and reject) with the event feed following along, and the agent's workspace changes
// (git changes, diffs, a file's bytes, the git-delta patch applied to a clone), and images (a browser
// screenshot of a page the test serves, read whole for the panel; an image sent to a model that can
// see). Run by
// scripts/real-openhands/run-tests.ts (`npm run test:real`), which starts both and sets the environment.
// The tests run in order and share what they create: each sandbox is a real agent-server process.
// Every `assert.ok` carries a message: without one, a failing call under tsx can hang Node 20 for ever
// (it re-reads the source to build the message, at positions that do not match the TypeScript file).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  AGENT_SERVER_EXCLUDES,
  AgentServerClient,
  agentChanges,
  agentEndpointOf,
  ApiError,
  catalogueKnows,
  modelReadiness,
  EventFeed,
  exportedEvents,
  isAgentServerFile,
  checkImageBytes,
  checkScreenshotData,
  OpenHandsClient,
  openEventSocket,
  peekImage,
  SilentSocketError,
  statsFromMetrics,
  type AgentEvent,
  type LlmUsage,
} from '../../src/api';
import { Transcript } from '../../src/webviews/conversation/host/rows/transcript';
import { readZip } from '../../src/api/zipReader';
import { buildHandoff } from '../../src/changes/handoffBundle';
import { deliverHandoff } from '../../src/changes/handoffDelivery';
import { handoffMessage } from '../../src/changes/handoffMessage';
import { makeLocalWork } from '../shared/localWork';
import type { AppConversation, AppConversationStartTask, SandboxInfo } from '../../src/api/models';
import { eventuallyDefined } from '../shared/eventually';
import { agentEvents, realRequest, realServerEnv, scriptedRequests, sleep, type RealServerEnv } from './env';
import {
  SCRIPTED_CHANGES,
  SCRIPTED_CHANGES_ADD_COMMAND,
  SCRIPTED_CHANGES_ADDED,
  SCRIPTED_CHANGES_ADDED_TEXT,
  SCRIPTED_CHANGES_BASE_COMMAND,
  SCRIPTED_CHANGES_BASE_TEXT,
  SCRIPTED_CHANGES_EDITED,
  SCRIPTED_CHANGES_EDITED_TEXT,
  SCRIPTED_CHANGES_FINISH,
  SCRIPTED_COMMAND,
  SCRIPTED_FILE,
  SCRIPTED_FILE_TEXT,
  SCRIPTED_FINISH,
  SCRIPTED_FOLLOW_UP_COMMAND,
  SCRIPTED_FOLLOW_UP_FINISH,
  SCRIPTED_REJECTED_FINISH,
  SCRIPTED_SLOW,
  SCRIPTED_SLOW_MS,
  SCRIPTED_BROWSE,
  SCRIPTED_BROWSE_FINISH,
  SCRIPTED_LOOK,
  SCRIPTED_LOOK_FINISH,
  SCRIPTED_VISION_MODEL,
} from './scriptedLlm';
import { startTestPage, TEST_PAGE_BACKGROUND, TEST_PAGE_BUTTON, type TestPage } from './testPage';
import { fixtureImage, pngFirstPixel } from '../shared/images';
import { postingControllerDeps } from '../unit/webviews/conversation/host/controllerDeps';
import { ConversationController } from '../../src/webviews/conversation/host/controller';
import type { HostToWebview, ImageReply } from '../../src/webviews/conversation/shared/protocol';
import { IMAGE_HEAD_CHARS } from '../../src/api/agentServer/eventLog';
import { FormSave } from '../../src/webviews/mcpForm/host/formSave';
import { emptyFormSecrets, type FormSecrets } from '../../src/webviews/mcpForm/host/formStorage';
import type { FormModel } from '../../src/webviews/mcpForm/shared/formSchema';
import { ENGLISH_STRINGS } from '../../src/webviews/mcpForm/shared/uiStrings';
import { draftFromModel, toProtocolDraft } from '../../src/webviews/mcpForm/webview/editorDraft';

const MESSAGE = 'Run one shell command for the VS Code client test, then finish.';
const FOLLOW_UP = 'Now run the follow-up command, then finish.';
const SLOW_FOLLOW_UP = `${SCRIPTED_SLOW} Run the follow-up command, taking your time.`;
const CHANGES_MESSAGE = `${SCRIPTED_CHANGES} Commit a base, edit one file, create another, then finish.`;
const LOOK_MESSAGE = `${SCRIPTED_LOOK} Does the page look like this?`;
/** What the real agent server's `browser_get_state` screenshot is (kind, width, height). */
const SCREENSHOT_SHAPE = ['image/png', 1920, 1080];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `call` may throw before returning a promise (the client checks arguments synchronously). */
async function rejection(call: () => Promise<unknown>): Promise<ApiError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

/** The real server is slow: its probes every half second, a failing probe meaning not yet. */
function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  return eventuallyDefined(probe, { description: what, timeoutMs, intervalMs: 500, retryErrors: true });
}

/** The fields of the agent server's events these tests read (events are loose objects). */
interface EventView {
  id: string;
  kind: string;
  source: string;
  key?: string;
  value?: unknown;
  action?: { kind?: string; command?: string; message?: string; url?: string; include_screenshot?: boolean };
  observation?: {
    kind?: string;
    screenshot_data?: string;
    exit_code?: number;
    content?: { text?: string }[];
    metadata?: { working_dir?: string };
    is_error?: boolean;
    path?: string;
  };
  action_id?: string;
  tool_name?: string;
  rejection_reason?: string;
  rejection_source?: string;
  llm_message?: { role?: string; content?: { text?: string }[] };
}

const view = (event: AgentEvent) => event as unknown as EventView;

/** Every stored event of a conversation in storage order, read page by page with `searchEvents`. */
async function storedEvents(agent: AgentServerClient): Promise<EventView[]> {
  const events: EventView[] = [];
  const ids = new Set<string>();
  const pages = new Set<string>();
  let pageId: string | undefined;
  for (;;) {
    const page = await agent.searchEvents({ pageId, limit: 100 });
    for (const event of page.items) {
      if (ids.has(event.id)) continue;
      ids.add(event.id);
      events.push(view(event));
    }
    const next = page.next_page_id ?? undefined;
    if (next === undefined || pages.has(next)) return events;
    pages.add(next);
    pageId = next;
  }
}

const statusesIn = (events: EventView[]) =>
  events.flatMap((e) =>
    e.kind === 'ConversationStateUpdateEvent' && e.key === 'execution_status' ? [String(e.value)] : [],
  );
const actionsIn = (events: EventView[]) => events.filter((e) => e.kind === 'ActionEvent');
const observationOf = (events: EventView[], action: EventView) =>
  events.find((e) => e.kind === 'ObservationEvent' && e.action_id === action.id);
const textOf = (content: { text?: string }[] | undefined) =>
  (content ?? []).map((c) => c.text ?? '').join('');

/**
 * One conversation's agent server, driven with `AgentServerClient` and followed live with an
 * `EventFeed` (the panel's feed), as the extension does.
 */
interface Driven {
  agent: AgentServerClient;
  feed: EventFeed;
  logs: string[];
}

/**
 * Follows the conversation and waits until the feed is live with its whole history before the test
 * acts on it. (Acting at once races the feed's first history read: a state update that arrives on
 * the socket while the feed pages its history is also in that page, and as a duplicate it then never
 * updates the feed's status or policy.)
 */
async function drive(conversation: AppConversation): Promise<Driven> {
  const endpoint = agentEndpointOf(conversation);
  assert.ok(endpoint?.sessionApiKey, 'a running conversation has an agent-server URL and key');
  const agent = new AgentServerClient({ endpoint, timeoutMs: 30_000 });
  const logs: string[] = [];
  const feed = new EventFeed({
    resolve: async () => ({ endpoint }),
    clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 30_000 }),
    log: (line) => logs.push(line),
  });
  feed.start();
  try {
    await until(
      'the feed is live with the whole history',
      async () => (feed.current.status === 'live' && feed.current.historyComplete ? true : undefined),
      30_000,
    );
  } catch (error) {
    feed.dispose();
    throw error;
  }
  return { agent, feed, logs };
}

async function status(agent: AgentServerClient): Promise<string | null> {
  return (await agent.getConversation()).execution_status;
}

function untilStatus(agent: AgentServerClient, wanted: string, timeoutMs = 60_000): Promise<true> {
  return until(
    `execution_status ${wanted}`,
    async () => ((await status(agent)) === wanted ? true : undefined),
    timeoutMs,
  );
}

/** Waits until the stored events from `from` on satisfy `done`; returns those events. */
function untilEvents(
  what: string,
  agent: AgentServerClient,
  from: number,
  done: (added: EventView[]) => boolean,
  timeoutMs = 60_000,
): Promise<EventView[]> {
  return until(
    what,
    async () => {
      const added = (await storedEvents(agent)).slice(from);
      return done(added) ? added : undefined;
    },
    timeoutMs,
  );
}

/** The live feed caught up: the status the server reports and every stored event, once. */
async function feedCaughtUp(driven: Driven, wanted: string): Promise<void> {
  const count = await driven.agent.countEvents();
  await until(
    `the feed at ${wanted} with ${count} events`,
    async () =>
      driven.feed.current.status === 'live' &&
      driven.feed.current.executionStatus === wanted &&
      driven.feed.events.size === count
        ? true
        : undefined,
    15_000,
  );
  assert.deepEqual(driven.logs, [], 'no feed problems along the way');
}

describe('OpenHandsClient against the real OpenHands app server', function () {
  this.timeout(180_000);
  let env: RealServerEnv;
  let client: OpenHandsClient;
  let sandbox: SandboxInfo;
  let task: AppConversationStartTask;
  let conversation: AppConversation;
  /** The agent's usage as the feed's stats updates said it, once the scripted run finished. */
  let liveUsage: LlmUsage | undefined;

  before(() => {
    env = realServerEnv();
    // POST /api/v1/sandboxes answers once the new agent server does: up to 120 s on a busy machine
    // (serve_patched.py, patch 4)
    client = new OpenHandsClient({ baseUrl: env.url, apiKey: env.apiKey, timeoutMs: 150_000 });
  });

  describe('auth', () => {
    it('with SESSION_API_KEY set, V1 routes answer 401 to a client without the key', async () => {
      const anonymous = new OpenHandsClient({ baseUrl: env.url, timeoutMs: 10_000 });
      const error = await rejection(() => anonymous.searchSandboxes());
      assert.equal(error.kind, 'unauthorized');
      assert.equal(error.status, 401);
    });
  });

  describe('sandbox specs', () => {
    it('searchSandboxSpecs lists the process spec (python -m openhands.agent_server)', async () => {
      const page = await client.searchSandboxSpecs();
      assert.ok(page.items.length >= 1, 'at least one sandbox spec');
      assert.equal(page.next_page_id, null);
      const spec = page.items[0]!;
      assert.match(spec.id, /agent-server/);
      assert.deepEqual(spec.command, ['python', '-m', 'openhands.agent_server']);
    });

    it('getSandboxSpecs answers in input order with null for an unknown id', async () => {
      const [spec] = (await client.searchSandboxSpecs()).items;
      const got = await client.getSandboxSpecs(['no-such-spec', spec!.id]);
      assert.equal(got[0], null);
      assert.equal(got[1]?.id, spec!.id);
    });
  });

  describe('sandboxes', () => {
    it('startSandbox starts an agent-server process and reports it RUNNING with its URL and key', async () => {
      sandbox = await client.startSandbox();
      assert.equal(sandbox.status, 'RUNNING');
      assert.ok(sandbox.session_api_key, 'a running sandbox has a session key');
      const agent = sandbox.exposed_urls?.find((u) => u.name === 'AGENT_SERVER');
      assert.ok(agent, 'an AGENT_SERVER url');
      assert.match(agent.url, /^http:\/\/localhost:\d+$/);
      // process sandboxes have no oh-agent-server- prefix: a base62 id
      assert.match(sandbox.id, /^[0-9A-Za-z]+$/);
    });

    it('searchSandboxes lists it, newest first', async () => {
      const page = await client.searchSandboxes({ limit: 100 });
      assert.equal(page.items[0]?.id, sandbox.id);
      assert.equal(page.items[0]?.status, 'RUNNING');
    });

    it('searchSandboxes pages by offset', async () => {
      const second = await client.startSandbox();
      try {
        const first = await client.searchSandboxes({ limit: 1 });
        assert.equal(first.items.length, 1);
        assert.equal(first.next_page_id, '1');
        const next = await client.searchSandboxes({ limit: 1, pageId: first.next_page_id! });
        assert.notEqual(next.items[0]?.id, first.items[0]?.id);
      } finally {
        await client.deleteSandbox(second.id);
      }
    });

    it('getSandboxes answers in input order with null for an unknown id', async () => {
      const got = await client.getSandboxes(['nosuchsandbox', sandbox.id]);
      assert.equal(got[0], null);
      assert.equal(got[1]?.id, sandbox.id);
    });

    it('pauseSandbox suspends the process: PAUSED, key and URLs gone', async () => {
      assert.deepEqual(await client.pauseSandbox(sandbox.id), { success: true });
      const [paused] = await client.getSandboxes([sandbox.id]);
      assert.equal(paused?.status, 'PAUSED');
      assert.equal(paused?.session_api_key, null);
      assert.ok(
        paused?.exposed_urls === null || paused?.exposed_urls.length === 0,
        'no exposed URLs while paused',
      );
    });

    it('resumeSandbox resumes it: RUNNING again', async () => {
      assert.deepEqual(await client.resumeSandbox(sandbox.id), { success: true });
      const resumed = await until(
        'RUNNING after resume',
        async () => {
          const [info] = await client.getSandboxes([sandbox.id]);
          return info?.status === 'RUNNING' ? info : undefined;
        },
        30_000,
      );
      assert.ok(resumed.session_api_key, 'a resumed sandbox has a session key');
    });

    it('pause, resume and delete of an unknown sandbox are 404 not_found', async () => {
      for (const call of [
        () => client.pauseSandbox('nosuchsandbox'),
        () => client.resumeSandbox('nosuchsandbox'),
        () => client.deleteSandbox('nosuchsandbox'),
      ]) {
        const error = await rejection(call);
        assert.equal(error.status, 404);
        assert.equal(error.kind, 'not_found');
      }
    });

    it('a page size above 100 is refused by the client before any request', async () => {
      const error = await rejection(() => client.searchSandboxes({ limit: 101 }));
      assert.equal(error.kind, 'validation');
      assert.equal(error.status, undefined);
    });
  });

  describe('conversations with the scripted LLM', () => {
    it('createConversation returns a WORKING start task, not a conversation', async () => {
      task = await client.createConversation({
        sandbox_id: sandbox.id,
        initial_message: { role: 'user', content: [{ type: 'text', text: MESSAGE }] },
      });
      assert.equal(task.status, 'WORKING');
      assert.match(task.id, /^[0-9a-f]{32}$/);
      assert.equal(task.app_conversation_id, null);
    });

    it('waitForStartTask polls the task to READY with the conversation id', async () => {
      task = await client.waitForStartTask(task.id, { timeoutMs: 150_000, intervalMs: 1000 });
      assert.equal(task.status, 'READY');
      assert.match(task.app_conversation_id ?? '', /^[0-9a-f]{32}$/);
      assert.equal(task.sandbox_id, sandbox.id);
    });

    it('getConversations returns it (and null for an unknown id)', async () => {
      const unknown = '0'.repeat(32);
      const [found, missing] = await client.getConversations([task.app_conversation_id!, unknown]);
      assert.ok(found, 'the conversation is found');
      assert.equal(missing, null);
      conversation = found;
      assert.equal(conversation.sandbox_id, sandbox.id);
      assert.equal(conversation.sandbox_status, 'RUNNING');
      assert.match(conversation.conversation_url ?? '', /\/api\/conversations\/[0-9a-f]{32}$/);
    });

    it('the agent really ran: think, the shell command and finish, with the command output', async () => {
      const finished = await until(
        'execution_status finished',
        async () => {
          const [c] = await client.getConversations([conversation.id]);
          return c?.execution_status === 'finished' ? c : undefined;
        },
        120_000,
      );
      const events = await agentEvents(finished.conversation_url!, finished.session_api_key!);
      const actions = events.flatMap((e) => (e.action?.kind ? [e.action.kind] : []));
      assert.deepEqual(actions, ['ThinkAction', 'TerminalAction', 'FileEditorAction', 'FinishAction']);
      const command = events.find((e) => e.action?.kind === 'TerminalAction')?.action?.command;
      assert.equal(command, SCRIPTED_COMMAND);
      const output = events
        .filter((e) => e.observation?.kind === 'TerminalObservation')
        .flatMap((e) => e.observation?.content ?? [])
        .map((c) => c.text ?? '')
        .join('');
      assert.match(output, /scripted-llm-was-here/);
      const finish = events.find((e) => e.action?.kind === 'FinishAction')?.action?.message;
      assert.equal(finish, SCRIPTED_FINISH);
    });

    it('the agent-server feed reads the whole conversation and goes live; the panel transcript shows it', async () => {
      const [current] = await client.getConversations([conversation.id]);
      const endpoint = current ? agentEndpointOf(current) : undefined;
      assert.ok(endpoint?.sessionApiKey, 'a running conversation has an agent-server URL and key');
      const logs: string[] = [];
      const feed = new EventFeed({
        resolve: async () => ({ endpoint }),
        clientFor: (target) => new AgentServerClient({ endpoint: target, timeoutMs: 30_000 }),
        log: (line) => logs.push(line),
      });
      feed.start();
      try {
        await until(
          'the feed is live with the whole history',
          async () => (feed.current.status === 'live' && feed.current.historyComplete ? true : undefined),
          30_000,
        );
        const count = await new AgentServerClient({ endpoint, timeoutMs: 30_000 }).countEvents();
        assert.equal(feed.events.size, count, 'every stored event, once');
        assert.equal(feed.current.executionStatus, 'finished', 'the status from the socket snapshot');
        // the stats updates: the scripted LLM reports 100 prompt and 20 completion tokens a call
        const usage = feed.current.usage?.main;
        assert.ok(usage, 'the usage from the stats updates');
        assert.equal(usage.usageId, 'agent');
        assert.ok(usage.tokens.prompt >= 100, `prompt tokens: ${usage.tokens.prompt}`);
        assert.equal(usage.lastTurnTokens, 120, 'the newest call: 100 + 20');
        liveUsage = usage;
        const transcript = new Transcript();
        transcript.append(feed.events.events);
        const rows = transcript.all;
        const user = rows.find((row) => row.kind === 'message' && row.role === 'user');
        assert.ok(user?.kind === 'message' && user.markdown === MESSAGE, 'the user message');
        const terminal = rows.find((row) => row.kind === 'action' && row.terminal);
        assert.ok(terminal?.kind === 'action' && terminal.terminal, 'a terminal row');
        assert.equal(terminal.terminal.command, SCRIPTED_COMMAND);
        assert.match(terminal.terminal.output ?? '', /scripted-llm-was-here/);
        assert.equal(terminal.terminal.exitCode, 0);
        assert.equal(terminal.state, 'done');
        const edit = rows.find((row) => row.kind === 'action' && row.edit);
        assert.ok(edit?.kind === 'action' && edit.edit, 'the file edit');
        assert.ok(edit.edit.path.endsWith(`/${SCRIPTED_FILE}`), 'the edit row names the created file');
        assert.equal(edit.edit.created, true);
        assert.deepEqual(
          edit.edit.lines.map((line) => `${line.op}${line.text}`),
          SCRIPTED_FILE_TEXT.trimEnd()
            .split('\n')
            .map((line) => `+${line}`),
        );
        const last = rows.at(-1);
        assert.ok(
          last?.kind === 'message' && last.role === 'agent' && last.markdown === SCRIPTED_FINISH,
          'the finish message last',
        );
        assert.deepEqual(logs, [], 'no problems along the way');
      } finally {
        feed.dispose();
      }
    });

    it('the event socket: first-message auth is live at once, a wrong key is refused (4001)', async () => {
      const [current] = await client.getConversations([conversation.id]);
      const endpoint = current ? agentEndpointOf(current) : undefined;
      assert.ok(endpoint, 'the conversation has an agent-server endpoint');
      const frames: AgentEvent[] = [];
      const socket = await openEventSocket({
        endpoint,
        auth: 'first-message',
        onEvent: (event) => frames.push(event),
      });
      await until('the state snapshot', async () => (frames.length > 0 ? true : undefined), 10_000);
      assert.equal(frames[0]?.kind, 'ConversationStateUpdateEvent');
      assert.equal(frames[0]?.['key'], 'full_state');
      socket.close();
      assert.equal((await socket.ended).kind, 'cancelled');
      const refused = await rejection(() =>
        openEventSocket({
          endpoint: { ...endpoint, sessionApiKey: 'not-the-key' },
          auth: 'first-message',
          onEvent: () => undefined,
        }),
      );
      assert.equal(refused.kind, 'unauthorized');
      const refusedQuery = await rejection(() =>
        openEventSocket({
          endpoint: { ...endpoint, sessionApiKey: 'not-the-key' },
          auth: 'query',
          onEvent: () => undefined,
        }),
      );
      assert.equal(refusedQuery.kind, 'unauthorized');
      assert.equal(refusedQuery.status, 403, 'a wrong query key is a refused handshake');
      assert.ok(!String(refusedQuery.message).includes('not-the-key'), 'the refusal does not echo the key');
    });

    it('the event socket keepalive: the agent server answers its pings; a paused sandbox (process stopped, connection open) is given up as silent', async () => {
      const [current] = await client.getConversations([conversation.id]);
      const endpoint = current ? agentEndpointOf(current) : undefined;
      assert.ok(current && endpoint, 'the conversation has an agent-server endpoint');
      const frames: AgentEvent[] = [];
      const socket = await openEventSocket({
        endpoint,
        auth: 'first-message',
        pingIntervalMs: 300,
        pongTimeoutMs: 1000,
        onEvent: (event) => frames.push(event),
      });
      await until('the state snapshot', async () => (frames.length > 0 ? true : undefined), 10_000);
      // the agent has finished: only the keepalive's pongs can keep the socket for more than 1.3 s
      // (uvicorn's own pings come every 20 s)
      const quiet = await Promise.race([socket.ended, sleep(4000).then(() => 'live' as const)]);
      assert.equal(quiet, 'live', `given up while quiet: ${quiet instanceof Error ? quiet.message : ''}`);
      // the process sandbox is suspended (SIGSTOP): the TCP connection stays open, nothing answers
      assert.deepEqual(await client.pauseSandbox(current.sandbox_id), { success: true });
      try {
        const why = await Promise.race([socket.ended, sleep(15_000).then(() => undefined)]);
        assert.ok(why instanceof SilentSocketError, `not given up as silent: ${String(why)}`);
        assert.equal(why.kind, 'timeout');
        assert.ok(why.silentMs >= 1300, `given up after ${why.silentMs} ms`);
      } finally {
        socket.close();
        await client.resumeSandbox(current.sandbox_id);
        await until(
          'RUNNING after resume',
          async () => {
            const [info] = await client.getSandboxes([current.sandbox_id]);
            return info?.status === 'RUNNING' ? info : undefined;
          },
          30_000,
        );
      }
    });

    it('searchConversations lists it with its sandbox status; titleContains filters', async () => {
      const page = await client.searchConversations({ limit: 100 });
      const row = page.items.find((c) => c.id === conversation.id);
      assert.ok(row, 'the conversation is listed');
      assert.equal(row.sandbox_id, sandbox.id);
      assert.match(row.title ?? '', /^Conversation [0-9a-f]{5}$/);
      const filtered = await client.searchConversations({ titleContains: row.title!.slice(-5) });
      assert.deepEqual(
        filtered.items.map((c) => c.id),
        [conversation.id],
      );
      const none = await client.searchConversations({ titleContains: 'no-such-title-anywhere' });
      assert.deepEqual(none.items, []);
    });

    it('countConversations counts it, with and without a filter', async () => {
      assert.ok((await client.countConversations()) >= 1, 'at least one conversation');
      assert.equal(await client.countConversations({ titleContains: 'no-such-title-anywhere' }), 0);
    });

    it('listSandboxConversations returns the conversations of one sandbox', async () => {
      const result = await client.listSandboxConversations(sandbox.id);
      assert.deepEqual(
        result.items.map((c) => c.id),
        [conversation.id],
      );
    });

    it('searchStartTasks, countStartTasks and getStartTasks find the start task', async () => {
      const page = await client.searchStartTasks({ conversationIdEq: conversation.id });
      assert.deepEqual(
        page.items.map((t) => t.id),
        [task.id],
      );
      assert.equal(await client.countStartTasks({ conversationIdEq: conversation.id }), 1);
      const [got, missing] = await client.getStartTasks([task.id, '0'.repeat(32)]);
      assert.equal(got?.status, 'READY');
      assert.equal(missing, null);
    });

    it('createConversationStreaming reports each step and ends READY (in the same sandbox)', async () => {
      const seen: string[] = [];
      const last = await client.createConversationStreaming(
        { sandbox_id: sandbox.id, initial_message: { content: [{ type: 'text', text: MESSAGE }] } },
        { onProgress: (t) => seen.push(t.status) },
      );
      assert.equal(last.status, 'READY');
      assert.equal(seen.at(-1), 'READY');
      assert.ok(seen.length >= 2, `progress: ${seen.join(' → ')}`);
      const result = await client.listSandboxConversations(sandbox.id);
      assert.equal(result.items.length, 2);
    });

    it('searchConversations pages with next_page_id', async () => {
      const first = await client.searchConversations({ limit: 1 });
      assert.equal(first.items.length, 1);
      assert.ok(first.next_page_id, 'a next page');
      const second = await client.searchConversations({ limit: 1, pageId: first.next_page_id });
      assert.notEqual(second.items[0]?.id, first.items[0]?.id);
    });

    it('the list knows no cost with process sandboxes (no webhook in 1.11): only the live stats say it', async () => {
      const live = liveUsage;
      assert.ok(live && live.tokens.prompt > 0, 'the feed test saw the usage');
      // docker and remote sandboxes post events to /api/v1/webhooks (OH_WEBHOOKS_0_BASE_URL), in fives
      // or 30 s after the last; a process sandbox is given no webhook, so the list keeps its zeros
      const [current] = await client.getConversations([conversation.id]);
      assert.equal(current?.metrics?.accumulated_token_usage?.prompt_tokens, 0);
      assert.equal(statsFromMetrics(current?.metrics), undefined, 'zeros are no cost to show');
    });
  });

  describe('agent control on the agent server (AgentServerClient: send, run, pause, interrupt, confirmation)', () => {
    let first: Driven | undefined;
    let confirming: Driven | undefined;
    let confirmingConversation: AppConversation;

    after(() => {
      first?.feed.dispose();
      confirming?.feed.dispose();
    });

    it('sendMessage(text, true) on a finished conversation: the agent runs the follow-up command and finishes', async () => {
      const [current] = await client.getConversations([conversation.id]);
      assert.ok(current, 'the first conversation is found');
      first = await drive(current);
      const { agent } = first;
      assert.equal(await status(agent), 'finished');
      const before = (await storedEvents(agent)).length;
      assert.deepEqual(await agent.sendMessage(FOLLOW_UP, true), { success: true });
      const added = await untilEvents(
        'the follow-up run finished',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      const user = added.find((e) => e.kind === 'MessageEvent' && e.source === 'user');
      assert.equal(textOf(user?.llm_message?.content), FOLLOW_UP, 'the user message');
      // a message to a finished conversation makes it idle first, then the run starts
      assert.deepEqual(statusesIn(added), ['idle', 'running', 'finished']);
      const actions = actionsIn(added);
      assert.deepEqual(
        actions.map((e) => e.action?.kind),
        ['TerminalAction', 'FinishAction'],
      );
      const terminal = actions[0]!;
      assert.equal(terminal.action?.command, SCRIPTED_FOLLOW_UP_COMMAND);
      const observation = observationOf(added, terminal);
      assert.equal(observation?.observation?.kind, 'TerminalObservation');
      assert.equal(observation.observation.exit_code, 0);
      assert.match(textOf(observation.observation.content), /scripted-follow-up-was-here/);
      assert.equal(actions[1]?.action?.message, SCRIPTED_FOLLOW_UP_FINISH);
      assert.equal(await status(agent), 'finished');

      await feedCaughtUp(first, 'finished');
      const transcript = new Transcript();
      transcript.append(first.feed.events.events);
      const terminals = transcript.all.flatMap((row) => (row.kind === 'action' && row.terminal ? [row] : []));
      assert.deepEqual(
        terminals.map((row) => [row.terminal?.command, row.terminal?.exitCode, row.state]),
        [
          [SCRIPTED_COMMAND, 0, 'done'],
          [SCRIPTED_FOLLOW_UP_COMMAND, 0, 'done'],
        ],
      );
      const last = transcript.all.at(-1);
      assert.ok(
        last?.kind === 'message' && last.role === 'agent' && last.markdown === SCRIPTED_FOLLOW_UP_FINISH,
        'the follow-up finish message last',
      );
    });

    it('run() while the agent runs is a 409; run() on a finished conversation is a no-op success', async () => {
      assert.ok(first, 'the first conversation is driven');
      const { agent } = first;
      const before = (await storedEvents(agent)).length;
      // the scripted LLM holds each answer of this turn back: the run is still on when run() comes
      assert.deepEqual(await agent.sendMessage(SLOW_FOLLOW_UP, true), { success: true });
      await untilStatus(agent, 'running', 10_000);
      const refused = await rejection(() => agent.run());
      assert.equal(refused.status, 409);
      assert.equal(refused.kind, 'validation');
      assert.match(refused.message, /already running/i);
      const added = await untilEvents(
        'the slow follow-up finished',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      assert.deepEqual(
        actionsIn(added).map((e) => e.action?.kind),
        ['TerminalAction', 'FinishAction'],
        'the refused run() changed nothing in the run',
      );

      const count = await agent.countEvents();
      assert.deepEqual(await agent.run(), { success: true });
      await sleep(2000);
      assert.equal(await status(agent), 'finished');
      assert.equal(await agent.countEvents(), count, 'run() on a finished conversation stored nothing');
      await feedCaughtUp(first, 'finished');
    });

    it('interrupt() while the model call is in flight: paused with an InterruptEvent; run() carries on to finished', async () => {
      assert.ok(first, 'the first conversation is driven');
      const { agent } = first;
      const before = (await storedEvents(agent)).length;
      assert.deepEqual(await agent.sendMessage(SLOW_FOLLOW_UP, true), { success: true });
      await untilStatus(agent, 'running', 10_000);
      await sleep(1000); // the model call has started and is held back by the scripted LLM
      assert.deepEqual(await agent.interrupt(), { success: true });
      const interrupted = await untilEvents(
        'paused after the interrupt',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'paused',
        10_000,
      );
      assert.ok(
        interrupted.some((e) => e.kind === 'InterruptEvent' && e.source === 'user'),
        `an InterruptEvent: ${interrupted.map((e) => e.kind).join(', ')}`,
      );
      assert.deepEqual(actionsIn(interrupted), [], 'the cancelled model call made no action');
      await sleep(SCRIPTED_SLOW_MS);
      assert.equal(await status(agent), 'paused', 'still paused once the held-back answer would have come');

      assert.deepEqual(await agent.run(), { success: true });
      const added = await untilEvents(
        'finished after run()',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      assert.deepEqual(
        actionsIn(added).map((e) => [e.action?.kind, e.action?.command ?? e.action?.message]),
        [
          ['TerminalAction', SCRIPTED_FOLLOW_UP_COMMAND],
          ['FinishAction', SCRIPTED_FOLLOW_UP_FINISH],
        ],
      );
      await feedCaughtUp(first, 'finished');
    });

    it('a conversation started without a message is idle; setConfirmationPolicy(AlwaysConfirm) holds', async () => {
      const started = await client.createConversation({ sandbox_id: sandbox.id });
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found, 'the new conversation is found');
      confirmingConversation = found;
      confirming = await drive(confirmingConversation);
      const { agent } = confirming;
      const info = await agent.getConversation();
      assert.equal(info.execution_status, 'idle');
      assert.equal(info.confirmation_policy?.kind, 'NeverConfirm');
      assert.deepEqual(await agent.setConfirmationPolicy({ kind: 'AlwaysConfirm' }), { success: true });
      assert.equal((await agent.getConversation()).confirmation_policy?.kind, 'AlwaysConfirm');
      const events = await storedEvents(agent);
      const policy = events.find(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'confirmation_policy',
      );
      assert.deepEqual(policy?.value, { kind: 'AlwaysConfirm' });
      await until(
        'the feed knows the policy',
        async () => (confirming?.feed.current.confirmationPolicy === 'AlwaysConfirm' ? true : undefined),
        15_000,
      );
      await feedCaughtUp(confirming, 'idle');
    });

    it('with AlwaysConfirm the terminal action waits: waiting_for_confirmation, an ActionEvent without observation', async () => {
      assert.ok(confirming, 'the confirming conversation is driven');
      const { agent } = confirming;
      assert.deepEqual(await agent.sendMessage(MESSAGE, true), { success: true });
      await untilStatus(agent, 'waiting_for_confirmation');
      const events = await storedEvents(agent);
      const actions = actionsIn(events);
      // a lone think never waits; the terminal action does
      assert.deepEqual(
        actions.map((e) => e.action?.kind),
        ['ThinkAction', 'TerminalAction'],
      );
      assert.ok(observationOf(events, actions[0]!), 'the think ran');
      const terminal = actions[1]!;
      assert.equal(terminal.action?.command, SCRIPTED_COMMAND);
      assert.equal(observationOf(events, terminal), undefined, 'the terminal action has not run');
      assert.ok(!events.some((e) => e.kind === 'UserRejectObservation'), 'nothing rejected yet');
      assert.equal(statusesIn(events).at(-1), 'waiting_for_confirmation');

      await feedCaughtUp(confirming, 'waiting_for_confirmation');
      const transcript = new Transcript();
      transcript.append(confirming.feed.events.events);
      const row = transcript.all.find((r) => r.kind === 'action' && r.terminal);
      assert.ok(row?.kind === 'action', 'a terminal action row');
      assert.equal(row.state, 'awaiting', 'the panel shows the action as awaiting approval');
    });

    it('respondToConfirmation(false, reason): a UserRejectObservation with the reason, idle, and the agent stays idle', async () => {
      assert.ok(confirming, 'the confirming conversation is driven');
      const { agent } = confirming;
      const before = await storedEvents(agent);
      const terminal = actionsIn(before).at(-1)!;
      const reason = 'The client test rejects this command.';
      assert.deepEqual(await agent.respondToConfirmation(false, reason), { success: true });
      await untilStatus(agent, 'idle', 10_000);
      const added = await untilEvents('the rejection', agent, before.length, (events) =>
        events.some((e) => e.kind === 'UserRejectObservation'),
      );
      const rejected = added.find((e) => e.kind === 'UserRejectObservation');
      assert.equal(rejected?.action_id, terminal.id);
      assert.equal(rejected.rejection_reason, reason);
      assert.equal(rejected.rejection_source, 'user');
      assert.equal(rejected.tool_name, 'terminal');
      assert.deepEqual(statusesIn(added), ['idle']);

      // the agent does not go on by itself
      await sleep(2000);
      const later = await storedEvents(agent);
      assert.deepEqual(actionsIn(later.slice(before.length)), [], 'no new action');
      assert.equal(observationOf(later, terminal), undefined, 'the rejected command never ran');
      assert.equal(await status(agent), 'idle');

      await feedCaughtUp(confirming, 'idle');
      const transcript = new Transcript();
      transcript.append(confirming.feed.events.events);
      const row = transcript.all.find((r) => r.kind === 'action' && r.terminal);
      assert.ok(row?.kind === 'action', 'a terminal action row');
      assert.equal(row.state, 'rejected');
      assert.equal(row.result, reason);
    });

    it('pause() while idle: paused, with a PauseEvent', async () => {
      assert.ok(confirming, 'the confirming conversation is driven');
      const { agent } = confirming;
      const before = (await storedEvents(agent)).length;
      assert.deepEqual(await agent.pause(), { success: true });
      await untilStatus(agent, 'paused', 10_000);
      const added = await untilEvents('the PauseEvent', agent, before, (events) =>
        events.some((e) => e.kind === 'PauseEvent'),
      );
      assert.deepEqual(statusesIn(added), ['paused']);
      assert.equal(added.find((e) => e.kind === 'PauseEvent')?.source, 'user');
      assert.deepEqual(actionsIn(added), []);
      await feedCaughtUp(confirming, 'paused');
    });

    it('a second message: a new terminal action waits; respondToConfirmation(true) runs it and the agent finishes', async () => {
      assert.ok(confirming, 'the confirming conversation is driven');
      const { agent } = confirming;
      const before = (await storedEvents(agent)).length;
      assert.deepEqual(await agent.sendMessage(FOLLOW_UP, true), { success: true });
      const waiting = await untilEvents(
        'the follow-up terminal action waits',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'waiting_for_confirmation',
      );
      assert.equal(await status(agent), 'waiting_for_confirmation');
      const [terminal, ...more] = actionsIn(waiting);
      assert.deepEqual(more, []);
      assert.equal(terminal?.action?.command, SCRIPTED_FOLLOW_UP_COMMAND);
      assert.equal(observationOf(waiting, terminal), undefined);

      assert.deepEqual(await agent.respondToConfirmation(true), { success: true });
      const added = await untilEvents(
        'finished after the accept',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      const observation = observationOf(added, terminal);
      assert.equal(observation?.observation?.kind, 'TerminalObservation');
      assert.equal(observation.observation.exit_code, 0);
      assert.match(textOf(observation.observation.content), /scripted-follow-up-was-here/);
      assert.deepEqual(
        actionsIn(added).map((e) => e.action?.kind),
        ['TerminalAction', 'FinishAction'],
        'a lone finish needs no confirmation',
      );
      assert.equal(actionsIn(added)[1]?.action?.message, SCRIPTED_FOLLOW_UP_FINISH);
      assert.ok(!added.some((e) => e.kind === 'UserRejectObservation'), 'nothing rejected');
      await feedCaughtUp(confirming, 'finished');
    });

    it('a rejection and then run(): the model reads "Action rejected" and finishes', async () => {
      assert.ok(confirming, 'the confirming conversation is driven');
      const { agent } = confirming;
      const before = (await storedEvents(agent)).length;
      assert.deepEqual(await agent.sendMessage(FOLLOW_UP, true), { success: true });
      await untilEvents(
        'the terminal action waits',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'waiting_for_confirmation',
      );
      assert.deepEqual(await agent.respondToConfirmation(false, 'not this time'), { success: true });
      await untilStatus(agent, 'idle', 10_000);
      assert.deepEqual(await agent.run(), { success: true });
      const added = await untilEvents(
        'finished after run()',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      const [terminal, finish, ...more] = actionsIn(added);
      assert.deepEqual(more, []);
      assert.equal(terminal?.action?.command, SCRIPTED_FOLLOW_UP_COMMAND);
      assert.equal(observationOf(added, terminal), undefined, 'the rejected command never ran');
      assert.equal(added.find((e) => e.kind === 'UserRejectObservation')?.rejection_reason, 'not this time');
      assert.equal(finish?.action?.kind, 'FinishAction');
      assert.equal(finish.action.message, SCRIPTED_REJECTED_FINISH);
      await feedCaughtUp(confirming, 'finished');
    });
  });

  describe('switching the model of a running conversation (switch_profile)', () => {
    const SECOND = 'openai/scripted-llm-second';
    const SECOND_KEY = 'sk-scripted-second-profile';
    let switched: Driven | undefined;
    let switchedId = '';

    after(async () => {
      switched?.feed.dispose();
      await client.modelSetup.deleteProfile('vscode-second').catch(() => undefined);
    });

    it('the next model call goes to the second profile’s model; the new agent is stored, the feed and the transcript say it', async () => {
      const saved = await client.modelSetup.saveProfile('vscode-second', {
        model: SECOND,
        apiKey: SECOND_KEY,
        baseUrl: env.llmBaseUrl,
      });
      assert.ok(saved.offered, 'profiles are offered');
      // no message yet: nothing has called a model when the switch comes (as New Conversation does it)
      const started = await client.createConversation(sandbox ? { sandbox_id: sandbox.id } : {});
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found, 'the new conversation is found');
      switchedId = found.id;
      switched = await drive(found);
      const { agent, feed } = switched;
      const firstModel = feed.current.model;
      assert.ok(firstModel && firstModel !== SECOND, `it starts on the settings' model (${firstModel})`);
      assert.deepEqual(await client.modelSetup.switchProfile(found.id, 'vscode-second'), {
        offered: true,
        value: { success: true },
      });
      // the agent server stores the new agent (the SDK's state callback); the key is masked in it
      const events = await storedEvents(agent);
      const update = events.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent');
      const llm = (update?.value as { llm?: { model?: string; usage_id?: string; api_key?: unknown } })?.llm;
      assert.equal(llm?.model, SECOND);
      assert.match(llm?.usage_id ?? '', /^profile:vscode-second:[0-9a-f]{12}$/);
      assert.ok(!JSON.stringify(events).includes(SECOND_KEY), 'the key is not in the events');
      await until(
        'the feed says the new model',
        async () => (feed.current.model === SECOND ? true : undefined),
        15_000,
      );
      const [listed] = await client.getConversations([found.id]);
      assert.equal(listed?.llm_model, SECOND, 'the app server keeps the new model on the conversation');

      const asked = (await scriptedRequests(env.llmBaseUrl)).length;
      const before = events.length;
      assert.deepEqual(await agent.sendMessage(MESSAGE, true), { success: true });
      await untilEvents(
        'the run on the second model finished',
        agent,
        before,
        (added) => statusesIn(added).at(-1) === 'finished',
      );
      const calls = (await scriptedRequests(env.llmBaseUrl)).slice(asked);
      assert.ok(calls.length > 0, 'the run called the model');
      assert.deepEqual(
        [...new Set(calls.map((call) => call.model))],
        [SECOND.replace(/^openai\//, '')],
        'every call of the run went to the second model',
      );
      await feedCaughtUp(switched, 'finished');
      const transcript = new Transcript();
      transcript.append(feed.events.events);
      const marks = transcript.all.filter(
        (row) => row.kind === 'notice' && row.title.startsWith('Model switched'),
      );
      assert.deepEqual(
        marks.map((row) => (row.kind === 'notice' ? [row.title, row.detail] : [])),
        [[`Model switched to ${SECOND}`, 'From the saved profile “vscode-second”.']],
      );
    });

    it('switch_profile on a paused sandbox is a 409', async () => {
      assert.ok(switched, 'the switched conversation runs');
      const [current] = await client.getConversations([switchedId]);
      assert.ok(current?.sandbox_id, 'its sandbox is known');
      await client.pauseSandbox(current.sandbox_id);
      try {
        await until(
          'the sandbox paused',
          async () =>
            (await client.getSandboxes([current.sandbox_id]))[0]?.status === 'PAUSED' ? true : undefined,
          60_000,
        );
        const refused = await rejection(() => client.modelSetup.switchProfile(current.id, 'vscode-second'));
        assert.equal(refused.status, 409);
        assert.match(refused.serverMessage ?? '', /Sandbox is paused/);
      } finally {
        await client.resumeSandbox(current.sandbox_id);
        await until(
          'the sandbox running again',
          async () =>
            (await client.getSandboxes([current.sandbox_id]))[0]?.status === 'RUNNING' ? true : undefined,
          150_000,
        );
      }
    });
  });

  describe('settings and git providers', () => {
    it('getSettings reads the stored settings (the scripted LLM stored by the clicks in VS Code, or by the driver)', async () => {
      const settings = await client.getSettings();
      assert.match(JSON.stringify(settings), /"openai\/scripted-llm"/);
    });

    it('storeSettings stores MCP servers (an agent_settings_diff) that the server then holds', async () => {
      // 1.11 merges partial payloads; MCP servers are a name map that replaces the stored one
      const mcpConfig = (servers: Record<string, unknown>) => ({
        agent_settings_diff: { mcp_config: servers },
      });
      await client.storeSettings(mcpConfig({ probe: { url: 'http://127.0.0.1:9/sse', transport: 'sse' } }));
      try {
        const raw = await realRequest<{ agent_settings?: { mcp_config?: Record<string, { url?: string }> } }>(
          env,
          'GET',
          '/api/v1/settings',
        );
        assert.deepEqual(raw.body.agent_settings?.mcp_config, {
          probe: { url: 'http://127.0.0.1:9/sse', transport: 'sse' },
        });
      } finally {
        // an unreachable MCP server makes every later conversation start fail (the agent server's 500)
        await client.storeSettings(mcpConfig({}));
      }
    });

    it('the MCP form: a kept key and env survive a later save that replaces the whole map', async () => {
      const kept = new Map<string, FormSecrets>();
      const storage = {
        load: async (url: string) => kept.get(url) ?? emptyFormSecrets(),
        save: async (url: string, secrets: FormSecrets) => void kept.set(url, secrets),
      };
      const lines: string[] = [];
      const log = { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
      const form = new FormSave(storage, log, ENGLISH_STRINGS);
      const secrets = ['real-sse-key-0001', 'real-env-value-0002'];
      const model = async (): Promise<FormModel> => {
        const loaded = await form.load(env.url, client);
        assert.ok(loaded.model, loaded.loadProblem ?? 'no model');
        return loaded.model;
      };
      const save = async (draft: ReturnType<typeof toProtocolDraft>) => {
        const result = await form.save(env.url, draft, client);
        assert.equal(result.kind, 'saved', JSON.stringify(result));
        assert.ok(result.kind === 'saved', 'the save result is saved');
        assert.equal(result.outcome.mcp.status, 'synced', JSON.stringify(result.outcome));
        return result;
      };
      try {
        const first = toProtocolDraft(draftFromModel(await model()));
        first.mcp.sse.push({
          id: null,
          url: 'http://127.0.0.1:9/sse',
          apiKey: { state: 'replace', value: secrets[0]! },
        });
        first.mcp.stdio.push({
          id: null,
          name: 'probe',
          command: 'true',
          args: [],
          env: [{ id: null, name: 'PROBE_TOKEN', value: { state: 'replace', value: secrets[1]! } }],
        });
        await save(first);

        // Read again: 1.11 shows only that the key exists and drops env; the form still shows both.
        const reread = await model();
        assert.deepEqual(
          reread.mcp.sse.map((s) => [s.url, s.apiKey]),
          [['http://127.0.0.1:9/sse', 'set']],
        );
        assert.deepEqual(
          reread.mcp.stdio.map((s) => [s.name, s.env.map((row) => [row.name, row.value])]),
          [['probe', [['PROBE_TOKEN', 'set']]]],
        );

        // A second save replaces the whole map: the untouched SSE server must keep its key.
        const second = toProtocolDraft(draftFromModel(reread));
        second.mcp.shttp.push({
          id: null,
          url: 'http://127.0.0.1:9/mcp',
          apiKey: { state: 'unset' },
          timeout: '',
        });
        const after = await save(second);
        const raw = await realRequest<{
          agent_settings?: { mcp_config?: Record<string, { url?: string; auth?: unknown }> };
        }>(env, 'GET', '/api/v1/settings');
        const servers = Object.values(raw.body.agent_settings?.mcp_config ?? {});
        const sse = servers.find((s) => s.url === 'http://127.0.0.1:9/sse');
        assert.ok(
          sse?.auth,
          `the SSE server lost its key: ${JSON.stringify(raw.body.agent_settings?.mcp_config)}`,
        );
        assert.ok(
          servers.some((s) => s.url === 'http://127.0.0.1:9/mcp'),
          'the new HTTP server is stored',
        );
        assert.equal(after.model?.mcp.stdio[0]?.env[0]?.value, 'set', 'the env still shown');
        for (const secret of secrets) {
          assert.ok(!JSON.stringify([reread, after]).includes(secret), 'no secret in the model or outcome');
          assert.ok(!lines.join('\n').includes(secret), 'no secret in the log');
        }
      } finally {
        // an unreachable MCP server makes every later conversation start fail (the agent server's 500)
        await client.storeSettings({ agent_settings_diff: { mcp_config: {} } });
      }
    });

    it('model setup: the stored model reads back (key as a flag only), readiness says ready', async () => {
      const read = await client.modelSetup.readModelSettings();
      assert.ok(read.offered && read.value.kind === 'stored', `read ${JSON.stringify(read)}`);
      assert.equal(read.value.settings.generation, 'v1');
      assert.equal(read.value.settings.model, 'openai/scripted-llm');
      assert.equal(read.value.settings.apiKeySet, true);
      // agent_settings.condenser.enabled (sdk/settings/model.py), on by default
      assert.equal(read.value.settings.condenserEnabled, true);
      assert.equal(modelReadiness(read), 'ready');
    });

    it('model setup: the catalogue pages to its end, verified first; providers lead with openhands', async () => {
      const models = await client.modelSetup.searchModels({ provider: 'openai' });
      assert.ok(models.offered);
      assert.equal(models.value.complete, true);
      assert.ok(catalogueKnows(models.value.items, 'openai/gpt-5.5'), 'openai/gpt-5.5 is listed');
      assert.equal(models.value.items[0]?.verified, true);
      const firstUnverified = models.value.items.findIndex((m) => !m.verified);
      assert.ok(
        firstUnverified > 0 &&
          models.value.items.slice(firstUnverified).every((m) => !m.verified || m.hidden),
      );
      const providers = await client.modelSetup.searchProviders();
      assert.ok(providers.offered);
      assert.equal(providers.value.items[0]?.name, 'openhands');
      assert.equal(providers.value.items[0]?.verified, true);
    });

    it('model setup: a profile saved from the settings, activated, renamed and deleted; the model stays', async () => {
      const api = client.modelSetup;
      const saved = await api.saveProfile('vscode-snap');
      assert.ok(saved.offered);
      assert.equal(saved.value.message, "Profile 'vscode-snap' saved");
      const list = await api.listProfiles();
      assert.ok(list.offered);
      const entry = list.value.profiles.find((p) => p.name === 'vscode-snap');
      assert.deepEqual([entry?.model, entry?.api_key_set], ['openai/scripted-llm', true]);
      const one = await api.getProfile('vscode-snap');
      assert.ok(one.offered && one.value);
      assert.equal(one.value.config.model, 'openai/scripted-llm');
      assert.equal((one.value.config as Record<string, unknown>).api_key, null);
      assert.deepEqual(await api.getProfile('vscode-missing'), { offered: true, value: undefined });
      const activated = await api.activateProfile('vscode-snap');
      assert.ok(activated.offered);
      assert.equal(activated.value.model, 'openai/scripted-llm');
      await api.renameProfile('vscode-snap', 'vscode-renamed');
      const read = await api.readModelSettings();
      assert.ok(read.offered && read.value.kind === 'stored');
      assert.equal(read.value.settings.activeProfile, 'vscode-renamed');
      await api.deleteProfile('vscode-renamed');
      const after = await api.readModelSettings();
      assert.ok(after.offered && after.value.kind === 'stored');
      assert.deepEqual(
        [after.value.settings.model, after.value.settings.apiKeySet],
        ['openai/scripted-llm', true],
      );
      const gone = await api.listProfiles();
      assert.ok(gone.offered);
      assert.ok(!gone.value.profiles.some((p) => p.name.startsWith('vscode-')));
    });

    it('model setup: an unknown profile is a 404 with the server message; a bad name is refused here', async () => {
      const error = await rejection(() => client.modelSetup.activateProfile('vscode-none'));
      assert.equal(error.status, 404);
      assert.match(error.serverMessage ?? '', /Profile 'vscode-none' not found/);
      const refused = await rejection(() => client.modelSetup.saveProfile('no spaces'));
      assert.equal(refused.kind, 'validation');
    });

    it('storeProviderTokens: a token the provider rejects is a 401 with the server message', async () => {
      // host on loopback (a closed port): the server's provider checks never leave the machine
      const error = await rejection(() =>
        client.storeProviderTokens({
          provider_tokens: { github: { token: 'ghp_rejected', host: '127.0.0.1:9' } },
        }),
      );
      assert.equal(error.status, 401);
      assert.match(error.message, /Invalid token\. Please make sure it is a valid github token\./);
    });

    it('unsetProviderTokens clears the stored tokens', async () => {
      const reply = await client.unsetProviderTokens();
      assert.equal(reply.message, 'Unset Git provider tokens');
    });
  });

  describe('workspace changes on the agent server (AgentServerClient: gitChanges, gitDiff, downloadFile, workspaceDelta)', () => {
    // in the first sandbox (a new agent server takes 20-30 s to start, more on a busy machine): the
    // base commit takes in the earlier conversations' files, so only this turn's two differ
    let changesConversation: AppConversation;
    let agent: AgentServerClient;
    /** The sandbox's folder, absolute: where the agent works and the repository the server reads. */
    let workspace: string;
    let scratch: string | undefined;

    after(async () => {
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('the changes script: a base commit pushed to origin, a file_editor edit, a file made in the terminal, finish', async () => {
      const started = await client.createConversation({
        sandbox_id: sandbox.id,
        initial_message: { role: 'user', content: [{ type: 'text', text: CHANGES_MESSAGE }] },
      });
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      assert.equal(ready.status, 'READY', `the start task: ${ready.status} ${ready.detail ?? ''}`);
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found, 'the changes conversation is found');
      changesConversation = found;
      const endpoint = agentEndpointOf(changesConversation);
      assert.ok(endpoint?.sessionApiKey, 'a running conversation has an agent-server URL and key');
      agent = new AgentServerClient({ endpoint, timeoutMs: 30_000 });
      let last: string | null = null;
      const settled = await until(
        'the changes run settles',
        async () => {
          last = await status(agent);
          return last && !['idle', 'running'].includes(last) ? last : undefined;
        },
        120_000,
      ).catch(async (error: unknown) => {
        const seen = (await storedEvents(agent)).map((e) => e.action?.kind ?? e.observation?.kind ?? e.kind);
        throw new Error(`${String(error)}; status ${last}; events: ${seen.join(', ')}`);
      });
      const events = await storedEvents(agent);
      assert.equal(
        settled,
        'finished',
        `the run ended ${settled}: ${JSON.stringify(events.filter((e) => e.kind !== 'SystemPromptEvent')).slice(0, 4000)}`,
      );
      const actions = actionsIn(events);
      assert.deepEqual(
        actions.map((e) => [e.action?.kind, e.action?.command ?? e.action?.message]),
        [
          ['TerminalAction', SCRIPTED_CHANGES_BASE_COMMAND],
          ['FileEditorAction', 'str_replace'],
          ['TerminalAction', SCRIPTED_CHANGES_ADD_COMMAND],
          ['FinishAction', SCRIPTED_CHANGES_FINISH],
        ],
      );
      const [base, edit, add] = actions.map((action) => observationOf(events, action));
      assert.equal(
        base?.observation?.exit_code,
        0,
        `the base command: ${textOf(base?.observation?.content)}`,
      );
      assert.equal(add?.observation?.exit_code, 0, `the add command: ${textOf(add?.observation?.content)}`);
      assert.equal(edit?.observation?.is_error, false, `the edit: ${textOf(edit?.observation?.content)}`);
      // the absolute folder is nowhere in the conversation's info (working_dir "."): the terminal says it
      assert.equal((await agent.getConversation()).workspace?.working_dir, '.');
      workspace = base?.observation?.metadata?.working_dir ?? '';
      assert.ok(path.isAbsolute(workspace), `an absolute working_dir: ${workspace}`);
      assert.equal(path.basename(workspace), sandbox.id, 'the folder is the sandbox’s');
      assert.equal(edit?.observation?.path, path.join(workspace, SCRIPTED_CHANGES_EDITED));
      // a process sandbox's folder is on this machine
      assert.equal(
        fs.readFileSync(path.join(workspace, SCRIPTED_CHANGES_EDITED), 'utf8'),
        SCRIPTED_CHANGES_EDITED_TEXT,
      );
      assert.equal(
        fs.readFileSync(path.join(workspace, SCRIPTED_CHANGES_ADDED), 'utf8'),
        SCRIPTED_CHANGES_ADDED_TEXT,
      );
    });

    it('gitChanges: the edited file UPDATED and the new one ADDED, once the agent server’s own files are left out', async () => {
      assert.ok(workspace, 'the changes conversation ran');
      const changes = await agent.gitChanges(workspace);
      const own = changes.filter((change) => isAgentServerFile(change.path));
      assert.ok(own.length > 0, 'a process sandbox lists the agent server’s own files too');
      assert.deepEqual([...new Set(own.map((change) => change.status))], ['ADDED']);
      const expected = [
        { status: 'ADDED', path: SCRIPTED_CHANGES_ADDED },
        { status: 'UPDATED', path: SCRIPTED_CHANGES_EDITED },
      ];
      assert.deepEqual(agentChanges(changes).sort(byPath), expected);
      // a relative path resolves against the agent server's folder, the same one here
      const relative = await agent.gitChanges('.');
      assert.deepEqual(agentChanges(relative).sort(byPath), expected);
      // the app server's proxy answers the same
      const proxied = await realRequest<{ status: string; path: string }[]>(
        env,
        'GET',
        `/api/v1/app-conversations/${changesConversation.id}/git/changes?path=${encodeURIComponent(workspace)}`,
      );
      assert.equal(proxied.status, 200, `the app server's git/changes: ${JSON.stringify(proxied.body)}`);
      assert.deepEqual(
        proxied.body.filter((change) => !isAgentServerFile(change.path)).sort(byPath),
        expected,
      );
    });

    it('gitDiff: both sides of the edited file (base from origin), the new file against nothing; a missing file is a 400', async () => {
      assert.ok(workspace, 'the changes conversation ran');
      // the server joins the lines with \n: no trailing newline on either side
      assert.deepEqual(await agent.gitDiff(path.join(workspace, SCRIPTED_CHANGES_EDITED)), {
        modified: SCRIPTED_CHANGES_EDITED_TEXT.trimEnd(),
        original: SCRIPTED_CHANGES_BASE_TEXT.trimEnd(),
      });
      assert.deepEqual(await agent.gitDiff(path.join(workspace, SCRIPTED_CHANGES_ADDED)), {
        modified: SCRIPTED_CHANGES_ADDED_TEXT.trimEnd(),
        original: '',
      });
      assert.deepEqual(await agent.gitDiff(SCRIPTED_CHANGES_EDITED), {
        modified: SCRIPTED_CHANGES_EDITED_TEXT.trimEnd(),
        original: SCRIPTED_CHANGES_BASE_TEXT.trimEnd(),
      });
      const missing = await rejection(() => agent.gitDiff(path.join(workspace, 'no-such-file.txt')));
      assert.equal(missing.status, 400);
    });

    it('downloadFile: the new file’s bytes; a relative path is a 400', async () => {
      assert.ok(workspace, 'the changes conversation ran');
      const bytes = await agent.downloadFile(path.join(workspace, SCRIPTED_CHANGES_ADDED));
      assert.ok(Buffer.isBuffer(bytes), 'a Buffer');
      assert.equal(bytes.toString('utf8'), SCRIPTED_CHANGES_ADDED_TEXT);
      const relative = await rejection(() => agent.downloadFile(SCRIPTED_CHANGES_ADDED));
      assert.equal(relative.status, 400);
    });

    it('workspaceDelta: a patch of exactly the two files against the pushed base, which applies to a clone at that commit', async () => {
      assert.ok(workspace, 'the changes conversation ran');
      const delta = await agent.workspaceDelta(workspace, { exclude: AGENT_SERVER_EXCLUDES });
      assert.equal(delta.baseRef, 'auto');
      // the base commit is on origin (the branch's upstream) and nothing was committed since
      assert.equal(delta.baseCommit, git(workspace, 'rev-parse', '@{upstream}'), 'the base is origin');
      assert.equal(delta.baseCommit, git(workspace, 'rev-parse', 'HEAD'), 'the base is HEAD too');
      const patch = delta.patch.toString('utf8');
      assert.deepEqual(
        [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]),
        [SCRIPTED_CHANGES_ADDED, SCRIPTED_CHANGES_EDITED],
        `the patch holds the agent's two files only:\n${patch.slice(0, 2000)}`,
      );

      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'oh-delta-'));
      const clone = path.join(scratch, 'clone');
      git(scratch, 'clone', '-q', workspace, clone);
      git(clone, 'checkout', '-q', '--detach', delta.baseCommit!);
      const patchFile = path.join(scratch, 'delta.patch');
      fs.writeFileSync(patchFile, delta.patch);
      git(clone, 'apply', '--check', patchFile);
      git(clone, 'apply', '--3way', patchFile);
      assert.deepEqual(git(clone, 'status', '--porcelain').split('\n'), [
        `A  ${SCRIPTED_CHANGES_ADDED}`,
        `M  ${SCRIPTED_CHANGES_EDITED}`,
      ]);
      for (const file of [SCRIPTED_CHANGES_ADDED, SCRIPTED_CHANGES_EDITED]) {
        assert.equal(
          fs.readFileSync(path.join(clone, file), 'utf8'),
          fs.readFileSync(path.join(workspace, file), 'utf8'),
          `${file} in the clone is the sandbox's`,
        );
      }
    });
  });

  describe('images: a browser screenshot, and an image sent to the agent (a vision model name)', () => {
    // one conversation in the first sandbox (no new agent server to wait for), started under a model
    // name litellm says can see, its base URL still the scripted LLM's: the SDK then shows the model
    // the screenshot and the user's image (with the made-up name it leaves them out of the request)
    let page: TestPage;
    let browsing: Driven | undefined;
    let controller: ConversationController | undefined;
    /** The stored BrowserObservation of `browser_get_state`, whole. */
    let shot: EventView | undefined;

    before(async () => {
      page = await startTestPage();
    });
    after(async () => {
      controller?.dispose();
      browsing?.feed.dispose();
      await page?.close();
    });

    it('the browse script: browser_navigate to the test’s page, browser_get_state with a screenshot, finish; a PNG of the page is stored', async () => {
      const started = await client.createConversation({
        sandbox_id: sandbox.id,
        llm_model: SCRIPTED_VISION_MODEL,
        initial_message: {
          role: 'user',
          content: [{ type: 'text', text: `${SCRIPTED_BROWSE} Open ${page.url}, look at it, then finish.` }],
        },
      });
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      assert.equal(ready.status, 'READY', `the start task: ${ready.status} ${ready.detail ?? ''}`);
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found, 'the browsing conversation is found');
      assert.equal(found.llm_model, SCRIPTED_VISION_MODEL, 'the app server took the model name');
      browsing = await drive(found);
      const { agent } = browsing;
      await untilStatus(agent, 'finished', 120_000).catch(async (error: unknown) => {
        const seen = (await storedEvents(agent)).map((e) => e.action?.kind ?? e.observation?.kind ?? e.kind);
        throw new Error(`${String(error)}; events: ${seen.join(', ')}`);
      });
      const events = await storedEvents(agent);
      const actions = actionsIn(events);
      assert.deepEqual(
        actions.map((e) => e.action?.kind),
        ['BrowserNavigateAction', 'BrowserGetStateAction', 'FinishAction'],
      );
      assert.equal(actions[0]?.action?.url, page.url);
      assert.equal(actions[1]?.action?.include_screenshot, true);
      assert.equal(actions[2]?.action?.message, SCRIPTED_BROWSE_FINISH);
      assert.ok(
        page.visits.includes('/'),
        `the sandbox's browser asked for the page: ${page.visits.join(', ')}`,
      );
      const navigated = observationOf(events, actions[0]!);
      assert.equal(navigated?.observation?.kind, 'BrowserObservation');
      assert.equal(navigated.observation.is_error, false, textOf(navigated.observation.content));
      shot = observationOf(events, actions[1]!);
      assert.equal(shot?.observation?.kind, 'BrowserObservation');
      assert.equal(shot.observation.is_error, false, textOf(shot.observation.content));
      // the state as JSON: the page, its one button, and what the screenshot covers
      const state = JSON.parse(textOf(shot.observation.content)) as {
        url?: string;
        interactive_elements?: { tag?: string; text?: string }[];
        screenshot_dimensions?: { width?: number; height?: number };
      };
      assert.equal(state.url, page.url);
      assert.deepEqual(
        state.interactive_elements?.map((e) => [e.tag, e.text]),
        [['button', TEST_PAGE_BUTTON]],
      );
      assert.deepEqual(state.screenshot_dimensions, { width: 1920, height: 1080 });
      // base64 without a data: prefix; what the real server produced: a 1920×1080 PNG
      const data = shot.observation.screenshot_data;
      assert.ok(typeof data === 'string' && !data.startsWith('data:'), 'screenshot_data is bare base64');
      const check = checkScreenshotData(data);
      assert.ok(check.ok, `the screenshot checks: ${check.ok ? '' : check.reason}`);
      assert.deepEqual([check.image.mime, check.image.width, check.image.height], SCREENSHOT_SHAPE);
      assert.ok(data.length > IMAGE_HEAD_CHARS, `larger than the log's image head: ${data.length} chars`);
      // of the test's page, not a blank one: its background colour in the corner
      const corner = pngFirstPixel(check.image.bytes);
      assert.ok(
        corner.every((value, i) => Math.abs(value - TEST_PAGE_BACKGROUND[i]!) <= 4),
        `the top-left pixel is the page's background: rgb(${corner.join(', ')})`,
      );
    });

    it('the panel: the feed holds the screenshot’s head only; the row refers to it; the image reply is its whole bytes, read again from the agent server', async () => {
      assert.ok(browsing && shot, 'the browse script ran');
      const { feed } = browsing;
      await feedCaughtUp(browsing, 'finished');
      const held = feed.events.events.find((e) => e.id === shot?.id);
      assert.ok(held, 'the feed holds the observation');
      assert.ok(feed.events.wasCut(shot.id), 'the observation was cut on the way in');
      const head = view(held).observation?.screenshot_data ?? '';
      assert.equal(head.length, IMAGE_HEAD_CHARS);
      assert.deepEqual(peekImage(head), { ok: true, mime: 'image/png', width: 1920, height: 1080 });

      const whole = await feed.wholeEvent(shot.id);
      assert.equal(view(whole!).observation?.screenshot_data, shot.observation?.screenshot_data);
      assert.deepEqual(browsing.logs, [], 'no feed problems along the way');

      const posted: HostToWebview[] = [];
      controller = new ConversationController(
        postingControllerDeps({
          conversationId: browsing.agent.endpoint.conversationId,
          feed,
          posted,
          secrets: () => [env.apiKey, browsing?.agent.endpoint.sessionApiKey],
        }),
      );
      const row = controller
        .rows()
        .find((r) => r.kind === 'action' && r.images?.some((i) => i.event === shot?.id));
      assert.ok(row?.kind === 'action', 'a row with the screenshot');
      assert.deepEqual(row.images, [
        { event: shot.id, index: 0, width: 1920, height: 1080, label: 'Screenshot: 1920×1080 PNG' },
      ]);
      controller.receive({ type: 'image', event: shot.id, index: 0 });
      const reply = await until(
        'the image reply',
        async () => posted.find((m): m is ImageReply => m.type === 'image'),
        30_000,
      );
      assert.equal(reply.problem, undefined);
      assert.ok(reply.image, 'the reply carries the image');
      assert.deepEqual([reply.image.mime, reply.image.width, reply.image.height], SCREENSHOT_SHAPE);
      const bytes = Buffer.from(reply.image.base64, 'base64');
      assert.ok(
        bytes.equals(Buffer.from(shot.observation?.screenshot_data ?? '', 'base64')),
        'the whole bytes',
      );
      assert.ok(checkImageBytes(bytes).ok, 'the bytes check as a whole image');
    });

    it('the model saw the screenshot: the request after browser_get_state shows it as an image_url in the tool result', async () => {
      assert.ok(shot?.observation?.screenshot_data, 'the browse script ran');
      const url = `data:image/png;base64,${shot.observation.screenshot_data}`;
      const requests = await scriptedRequests(env.llmBaseUrl);
      const seen = requests.filter((r) => r.images.some((i) => i.sha256 === sha256(url)));
      assert.ok(seen.length > 0, 'a request showed the model the screenshot');
      assert.deepEqual(
        seen.map((r) => [r.model, r.answered]),
        [[SCRIPTED_VISION_MODEL.replace(/^openai\//, ''), 'finish']],
      );
      assert.deepEqual(
        seen[0]?.images.map((i) => [i.role, i.chars]),
        [['tool', url.length]],
      );
    });

    it('sendMessage with an image: stored as ImageContent beside the text, shown in the user’s row, and in the model’s request', async () => {
      assert.ok(browsing, 'the browse script ran');
      const { agent } = browsing;
      const before = (await storedEvents(agent)).length;
      const dataUrl = `data:image/png;base64,${fixtureImage('page.png').toString('base64')}`;
      assert.deepEqual(await agent.sendMessage(LOOK_MESSAGE, true, {}, [dataUrl]), { success: true });
      const added = await untilEvents(
        'the look turn finished',
        agent,
        before,
        (events) => statusesIn(events).at(-1) === 'finished',
      );
      const user = added.find((e) => e.kind === 'MessageEvent' && e.source === 'user');
      assert.deepEqual(user?.llm_message?.content, [
        { cache_prompt: false, type: 'text', text: LOOK_MESSAGE },
        { cache_prompt: false, type: 'image', image_urls: [dataUrl] },
      ]);
      assert.deepEqual(
        actionsIn(added).map((e) => [e.action?.kind, e.action?.message]),
        [['FinishAction', SCRIPTED_LOOK_FINISH]],
      );
      await feedCaughtUp(browsing, 'finished');
      const row = controller?.rows().find((r) => r.id === user.id);
      assert.ok(row?.kind === 'message', 'the user’s row');
      assert.deepEqual(
        row.images?.map((i) => i.label),
        ['Image: 320×200 PNG'],
      );

      const requests = await scriptedRequests(env.llmBaseUrl);
      const seen = requests.filter((r) => r.images.some((i) => i.sha256 === sha256(dataUrl)));
      assert.deepEqual(
        seen.map((r) => r.answered),
        ['finish'],
        'one request showed the model the image: the one it answered with the finish',
      );
      const image = seen[0]?.images.find((i) => i.sha256 === sha256(dataUrl));
      assert.deepEqual([image?.role, image?.head], ['user', dataUrl.slice(0, 40)]);
    });
  });

  describe('keeping or closing a conversation (rename, delete, download, a message queued while it starts)', () => {
    const QUEUED = 'Queued while the conversation starts: run your script.';
    let first: AppConversation;
    let second: AppConversation;

    it('/openapi.json lists the four routes', async () => {
      assert.deepEqual(await client.manage.offers(), {
        rename: true,
        delete: true,
        download: true,
        queueMessage: true,
      });
    });

    it('a message queued on the start task reaches the agent once the conversation is ready', async () => {
      const started = await client.createConversation({});
      const queued = await client.manage.queueMessage(`task-${started.id}`, QUEUED);
      assert.ok(queued.offered && queued.value.queued);
      assert.equal(queued.value.position, 1);
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found?.conversation_url && found.session_api_key);
      first = found;
      const delivered = await until(
        'the queued message among the agent’s events',
        async () => {
          const events = (await agentEvents(found.conversation_url!, found.session_api_key!)) as EventView[];
          return events.some(
            (e) => e.kind === 'MessageEvent' && e.source === 'user' && JSON.stringify(e).includes(QUEUED),
          )
            ? events
            : undefined;
        },
        60_000,
      );
      assert.ok(delivered.length > 0);
    });

    it("a start request's conversation_id names the conversation; messages queued on its task reach the agent after the task, in order", async () => {
      const TASK = 'Queued order check: the task itself.';
      const LATER = ['Queued order check: typed first while it starts.', 'Queued order check: typed second.'];
      const conversationId = randomUUID().replace(/-/g, '');
      const started = await client.createConversation({
        conversation_id: conversationId,
        initial_message: { role: 'user', content: [{ type: 'text', text: TASK }] },
      });
      for (const [index, text] of LATER.entries()) {
        const queued = await client.manage.queueMessage(`task-${started.id}`, text);
        assert.ok(queued.offered && queued.value.queued);
        assert.equal(queued.value.position, index + 1);
      }
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      assert.equal(ready.app_conversation_id, conversationId, 'the id asked for');
      const [found] = await client.getConversations([conversationId]);
      assert.ok(found?.conversation_url && found.session_api_key);
      const said = await until(
        'the task and both queued messages among the agent’s user messages',
        async () => {
          const events = (await agentEvents(found.conversation_url!, found.session_api_key!)) as EventView[];
          const texts = events
            .filter((e) => e.kind === 'MessageEvent' && e.source === 'user')
            .map((e) => [TASK, ...LATER].find((text) => JSON.stringify(e).includes(text)))
            .filter((text): text is string => text !== undefined);
          return texts.length === 3 ? texts : undefined;
        },
        60_000,
      );
      assert.deepEqual(said, [TASK, ...LATER]);
    });

    it('rename: PATCH answers the conversation with the new title, and a read agrees', async () => {
      const renamed = await client.manage.rename(first.id, 'Renamed by the client test');
      assert.ok(renamed.offered);
      assert.equal(renamed.value.title, 'Renamed by the client test');
      const [read] = await client.getConversations([first.id]);
      assert.equal(read?.title, 'Renamed by the client test');
    });

    it("download: the server's zip holds meta.json (the new title) and the events the app server stored", async () => {
      const zip = await client.manage.download(first.id);
      assert.ok(zip.offered);
      const entries = readZip(zip.value, {
        maxEntries: 10_001,
        maxEntryBytes: 1 << 26,
        maxTotalBytes: 1 << 28,
      });
      const meta = entries.find((entry) => entry.name === 'meta.json');
      assert.equal(JSON.parse(meta!.bytes.toString('utf8')).title, 'Renamed by the client test');
      const { events, skipped } = exportedEvents(zip.value);
      assert.equal(skipped, 0);
      // the app server keeps only what the agent server sends back to its webhook, which a local
      // process sandbox never does (1.11): the zip has no events here; Export reads the agent server
      assert.deepEqual(
        entries.map((entry) => entry.name),
        ['meta.json', ...events.map((_, i) => entries[i + 1]!.name)],
      );
      console.log(`      (the download: ${zip.value.length} bytes, ${events.length} events)`);
    });

    it('delete: a conversation whose sandbox another uses leaves the sandbox; the last one takes it', async () => {
      const started = await client.createConversation({ sandbox_id: first.sandbox_id });
      const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
      const [found] = await client.getConversations([ready.app_conversation_id!]);
      assert.ok(found);
      second = found;
      assert.equal(second.sandbox_id, first.sandbox_id);
      assert.deepEqual(await client.manage.delete(first.id), { offered: true, value: { success: true } });
      assert.deepEqual(await client.getConversations([first.id]), [null]);
      // the other conversation still reaches its agent server through the sandbox
      const [kept] = await client.getSandboxes([first.sandbox_id]);
      assert.equal(kept?.status, 'RUNNING');
      const events = await agentEvents(second.conversation_url!, second.session_api_key!);
      assert.ok(Array.isArray(events));
      assert.deepEqual(await client.manage.delete(second.id), { offered: true, value: { success: true } });
      await until(
        'the unshared sandbox to be deleted',
        async () => ((await client.getSandboxes([second.sandbox_id]))[0] === null ? true : undefined),
        60_000,
      );
    });

    it('a missing conversation: rename and delete are 404 not_found, not "not offered"', async () => {
      const missing = '0'.repeat(12) + '4' + '0'.repeat(3) + '8' + '0'.repeat(15);
      await assert.rejects(
        () => client.manage.rename(missing, 'x'),
        (error: unknown) => error instanceof ApiError && error.kind === 'not_found',
      );
      await assert.rejects(
        () => client.manage.delete(missing),
        (error: unknown) => error instanceof ApiError && error.kind === 'not_found',
      );
      await assert.rejects(
        () => client.manage.download(missing),
        (error: unknown) => error instanceof ApiError && error.kind === 'not_found',
      );
    });
  });

  describe('hand-off: a local repository brought to a real sandbox (buildHandoff archive, uploadFile, executeBashCommand)', () => {
    // The real server clones only from a git provider, which this machine cannot reach: the path here is
    // "Bring my repository" (kind archive), delivered to a conversation started without a task.
    const HANDOFF_CANARY = 'OPENHANDS_HANDOFF_CANARY_5b2e8d';
    let scratch: string | undefined;
    after(() => {
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('the round trip: the sandbox holds exactly the handed-over tree; the unticked file, the .env and its canary stay here', async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-real-handoff-'));
      const work = makeLocalWork(
        path.join(scratch, 'my project'),
        path.join(scratch, 'origin.git'),
        HANDOFF_CANARY,
      );
      const local = work.root;

      const handoff = await buildHandoff(local, { kind: 'archive', untracked: [work.tickedFile] });
      try {
        const started = await client.createConversation({ sandbox_id: sandbox.id });
        const ready = await client.waitForStartTask(started.id, { timeoutMs: 150_000, intervalMs: 1000 });
        const [found] = await client.getConversations([ready.app_conversation_id!]);
        const endpoint = found ? agentEndpointOf(found) : undefined;
        assert.ok(endpoint, 'the conversation has an agent server');
        const logs: unknown[] = [];
        const agent = new AgentServerClient({
          endpoint,
          timeoutMs: 60_000,
          logBodies: true,
          onLog: (entry) => logs.push(entry),
        });
        const delivered = await deliverHandoff(agent, handoff, { workingCopyName: 'my project' });
        const listing = delivered.files.map((file) => `${file.mode} ${file.blob} ${file.path}`);
        console.log(
          `      the sandbox's view of ${delivered.workingCopy}:\n        ${listing.join('\n        ')}`,
        );
        assert.deepEqual(
          delivered.files.map((file) => file.path).sort(),
          work.handedPaths,
          'the tracked files and the ticked one; not the unticked file, not the .env',
        );
        const here = execFileSync('git', ['ls-tree', '-r', '-z', handoff.manifest.handedOver.tree], {
          cwd: local,
          encoding: 'utf8',
        })
          .split('\0')
          .filter((record) => record !== '')
          .map((record) => record.replace(/^(\d+) blob ([0-9a-f]+)\t/, '$1 $2 '));
        assert.deepEqual(listing, here, 'each file’s mode and hash as the user’s repository has them');
        // The sandbox's files, byte for byte, through the agent server's own download.
        for (const file of ['src/app.txt', 'README.md', 'notes/ticked é.txt']) {
          const bytes = await agent.downloadFile(`${delivered.workingCopy}/${file}`);
          assert.equal(bytes.toString('utf8'), fs.readFileSync(path.join(local, file), 'utf8'), file);
        }
        const message = handoffMessage(handoff.manifest, delivered.workingCopy);
        console.log(`      the agent's first words: ${message}`);
        assert.match(
          message,
          /^I handed you my repository: the files at main \([0-9a-f]{12}\), 1 edited file, 1 new file \(src\/app\.txt, notes\/ticked é\.txt\)\./,
        );
        const events = JSON.stringify(await storedEvents(agent));
        assert.ok(!events.includes(HANDOFF_CANARY), 'the canary is in no event');
        assert.ok(!JSON.stringify(logs).includes(HANDOFF_CANARY), 'nor in any request the client logged');
        const sandboxFolder = path.dirname(delivered.workingCopy);
        for (const log of [
          path.join(sandboxFolder, '.openhands-agent-server.log'),
          path.join(sandboxFolder, 'workspace', 'bash_events'),
        ]) {
          if (!fs.existsSync(log)) continue;
          const files = fs.statSync(log).isDirectory()
            ? fs.readdirSync(log).map((name) => path.join(log, name))
            : [log];
          for (const file of files)
            assert.ok(
              !fs.readFileSync(file, 'utf8').includes(HANDOFF_CANARY),
              `the canary is not in ${file}`,
            );
        }
        for (const kept of work.keptPaths)
          assert.ok(!fs.existsSync(path.join(delivered.workingCopy, kept)), `${kept} is not in the sandbox`);

        // The way back: an edit made in the sandbox by a command, then the agent server's git-delta
        // against its commit of the handed-over tree: only that edit, applied byte for byte here.
        assert.equal(
          git(delivered.workingCopy, 'rev-parse', 'refs/openhands/handed-over^{tree}'),
          handoff.manifest.handedOver.tree,
          'the sandbox keeps a commit of the handed-over tree',
        );
        const edit = await agent.executeBashCommand(
          "printf 'four (agent)\\n' >> src/app.txt && printf 'by the agent\\n' > 'agent é.txt'",
          { cwd: delivered.workingCopy },
        );
        assert.equal(edit.exit_code, 0, edit.stderr ?? '');
        const delta = await agent.workspaceDelta(delivered.workingCopy, {
          baseRef: delivered.baseCommit,
          exclude: AGENT_SERVER_EXCLUDES,
        });
        assert.equal(delta.baseCommit, delivered.baseCommit, 'the server diffed against it');
        const mine = path.join(scratch, 'mine');
        fs.cpSync(local, mine, { recursive: true, verbatimSymlinks: true });
        execFileSync('git', ['apply', '-'], { cwd: mine, input: delta.patch });
        const changed = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
          cwd: mine,
          encoding: 'utf8',
        });
        const before = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
          cwd: local,
          encoding: 'utf8',
        });
        assert.deepEqual(
          changed.split('\0').filter((entry) => !before.split('\0').includes(entry)),
          ['?? agent é.txt'],
          'one new file, and src/app.txt still shows as the user’s edit',
        );
        for (const file of ['src/app.txt', 'agent é.txt']) {
          const sandboxBytes = await agent.downloadFile(`${delivered.workingCopy}/${file}`);
          assert.ok(sandboxBytes.equals(fs.readFileSync(path.join(mine, file))), `${file}: byte for byte`);
        }
        assert.equal(
          fs.readFileSync(path.join(mine, 'src/app.txt'), 'utf8'),
          'one\ntwo (staged)\nthree (unstaged)\nfour (agent)\n',
        );
        // the diff editor's two sides, against the same commit: the user's text, then the agent's (the
        // route drops the last newline)
        const sides = await agent.gitDiff(`${delivered.workingCopy}/src/app.txt`, {
          ref: delivered.baseCommit,
        });
        assert.deepEqual(sides, {
          original: 'one\ntwo (staged)\nthree (unstaged)',
          modified: 'one\ntwo (staged)\nthree (unstaged)\nfour (agent)',
        });
        console.log(`      the way back: ${delta.patch.length} bytes of patch, only the agent's edit`);
      } finally {
        fs.rmSync(handoff.folder, { recursive: true, force: true });
      }
    });
  });

  describe('cleanup', () => {
    it('deleteSandbox stops the process; the sandbox is gone', async () => {
      assert.deepEqual(await client.deleteSandbox(sandbox.id), { success: true });
      const [gone] = await client.getSandboxes([sandbox.id]);
      assert.equal(gone, null);
    });
  });
});
