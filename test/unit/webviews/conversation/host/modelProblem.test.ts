// The panel says when the model cannot answer: a run that ended on the model's failure (the events
// agent server 1.34 writes), and a "running" agent that leaves the user's message unanswered past the
// bound, timed by an injected clock (no real wait); Set Up the Model… asks the host for the Model page.
import assert from 'node:assert/strict';
import { ApiError, type AgentEndpoint, type AgentEvent, type EventFeed } from '../../../../../src/api';
import { ConversationController } from '../../../../../src/webviews/conversation/host/controller';
import { MODEL_SILENCE_MS } from '../../../../../src/webviews/conversation/host/headerModel';
import type { PanelClock } from '../../../../../src/webviews/conversation/host/modelSilence';
import type { HostToWebview } from '../../../../../src/webviews/conversation/shared/protocol';
import { fakeAgentServer, feedOver } from '../../../api/agentServer/fakeAgentServer';
import {
  executionStatus,
  MODEL_FAILURES,
  numberedEvents,
  stateUpdate,
  statsUpdate,
  userMessage,
  type EventBody,
} from '../../../../shared/agentEvents';
import { eventuallyDefined } from '../../../../shared/eventually';
import { postingControllerDeps } from './controllerDeps';

const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';
const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: CONVERSATION_ID,
  sessionApiKey: 'sandbox-key-model-problem-7a6b',
};
const MODEL = 'openai/gpt-5.5';
const APP_KEY = 'app-api-key-model-problem-0001';

/** A clock the test moves: timers run when their time is passed, never on their own. */
class ManualClock implements PanelClock {
  time = 1_800_000_000_000;
  private timers: { at: number; due: () => void; live: boolean }[] = [];
  now = (): number => this.time;
  after = (ms: number, due: () => void) => {
    const timer = { at: this.time + ms, due, live: true };
    this.timers.push(timer);
    return { dispose: () => void (timer.live = false) };
  };
  advance(ms: number): void {
    this.time += ms;
    for (const timer of this.timers.splice(0))
      if (timer.live && timer.at <= this.time) timer.due();
      else if (timer.live) this.timers.push(timer);
  }
  get pending(): number {
    return this.timers.filter((timer) => timer.live).length;
  }
}

describe('the panel says when the model cannot answer (issue 36)', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() =>
    cleanup
      .splice(0)
      .reverse()
      .forEach((run) => run()),
  );
  const number = numberedEvents('e');
  /** The snapshot the agent server sends first on a socket: the status, and the model the conversation runs on. */
  const snapshot = (status: string): EventBody =>
    stateUpdate('full_state', { execution_status: status, agent: { llm: { model: MODEL } } });

  async function panel(stored: EventBody[]) {
    const agent = fakeAgentServer(stored.map(number));
    // a long backoff: a socket ended stays down while the test looks
    const feed: EventFeed = feedOver(agent, ENDPOINT, { initialBackoffMs: 60_000 });
    const posted: HostToWebview[] = [];
    const clock = new ManualClock();
    let setUpAsked = 0;
    const controller = new ConversationController({
      ...postingControllerDeps({ conversationId: CONVERSATION_ID, feed, posted, secrets: () => [APP_KEY] }),
      clock,
      setUpModel: () => void setUpAsked++,
    });
    cleanup.push(
      () => controller.dispose(),
      () => feed.dispose(),
    );
    feed.start();
    await eventuallyDefined(async () => (feed.current.status === 'live' ? true : undefined));
    const live = (body: EventBody) => agent.sockets[0]?.options.onEvent(number(body) as AgentEvent);
    // what the agent server sends first on each socket: the whole state, with the model
    live(snapshot(feed.current.executionStatus ?? 'idle'));
    return { controller, clock, live, posted, asked: () => setUpAsked, agent, feed };
  }

  it('a run that ended on a refused key: the words name the model, the provider’s words beside them, the key masked; Set Up the Model… asks the host', async () => {
    const { controller, live, asked } = await panel([userMessage('Fix the tests')]);
    live(executionStatus('running'));
    live(MODEL_FAILURES.keyRefused);
    live(executionStatus('error'));
    const problem = controller.header().modelProblem;
    assert.equal(problem?.kind, 'failed');
    assert.equal(problem?.text, 'openai/gpt-5.5 refused the API key (401).');
    assert.match(problem?.detail ?? '', /Incorrect API key provided: \[redacted\]/);
    assert.doesNotMatch(JSON.stringify(controller.header()), /sk-proj|Ab12\*/);
    // the transcript's error row too: the provider quotes a key the extension never knew
    const rows = JSON.stringify(controller.rows());
    assert.match(rows, /The conversation stopped with an error/);
    assert.doesNotMatch(rows, /sk-proj|Ab12\*|Yz89/);
    controller.receive({ type: 'setUpModel' });
    assert.equal(asked(), 1);
    // the user set up the model and sent again: a new run, the failure is past
    live(userMessage('Try again'));
    live(executionStatus('running'));
    assert.equal(controller.header().modelProblem, null);
  });

  it('each failure the real server writes, read from the stored history too', async () => {
    const expected: [EventBody, string][] = [
      [MODEL_FAILURES.noKey, 'The server has no key for openai/gpt-5.5.'],
      [MODEL_FAILURES.unknownModel, 'openai/gpt-5.5 is not a model the provider knows.'],
      [MODEL_FAILURES.quota, "The provider's quota for openai/gpt-5.5 is used up (429)."],
    ];
    for (const [failure, words] of expected) {
      const { controller } = await panel([
        userMessage('Fix the tests'),
        executionStatus('running'),
        failure,
        executionStatus('error'),
      ]);
      assert.equal(controller.header().modelProblem?.text, words);
    }
  });

  it('"running" and silent after the user’s message: said at the bound, not before; anything from the agent clears it', async () => {
    const { controller, clock, live, posted } = await panel([]);
    live(userMessage('Fix the tests'));
    live(executionStatus('running'));
    assert.equal(controller.header().modelProblem, null);
    clock.advance(MODEL_SILENCE_MS - 1);
    assert.equal(controller.header().modelProblem, null, 'not before the bound');
    const before = posted.length;
    clock.advance(1);
    // the host posts the header itself when the bound passes: the page learns it without another event
    const last = posted
      .slice(before)
      .filter((message) => message.type === 'header')
      .at(-1);
    assert.ok(last?.type === 'header');
    assert.deepEqual(last.header.modelProblem, {
      kind: 'silent',
      text: 'No answer from the model openai/gpt-5.5 for 90 s: it may have no key.',
      detail: null,
    });
    // a stats update: the model answered a call
    live(statsUpdate({ agent: { cost: 0.01, model: MODEL } }));
    assert.equal(controller.header().modelProblem, null);
    assert.equal(clock.pending, 0, 'no timer left');
  });

  it('a feed that is not live blames no model: its own banner says why', async () => {
    const { controller, clock, live, agent, feed } = await panel([]);
    live(userMessage('Fix the tests'));
    live(executionStatus('running'));
    agent.sockets[0]?.end(new ApiError({ kind: 'network', message: 'The socket closed.' }));
    await eventuallyDefined(async () => (feed.current.status === 'reconnecting' ? true : undefined));
    clock.advance(MODEL_SILENCE_MS * 2);
    assert.equal(controller.header().modelProblem, null);
  });

  it('not silent: an agent at rest (a message not yet run), a streaming token, a finished run', async () => {
    const { controller, clock, live } = await panel([]);
    live(userMessage('Fix the tests'));
    clock.advance(MODEL_SILENCE_MS * 2);
    assert.equal(controller.header().modelProblem, null, 'idle: nothing runs, nothing is owed');
    live(executionStatus('running'));
    live({ kind: 'StreamingDeltaEvent', source: 'agent', content: 'Hel' });
    clock.advance(MODEL_SILENCE_MS * 2);
    assert.equal(controller.header().modelProblem, null, 'a token came');
    live(userMessage('And the docs'));
    live(executionStatus('finished'));
    clock.advance(MODEL_SILENCE_MS * 2);
    assert.equal(controller.header().modelProblem, null, 'finished');
  });
});
