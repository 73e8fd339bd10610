import assert from 'node:assert/strict';
import {
  followEvent,
  guessFromStored,
  initialFeedState,
  withNotice,
  type FeedState,
} from '../../../../src/api/agentServer/feedState';
import {
  actionEvent,
  agentMessage,
  conversationError,
  MODEL_FAILURES,
  executionStatus,
  numberedEvents,
  stateUpdate,
  statsUpdate,
  statsValue,
  userMessage,
  type EventBody,
} from '../../../shared/agentEvents';

const policy = (kind: unknown): EventBody => stateUpdate('confirmation_policy', { kind });
const delta = (content: string, reasoning = ''): EventBody => ({
  kind: 'StreamingDeltaEvent',
  source: 'agent',
  content,
  reasoning_content: reasoning,
});

describe('feedState: what the events say beside themselves', () => {
  it('starts connecting, with the newest status and policy an earlier feed held', () => {
    const event = numberedEvents();
    const state = initialFeedState([
      event(executionStatus('running')),
      event(policy('AlwaysConfirm')),
      event(userMessage('go on')),
      event(executionStatus('finished')),
    ]);
    assert.equal(state.status, 'connecting');
    assert.equal(state.executionStatus, 'finished');
    assert.equal(state.confirmationPolicy, 'AlwaysConfirm');
    assert.equal(state.historyComplete, false);
    assert.equal(initialFeedState([]).executionStatus, undefined);
  });

  it('stored events guess the status and policy only until something said them; nothing to guess is the same state', () => {
    const event = numberedEvents();
    const empty = initialFeedState([]);
    const guessed = guessFromStored(empty, [event(executionStatus('idle')), event(policy('NeverConfirm'))]);
    assert.equal(guessed.executionStatus, 'idle');
    assert.equal(guessed.confirmationPolicy, 'NeverConfirm');
    const known = { ...empty, executionStatus: 'running', confirmationPolicy: 'ConfirmRisky' };
    assert.equal(guessFromStored(known, [event(executionStatus('idle'))]), known);
    assert.equal(guessFromStored(empty, [event(agentMessage('hello'))]), empty);
  });

  it('the user’s message awaits the agent until anything of its own comes; a run’s model failure stays until the next run (issue 36)', () => {
    const event = numberedEvents();
    const empty = initialFeedState([]);
    const asked = followEvent(empty, event(userMessage('hello')));
    assert.equal(asked.awaitingAgent, true);
    assert.equal(followEvent(asked, event(userMessage('again'))), asked, 'still awaiting: the same state');
    assert.equal(
      followEvent(asked, event(executionStatus('running'))).awaitingAgent,
      true,
      'running owes it',
    );
    for (const answer of [
      agentMessage('hi'),
      statsUpdate({ agent: { cost: 0.01 } }),
      { kind: 'StreamingDeltaEvent', source: 'agent', content: 'h' },
      executionStatus('finished'),
      executionStatus('paused'),
      conversationError('MaxIterationsReached', 'limit'),
    ] satisfies EventBody[])
      assert.equal(followEvent(asked, event(answer)).awaitingAgent, false, JSON.stringify(answer));
    // stored: the newest events decide
    assert.equal(
      guessFromStored(empty, [event(agentMessage('a')), event(userMessage('b'))]).awaitingAgent,
      true,
    );
    assert.equal(
      guessFromStored(empty, [event(userMessage('b')), event(agentMessage('a'))]).awaitingAgent,
      false,
    );

    const failed = followEvent(asked, event(MODEL_FAILURES.quota));
    assert.equal(failed.modelFailure?.kind, 'quota');
    assert.equal(failed.awaitingAgent, false);
    assert.equal(followEvent(failed, event(executionStatus('error'))).modelFailure?.kind, 'quota');
    assert.equal(followEvent(failed, event(executionStatus('running'))).modelFailure, undefined, 'a new run');
    const other = followEvent(failed, event(conversationError('MaxIterationsReached', 'limit')));
    assert.equal(other.modelFailure, undefined, 'the newest run ended on something else');
  });

  it('a snapshot says the status, policy and model; one without a value changes nothing', () => {
    const event = numberedEvents();
    const state = initialFeedState([]);
    const snapshot = followEvent(
      state,
      event(
        stateUpdate('full_state', {
          execution_status: 'waiting_for_confirmation',
          confirmation_policy: { kind: 'AlwaysConfirm' },
          agent: { llm: { model: 'claude-sonnet' } },
        }),
      ),
    );
    assert.equal(snapshot.executionStatus, 'waiting_for_confirmation');
    assert.equal(snapshot.confirmationPolicy, 'AlwaysConfirm');
    assert.equal(snapshot.model, 'claude-sonnet');
    assert.equal(followEvent(state, event(stateUpdate('full_state', 'not a record'))), state);
  });

  it('streaming deltas grow one bubble, bounded; the agent’s message, an action or a stop ends it', () => {
    const event = numberedEvents();
    let state: FeedState = initialFeedState([]);
    state = followEvent(state, event(delta('Hel', 'think')));
    const id = state.streaming?.id;
    state = followEvent(state, event(delta('lo')));
    assert.deepEqual(state.streaming, { id, text: 'Hello', reasoning: 'think' });
    assert.equal(followEvent(state, event(delta(''))), state, 'an empty delta is no change');
    const huge = followEvent(state, event(delta('x'.repeat(300 * 1024))));
    assert.equal(huge.streaming?.text.length, 256 * 1024);

    assert.equal(followEvent(state, event(agentMessage('Hello'))).streaming, undefined);
    const call = { tool: 'terminal', callId: 'c1' };
    assert.equal(
      followEvent(state, event(actionEvent(call, { kind: 'TerminalAction' }))).streaming,
      undefined,
    );
    assert.equal(followEvent(state, event(executionStatus('running'))).streaming, state.streaming);
    const finished = followEvent(state, event(executionStatus('finished')));
    assert.equal(finished.executionStatus, 'finished');
    assert.equal(finished.streaming, undefined);
    const quiet = initialFeedState([]);
    assert.equal(followEvent(quiet, event(agentMessage('no bubble'))), quiet);
  });

  it('a policy update says its kind; a kind that is no short string is not taken', () => {
    const event = numberedEvents();
    const state = initialFeedState([]);
    assert.equal(followEvent(state, event(policy('ConfirmRisky'))).confirmationPolicy, 'ConfirmRisky');
    assert.equal(followEvent(state, event(policy('x'.repeat(101)))), state);
    assert.equal(followEvent(state, event(policy(7))), state);
  });

  it('notices add up, each said once', () => {
    const state = initialFeedState([]);
    const one = withNotice(state, 'The history is incomplete.');
    const two = withNotice(one, 'The transcript reached its limit.');
    assert.equal(two.notice, 'The history is incomplete. The transcript reached its limit.');
    assert.equal(withNotice(two, 'The history is incomplete.'), two);
  });

  it('a stats update says the usage; the same figures again, or an empty update, change nothing', () => {
    const event = numberedEvents();
    const state = initialFeedState([]);
    const first = followEvent(
      state,
      event(statsUpdate({ agent: { cost: 0.1, prompt: 4200, completion: 180 } })),
    );
    assert.equal(first.usage?.main.cost, 0.1);
    assert.equal(first.usage?.main.tokens.prompt, 4200);
    assert.equal(
      followEvent(first, event(statsUpdate({ agent: { cost: 0.1, prompt: 4200, completion: 180 } }))),
      first,
    );
    assert.equal(followEvent(first, event(stateUpdate('stats', { usage_to_metrics: {} }))), first);
    assert.equal(followEvent(first, event(stateUpdate('stats', 'hostile'))), first);
    const second = followEvent(
      first,
      event(statsUpdate({ agent: { cost: 0.2, prompt: 8400, completion: 360 } })),
    );
    assert.equal(second.usage?.main.cost, 0.2);
  });

  it('a snapshot says the usage it carries; the first one, before any call, keeps what is known', () => {
    const event = numberedEvents();
    const known = followEvent(initialFeedState([]), event(statsUpdate({ agent: { cost: 0.3 } })));
    const empty = followEvent(known, event(stateUpdate('full_state', { stats: { usage_to_metrics: {} } })));
    assert.equal(empty.usage, known.usage);
    const snapshot = followEvent(
      known,
      event(
        stateUpdate('full_state', { execution_status: 'idle', stats: statsValue({ agent: { cost: 0.5 } }) }),
      ),
    );
    assert.equal(snapshot.usage?.main.cost, 0.5);
    assert.equal(snapshot.executionStatus, 'idle');
  });

  it('stored events guess the usage from the newest stats update, only until something said it', () => {
    const event = numberedEvents();
    const held = [
      event(statsUpdate({ agent: { cost: 0.1 } })),
      event(userMessage('go on')),
      event(statsUpdate({ agent: { cost: 0.4 } })),
    ];
    const state = initialFeedState(held);
    assert.equal(state.usage?.main.cost, 0.4);
    assert.equal(guessFromStored(state, [event(statsUpdate({ agent: { cost: 0.05 } }))]), state);
  });
});
