// The agent's controls as the panel's host runs them: one at a time, the one under way in the
// header, and each request answered by a reply of its own id (done, or why not), the header first.
import assert from 'node:assert/strict';
import { AgentControls } from '../../../../../src/webviews/conversation/host/agentControls';
import type { Reply } from '../../../../../src/webviews/conversation/shared/protocol';
import { eventuallyDefined } from '../../../../shared/eventually';
import { recordingSteering } from './steeringFake';

function controls() {
  const { steer, calls } = recordingSteering();
  /** What the host posted, in order: the busy control at each header, and the replies. */
  const posted: (Reply | { busy: string | null })[] = [];
  const agent: AgentControls = new AgentControls(
    steer,
    () => posted.push({ busy: agent.busy }),
    (reply) => posted.push(reply),
  );
  return { agent, calls, posted };
}

describe('conversation panel: the agent controls', () => {
  it('answers a control by its id once done, after the header that gives the buttons back', async () => {
    const { agent, calls, posted } = controls();
    const done = agent.approve(41);
    assert.equal(agent.busy, 'approve');
    assert.deepEqual(posted, [{ busy: 'approve' }]);
    assert.equal(calls[0]?.name, 'approve');
    calls[0]?.resolve();
    await done;
    assert.deepEqual(posted, [{ busy: 'approve' }, { busy: null }, { type: 'reply', id: 41, ok: true }]);
  });

  it('answers a failed control with why, and one asked while another runs at once, having done nothing', async () => {
    const { agent, calls, posted } = controls();
    const pausing = agent.pause(1);
    await agent.stop(2);
    assert.equal(calls.length, 1, 'one control at a time');
    assert.deepEqual(posted.at(-1), { type: 'reply', id: 2, ok: false });
    calls[0]?.reject(new Error('The agent server refused (409).'));
    await pausing;
    assert.deepEqual(posted.at(-1), {
      type: 'reply',
      id: 1,
      ok: false,
      error: 'The agent server refused (409).',
    });
    assert.equal(agent.busy, null);
  });

  it('offers Continue after a reject until the agent runs again, or a message or Continue tells it what to do', async () => {
    const { agent, calls } = controls();
    const rejecting = agent.reject(1, 'not on main');
    assert.deepEqual(calls[0]?.args, ['not on main']);
    assert.equal(agent.rejected('idle'), false, 'not before the server took it');
    calls[0]?.resolve();
    await rejecting;
    assert.equal(agent.rejected('idle'), true);
    agent.messageSent();
    assert.equal(agent.rejected('idle'), false, 'a message tells the agent what to do instead');

    const again = agent.reject(2, undefined);
    calls[1]?.resolve();
    await again;
    assert.equal(agent.rejected('running'), false, 'the agent runs again');
    assert.equal(agent.rejected('idle'), false, 'and that is remembered');

    const rejectedOnce = agent.reject(3, undefined);
    calls[2]?.resolve();
    await rejectedOnce;
    const continuing = agent.continue(4);
    assert.equal(agent.rejected('idle'), false, 'Continue takes the reject back at once');
    calls[3]?.resolve();
    await continuing;
  });

  it('sets the confirmation policy as the control named policy', async () => {
    const { agent, calls, posted } = controls();
    const setting = agent.setConfirmation(9, true);
    assert.equal(agent.busy, 'policy');
    assert.deepEqual(calls[0]?.args, [true]);
    calls[0]?.resolve();
    await eventuallyDefined(async () => (posted.length === 3 ? true : undefined));
    await setting;
    assert.deepEqual(posted.at(-1), { type: 'reply', id: 9, ok: true });
  });
});
