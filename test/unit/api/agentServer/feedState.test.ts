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
  executionStatus,
  numberedEvents,
  stateUpdate,
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
    assert.equal(guessFromStored(empty, [event(userMessage('hello'))]), empty);
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
});
