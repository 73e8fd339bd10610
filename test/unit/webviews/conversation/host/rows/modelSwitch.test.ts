// Where the model changed, from the events a switch_profile leaves (the SDK stores the new agent as a
// `ConversationStateUpdateEvent` with key `agent`): the transcript marks it in place, live or read
// back, and the feed's model follows it. The events are the test server's, made by its switch_profile.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../../../src/api';
import { switchedLlm } from '../../../../../../src/api/agentServer/agentLlm';
import {
  followEvent,
  guessFromStored,
  initialFeedState,
} from '../../../../../../src/api/agentServer/feedState';
import { Transcript } from '../../../../../../src/webviews/conversation/host/rows/transcript';
import type { TestServer } from '../../../../../server';
import { numberedEvents, stateUpdate, userMessage } from '../../../../../shared/agentEvents';
import { postJson, startFastServer } from '../../../../testServer/helpers';

describe('the model switch in the transcript and the feed', () => {
  let server: TestServer;
  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 1, conversations: 1 } });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  /** The conversation's events after it says something, switches to `fast`, and says something again. */
  async function switchedConversation(): Promise<AgentEvent[]> {
    const conversation = server.state.conversations[0];
    const sandbox = server.state.sandboxes[0];
    assert.ok(conversation && sandbox);
    sandbox.status = 'RUNNING';
    const api = `${server.url}/api/v1`;
    server.agent.append(conversation.id, [userMessage('before')]);
    assert.equal(
      (await postJson(`${api}/settings/profiles/fast`, { llm: { model: 'openai/gpt-4o-mini' } })).status,
      201,
    );
    const switched = await postJson(`${api}/app-conversations/${conversation.id}/switch_profile`, {
      profile_name: 'fast',
    });
    assert.equal(switched.status, 200);
    server.agent.append(conversation.id, [userMessage('after')]);
    return server.agent.events(conversation.id);
  }

  const textOf = (row: { kind: string; markdown?: string; title?: string; detail?: string }) =>
    row.kind === 'message' ? `message: ${row.markdown}` : `${row.kind}: ${row.title} (${row.detail})`;

  it('marks the switch between the messages it came between, with the model and the profile', async () => {
    const events = await switchedConversation();
    const transcript = new Transcript();
    transcript.append(events);
    const shown = transcript.all.map(textOf).filter((text) => !text.startsWith('notice: The agent started'));
    assert.deepEqual(shown.slice(-3), [
      'message: before',
      'notice: Model switched to openai/gpt-4o-mini (From the saved profile “fast”.)',
      'message: after',
    ]);
  });

  it('marks it the same when the history is read backwards (a reload, a second window)', async () => {
    const events = await switchedConversation();
    const transcript = new Transcript();
    transcript.append(events.slice(-1));
    transcript.prepend(events.slice(0, -1));
    const shown = transcript.all.map(textOf);
    assert.deepEqual(shown.slice(-3), [
      'message: before',
      'notice: Model switched to openai/gpt-4o-mini (From the saved profile “fast”.)',
      'message: after',
    ]);
  });

  it('the feed’s model follows the stored switch, live and when guessed from history', async () => {
    const events = await switchedConversation();
    const update = events.find(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'agent',
    );
    assert.ok(update);
    const before = { ...initialFeedState([]), model: 'anthropic/claude-sonnet-4-5-20250929' };
    assert.equal(followEvent(before, update).model, 'openai/gpt-4o-mini');
    assert.equal(guessFromStored(initialFeedState([]), events).model, 'openai/gpt-4o-mini');
    // a snapshot's model already known: the stored guess does not override it
    assert.equal(guessFromStored(before, events).model, before.model);
  });

  it('marks no other change of the agent, and nothing from a hostile value', () => {
    const numbered = numberedEvents('x');
    const agent = (llm: unknown) => numbered(stateUpdate('agent', { llm, kind: 'Agent' }));
    const quiet = [
      // plugins loaded: the agent changes, its LLM is the one it started on
      agent({ model: 'openai/gpt-4o', usage_id: 'agent' }),
      agent({ model: 42, usage_id: 'profile:fast:0123456789ab' }),
      agent({ model: '', usage_id: 'profile:fast:0123456789ab' }),
      agent('not an object'),
      numbered(stateUpdate('agent', null)),
    ];
    assert.deepEqual(quiet.map(switchedLlm), [undefined, undefined, undefined, undefined, undefined]);
    const transcript = new Transcript();
    transcript.append(quiet);
    assert.deepEqual(transcript.all, []);
    // the agent's own switch_llm tool: `profile:<name>`; a long model name is clipped
    const long = agent({ model: 'm'.repeat(5000), usage_id: 'profile:slow' });
    assert.equal(switchedLlm(long)?.profile, 'slow');
    assert.equal(switchedLlm(long)?.model.length, 200);
  });
});
