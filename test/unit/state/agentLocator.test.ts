// The one rule every REST call to a conversation's agent server follows (`AgentLocator`), over real
// HTTP against the test server and its agent-server double, counting the requests each call costs.
import assert from 'node:assert/strict';
import {
  AgentServerClient,
  agentEndpointOf,
  ApiError,
  EventFeed,
  normalizeUuid,
  type AgentEndpoint,
  type AppConversation,
} from '../../../src/api';
import {
  AgentLocator,
  JUST_STARTED_ASKS,
  JUST_STARTED_INTERVAL_MS,
  type LocatorClock,
} from '../../../src/state/agentLocator';
import type { ConversationRecord, SandboxRecord } from '../../server';
import { useTestServer } from '../api/harness';
import { eventuallyDefined } from '../../shared/eventually';

/** A screenshot of 200 KB of base64: the feed's log holds its head only, so a picture is read whole. */
const SCREENSHOT = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(150_000),
]).toString('base64');

/** What the locator throws for a conversation it cannot reach (the extension's is a `SteeringError`). */
class Unreachable extends Error {
  constructor(readonly conversation: AppConversation | undefined) {
    super(conversation ? `sandbox ${conversation.sandbox_status}` : 'unknown conversation');
  }
}

/** The test's own time: a sleep takes none, is recorded, and runs what the test says happens meanwhile. */
class StepClock implements LocatorClock {
  readonly slept: number[] = [];

  constructor(private readonly meanwhile: (sleeps: number) => void = () => undefined) {}

  sleep(ms: number): Promise<void> {
    this.slept.push(ms);
    this.meanwhile(this.slept.length);
    return Promise.resolve();
  }
}

describe('AgentLocator: where a conversation’s agent server is, and what each call costs', function () {
  this.timeout(20_000);
  const t = useTestServer({ seed: { sandboxes: 4, conversations: 12, seed: 7 } });

  function locator(): AgentLocator {
    return new AgentLocator({
      appClient: () => t.client,
      clientFor: (endpoint: AgentEndpoint) => new AgentServerClient({ endpoint, timeoutMs: 2000 }),
      unreachable: (conversation) => new Unreachable(conversation),
    });
  }

  /** A top-level conversation whose sandbox runs, and that sandbox. */
  function running(): { conversation: ConversationRecord; sandbox: SandboxRecord } {
    for (const conversation of t.server.state.conversations) {
      const sandbox = t.server.state.sandboxes.find((candidate) => candidate.id === conversation.sandbox_id);
      if (sandbox?.status === 'RUNNING' && !conversation.parent_conversation_id)
        return { conversation, sandbox };
    }
    assert.fail('the seed has a conversation in a running sandbox');
  }

  /** The requests the server saw during `work`: `app` asks where the agent server is, `agent` goes to it. */
  async function counted<T>(work: () => Promise<T>): Promise<{ result: T; app: number; agent: number }> {
    t.server.requests.length = 0;
    const result = await work();
    const paths = t.server.requests.map((request) => request.path);
    return {
      result,
      app: paths.filter((path) => path.startsWith('/api/v1/app-conversations')).length,
      agent: paths.filter((path) => path.includes('/agent-server/')).length,
    };
  }

  const readInfo = (client: AgentServerClient) => client.getConversation();

  it('asks the app server once, then goes straight to the agent server: one request a call', async () => {
    const { conversation } = running();
    const located = locator();
    const first = await counted(() => located.withAgent(conversation.id, readInfo));
    assert.deepEqual([first.app, first.agent], [1, 1], 'no address yet: the app server is asked');
    assert.equal(normalizeUuid(first.result.id), normalizeUuid(conversation.id));
    const again = await counted(() => located.withAgent(conversation.id, readInfo));
    assert.deepEqual([again.app, again.agent], [0, 1], 'the remembered address: one request');
    assert.equal(t.server.requests.length, 1, 'and nothing else');
  });

  it('a sandbox resumed with a new key: the call refused (401) asks the app server once and goes again', async () => {
    const { conversation, sandbox } = running();
    const located = locator();
    await located.withAgent(conversation.id, readInfo);
    // what a pause and a resume leave: the same conversation behind another session key
    sandbox.session_api_key = 'session-key-after-the-resume';
    const after = await counted(() => located.withAgent(conversation.id, readInfo));
    assert.deepEqual([after.app, after.agent], [1, 2], 'refused, asked, sent again');
    assert.equal(normalizeUuid(after.result.id), normalizeUuid(conversation.id));
    assert.equal(
      t.server.requests.at(-1)?.headers['x-session-api-key'],
      'session-key-after-the-resume',
      'the second call carries the new key',
    );
    const next = await counted(() => located.withAgent(conversation.id, readInfo));
    assert.deepEqual([next.app, next.agent], [0, 1], 'the new address is remembered');
  });

  it('an address that is refused where the app server still points fails once, not in a loop', async () => {
    const { conversation } = running();
    const located = locator();
    await located.withAgent(conversation.id, readInfo);
    t.server.faults.add({ kind: 'status', status: 401, match: { path: /\/agent-server\// } });
    const outcome = await counted(() =>
      located.withAgent(conversation.id, readInfo).then(
        () => assert.fail('the call succeeded'),
        (error: unknown) => error,
      ),
    );
    assert.ok(outcome.result instanceof ApiError && outcome.result.status === 401, String(outcome.result));
    assert.deepEqual([outcome.app, outcome.agent], [1, 1], 'the same address again is not called again');
  });

  it('a failure that is not a gone address (a 500) is not retried and asks nobody', async () => {
    const { conversation } = running();
    const located = locator();
    await located.withAgent(conversation.id, readInfo);
    t.server.faults.add({ kind: 'status', status: 500, match: { path: /\/agent-server\// } });
    const outcome = await counted(() =>
      located.withAgent(conversation.id, readInfo).then(
        () => assert.fail('the call succeeded'),
        (error: unknown) => error,
      ),
    );
    assert.ok(outcome.result instanceof ApiError && outcome.result.status === 500, String(outcome.result));
    assert.deepEqual([outcome.app, outcome.agent], [0, 1]);
  });

  it('a paused sandbox: the call says why, and nothing is remembered to call', async () => {
    const { conversation, sandbox } = running();
    const located = locator();
    sandbox.status = 'PAUSED';
    const outcome = await counted(() =>
      located.withAgent(conversation.id, readInfo).then(
        () => assert.fail('the call succeeded'),
        (error: unknown) => error,
      ),
    );
    assert.ok(outcome.result instanceof Unreachable, String(outcome.result));
    assert.equal(outcome.result.conversation?.sandbox_status, 'PAUSED');
    assert.deepEqual([outcome.app, outcome.agent], [1, 0]);
    assert.equal(located.remembered(conversation.id), undefined);
  });

  it('a picture read whole goes where the feed found the server, and finds it again after a resume', async () => {
    const { conversation, sandbox } = running();
    const located = locator();
    const id = conversation.id;
    const [stored] = t.server.agent.append(id, [
      {
        kind: 'ObservationEvent',
        source: 'environment',
        tool_name: 'browser',
        tool_call_id: 'call-shot',
        action_id: 'no-action',
        observation: { kind: 'BrowserObservation', output: 'a page', screenshot_data: SCREENSHOT },
      },
    ]);
    const shot = stored?.id;
    assert.ok(typeof shot === 'string');
    // wired as `ConversationFeeds` wires it
    const feed = new EventFeed({
      resolve: async (signal) => {
        const known = await located.ask(id, signal);
        const endpoint = known && agentEndpointOf(known);
        return endpoint ? { endpoint } : { endpoint: undefined, reason: 'offline' };
      },
      clientFor: (endpoint) => new AgentServerClient({ endpoint, timeoutMs: 2000 }),
      reach: (call, client) => located.withAgent(id, call, { client: located.remembered(id) ?? client }),
    });
    feed.start();
    try {
      await eventuallyDefined(async () =>
        feed.current.status === 'live' && feed.current.historyComplete && feed.events.has(shot)
          ? true
          : undefined,
      );
      assert.ok(feed.events.wasCut(shot), 'the log holds the screenshot’s head only');
      const screenshotOf = (event: unknown) =>
        (event as { observation?: { screenshot_data?: string } } | undefined)?.observation?.screenshot_data;
      const live = await counted(() => feed.wholeEvent(shot));
      assert.equal(screenshotOf(live.result), SCREENSHOT);
      assert.deepEqual([live.app, live.agent], [0, 1], 'one request');
      sandbox.session_api_key = 'session-key-after-the-resume';
      const after = await counted(() => feed.wholeEvent(shot));
      assert.equal(screenshotOf(after.result), SCREENSHOT, 'read whole with the new key');
      assert.deepEqual([after.app, after.agent], [1, 2], 'refused, asked, read again');
    } finally {
      feed.dispose();
    }
  });

  describe('a conversation that has just started (its start task READY)', () => {
    const failureOf = (work: Promise<unknown>) =>
      work.then(
        () => assert.fail('located'),
        (error: unknown) => error,
      );

    it('the app server’s health check of its agent server missed twice: asked again 1 s apart, found', async () => {
      const { conversation, sandbox } = running();
      // what a 1.11 process sandbox says for a reply whose /alive check failed
      sandbox.status = 'ERROR';
      const clock = new StepClock((sleeps) => {
        if (sleeps === 2) sandbox.status = 'RUNNING';
      });
      const outcome = await counted(() => locator().locateJustStarted(conversation.id, { clock }));
      assert.deepEqual(clock.slept, [JUST_STARTED_INTERVAL_MS, JUST_STARTED_INTERVAL_MS]);
      assert.deepEqual([outcome.app, outcome.agent], [3, 0]);
      const info = await outcome.result.getConversation();
      assert.equal(normalizeUuid(info.id), normalizeUuid(conversation.id));
    });

    it('a request to the app server that failed on the way (503) is asked again', async () => {
      const { conversation } = running();
      t.server.faults.add({
        kind: 'status',
        status: 503,
        times: 1,
        match: { path: /^\/api\/v1\/app-conversations/ },
      });
      const clock = new StepClock();
      const outcome = await counted(() => locator().locateJustStarted(conversation.id, { clock }));
      assert.deepEqual(clock.slept, [JUST_STARTED_INTERVAL_MS]);
      assert.equal(outcome.app, 2);
    });

    it(`one that stays without its agent server fails as locate does, after ${JUST_STARTED_ASKS} asks`, async () => {
      const { conversation, sandbox } = running();
      sandbox.status = 'STARTING';
      const clock = new StepClock();
      const outcome = await counted(() => failureOf(locator().locateJustStarted(conversation.id, { clock })));
      assert.ok(outcome.result instanceof Unreachable, String(outcome.result));
      assert.equal(outcome.result.conversation?.sandbox_status, 'STARTING');
      assert.equal(outcome.app, JUST_STARTED_ASKS);
      assert.equal(clock.slept.length, JUST_STARTED_ASKS - 1);
    });

    it('a paused sandbox, or a request the server refuses (401), fails at once', async () => {
      const { conversation, sandbox } = running();
      const clock = new StepClock();
      sandbox.status = 'PAUSED';
      const paused = await counted(() => failureOf(locator().locateJustStarted(conversation.id, { clock })));
      assert.ok(paused.result instanceof Unreachable, String(paused.result));
      assert.equal(paused.app, 1);
      sandbox.status = 'RUNNING';
      t.server.faults.add({ kind: 'status', status: 401, match: { path: /^\/api\/v1\/app-conversations/ } });
      const refused = await counted(() => failureOf(locator().locateJustStarted(conversation.id, { clock })));
      assert.ok(refused.result instanceof ApiError && refused.result.status === 401, String(refused.result));
      assert.equal(refused.app, 1);
      assert.deepEqual(clock.slept, []);
    });

    it('cancelled while it waits: the next ask is cancelled and nothing more is asked', async () => {
      const { conversation, sandbox } = running();
      sandbox.status = 'STARTING';
      const abort = new AbortController();
      const clock = new StepClock(() => abort.abort());
      const outcome = await counted(() =>
        failureOf(locator().locateJustStarted(conversation.id, { clock, signal: abort.signal })),
      );
      assert.ok(
        outcome.result instanceof ApiError && outcome.result.kind === 'cancelled',
        String(outcome.result),
      );
      assert.deepEqual([outcome.app, clock.slept.length], [1, 1]);
    });
  });

  it('a conversation the app server does not know says so', async () => {
    const located = locator();
    const error = await located.locate('0123456789abcdef0123456789abcdef').then(
      () => assert.fail('located'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof Unreachable && error.conversation === undefined, String(error));
  });
});
