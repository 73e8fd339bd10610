// The panel's host side steering the agent, over a real EventFeed and an agent server in memory:
// the outbox a message goes through, the actions waiting for approval, reject and continue, and
// what the page is told when a control fails.
import assert from 'node:assert/strict';
import type { AgentEndpoint, AgentEvent } from '../../../../../src/api';
import { ConversationController } from '../../../../../src/webviews/conversation/host/controller';
import type { Header, HostToWebview, Reply } from '../../../../../src/webviews/conversation/shared/protocol';
import {
  fakeAgentServer,
  feedOver,
  userMessages,
  type FakeAgentServer,
} from '../../../api/agentServer/fakeAgentServer';
import {
  executionStatus,
  numberedEvents,
  stateUpdate,
  terminalAction as terminalActionBody,
  userMessage,
} from '../../../../shared/agentEvents';
import { eventuallyDefined } from '../../../../shared/eventually';
import { recordingSteering, type SteeringCall } from './steeringFake';

const SANDBOX_KEY = 'sandbox-key-steering-5a4b3c2d1e';
const CONVERSATION_ID = 'fedcba9876543210fedcba9876543210';
const ENDPOINT: AgentEndpoint = {
  baseUrl: 'http://127.0.0.1:1',
  conversationId: CONVERSATION_ID,
  sessionApiKey: SANDBOX_KEY,
};

const event = numberedEvents('e', 101);
const status = (value: string): AgentEvent => event(executionStatus(value));

function terminalAction(command: string, risk = 'HIGH'): AgentEvent {
  return event(
    terminalActionBody(command, `call-${command}`, { security_risk: risk, summary: `Run ${command}` }),
  );
}

describe('conversation panel: steering the agent', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const dispose of cleanup.splice(0)) dispose();
  });

  async function open(events: AgentEvent[]): Promise<{
    agent: FakeAgentServer;
    controller: ConversationController;
    calls: SteeringCall[];
    headers: () => Header[];
    replies: () => Reply[];
    live(event: AgentEvent): void;
  }> {
    const agent = fakeAgentServer(events);
    const feed = feedOver(agent, ENDPOINT);
    const posted: HostToWebview[] = [];
    const { steer, calls } = recordingSteering();
    const controller = new ConversationController({
      conversationId: CONVERSATION_ID,
      feed,
      conversation: () => undefined,
      post: (message) => posted.push(message),
      secrets: () => [SANDBOX_KEY],
      openLink: () => undefined,
      resumeSandbox: () => undefined,
      openInBrowser: () => undefined,
      showLog: () => undefined,
      warn: () => undefined,
      steer,
    });
    cleanup.push(
      () => controller.dispose(),
      () => feed.dispose(),
    );
    feed.start();
    await eventuallyDefined(async () =>
      feed.current.status === 'live' && feed.current.historyComplete ? true : undefined,
    );
    const headers = () =>
      posted.flatMap((message) =>
        message.type === 'header' || message.type === 'reset' ? [message.header] : [],
      );
    const live = (added: AgentEvent) => {
      agent.events.push(added);
      agent.sockets.at(-1)?.options.onEvent(added);
    };
    const replies = () => posted.flatMap((message) => (message.type === 'reply' ? [message] : []));
    return { agent, controller, calls, headers, replies, live };
  }

  it('shows a message as pending at once, through each step, until the server echoes it', async () => {
    const { controller, calls, headers, live } = await open(userMessages(1));
    controller.receive({ type: 'send', text: 'Now add a test', resume: true });
    assert.deepEqual(
      headers()
        .at(-1)
        ?.controls.outbox.map((entry) => [entry.text, entry.state]),
      [['Now add a test', 'resuming']],
    );
    const call = calls[0];
    assert.equal(call?.name, 'send');
    assert.deepEqual(call?.args.slice(0, 2), ['Now add a test', true]);
    call?.onStep?.('connecting');
    assert.equal(headers().at(-1)?.controls.outbox[0]?.state, 'connecting');
    call?.resolve();
    await eventuallyDefined(async () =>
      headers().at(-1)?.controls.outbox[0]?.state === 'sent' ? true : undefined,
    );
    // the echo: the user message as the server stored it
    live(event(userMessage('Now add a test')));
    assert.deepEqual(headers().at(-1)?.controls.outbox, []);
    assert.deepEqual(controller.header().controls.outbox, []);
  });

  it('hands a message that failed back with the reason (no secret in it), once, until the page takes it', async () => {
    const { controller, calls, headers } = await open(userMessages(1));
    controller.receive({ type: 'send', text: 'Deploy it', resume: false });
    calls[0]?.reject(new Error(`The agent server refused the key ${SANDBOX_KEY}.`));
    await eventuallyDefined(async () =>
      headers().at(-1)?.controls.outbox[0]?.state === 'failed' ? true : undefined,
    );
    const failed = headers().at(-1)?.controls.outbox[0];
    assert.equal(failed?.text, 'Deploy it');
    assert.match(failed?.reason ?? '', /refused the key \[redacted\]/);
    assert.ok(!JSON.stringify(headers()).includes(SANDBOX_KEY));
    // a reload before the page took it: still there
    controller.receive({ type: 'ready' });
    assert.equal(controller.header().controls.outbox[0]?.state, 'failed');
    controller.receive({ type: 'dismissOutbox', id: failed?.id ?? '' });
    assert.deepEqual(controller.header().controls.outbox, []);
  });

  it('lists the actions waiting for approval with their arguments and risk, and only while the agent waits', async () => {
    const action = terminalAction('rm -rf build');
    const { controller, live } = await open([...userMessages(1), status('running'), action]);
    assert.deepEqual(
      controller.header().controls.pendingActions,
      [],
      'running: the action is just in flight',
    );
    live(status('waiting_for_confirmation'));
    const [pending] = controller.header().controls.pendingActions;
    assert.equal(pending?.id, action.id);
    assert.equal(pending?.tool, 'terminal');
    assert.equal(pending?.summary, 'Run rm -rf build');
    assert.equal(pending?.risk, 'HIGH');
    assert.match(pending?.detail ?? '', /"command": "rm -rf build"/);
    assert.doesNotMatch(pending?.detail ?? '', /TerminalAction/);
    // rejected: the server says idle, then the rejection
    live(status('idle'));
    live(
      event({
        kind: 'UserRejectObservation',
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: String(action['tool_call_id']),
        action_id: action.id,
        rejection_reason: 'not now',
        rejection_source: 'user',
      }),
    );
    assert.deepEqual(controller.header().controls.pendingActions, []);
  });

  it('after a reject offers to continue, until the agent runs again; each control answered by its id, a failed one with why', async () => {
    const { controller, calls, headers, replies, live } = await open([
      ...userMessages(1),
      status('waiting_for_confirmation'),
    ]);
    controller.receive({ type: 'reject', id: 7, reason: 'use the staging database' });
    assert.equal(headers().at(-1)?.controls.busy, 'reject');
    // one control at a time: another is answered at once, done nothing
    controller.receive({ type: 'approve', id: 8 });
    assert.equal(calls.length, 1);
    assert.deepEqual(replies(), [{ type: 'reply', id: 8, ok: false }]);
    assert.deepEqual(calls[0]?.args, ['use the staging database']);
    calls[0]?.resolve();
    await eventuallyDefined(async () => (replies().length === 2 ? true : undefined));
    assert.deepEqual(replies()[1], { type: 'reply', id: 7, ok: true });
    assert.equal(headers().at(-1)?.controls.busy, null, 'the buttons come back before the reply');
    live(status('idle'));
    assert.equal(controller.header().controls.rejected, true);

    controller.receive({ type: 'continue', id: 9 });
    calls[1]?.reject(new Error(`The agent server cannot be reached (key ${SANDBOX_KEY}).`));
    await eventuallyDefined(async () => (replies().length === 3 ? true : undefined));
    assert.deepEqual(replies()[2], {
      type: 'reply',
      id: 9,
      ok: false,
      error: 'The agent server cannot be reached (key [redacted]).',
    });
    assert.equal(headers().at(-1)?.controls.busy, null);

    controller.receive({ type: 'continue', id: 10 });
    assert.equal(headers().at(-1)?.controls.busy, 'continue');
    calls[2]?.resolve();
    live(status('running'));
    await eventuallyDefined(async () => (controller.header().controls.rejected === false ? true : undefined));
  });

  it("follows the conversation's confirmation policy, and turns it on and off", async () => {
    const { controller, calls, live } = await open(userMessages(1));
    assert.equal(controller.header().controls.confirmationPolicy, null);
    live(event(stateUpdate('confirmation_policy', { kind: 'AlwaysConfirm' })));
    assert.equal(controller.header().controls.confirmationPolicy, 'AlwaysConfirm');
    controller.receive({ type: 'setConfirmation', id: 1, on: false });
    assert.deepEqual(calls[0]?.args, [false]);
    assert.equal(calls[0]?.name, 'setConfirmation');
  });

  it('drops malformed steering messages', async () => {
    const { controller, calls } = await open(userMessages(1));
    controller.receive({ type: 'send', text: '', resume: false });
    controller.receive({ type: 'send', text: 'x'.repeat(100_001), resume: false });
    controller.receive({ type: 'reject', id: 1, reason: 42 });
    controller.receive({ type: 'setConfirmation', id: 2 });
    controller.receive({ type: 'approve' });
    controller.receive({ type: 'pause', id: -1 });
    controller.receive({ type: 'stop', id: 1.5 });
    assert.equal(calls.length, 0);
    assert.deepEqual(controller.header().controls.outbox, []);
  });
});
