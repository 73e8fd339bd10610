// The panel's model picker end to end below the page: the page's `switchModel` control (numbered) goes
// to the controller, which lists the test server's saved profiles, takes the scripted pick, posts
// switch_profile over HTTP and answers by id; the feed then carries the new agent, so the header shows
// the new model and the transcript marks the switch. Refusals come back in words, with no secret.
import assert from 'node:assert/strict';
import { ConversationController } from '../../../../../src/webviews/conversation/host/controller';
import {
  NO_PROFILES,
  NO_PROFILES_ROUTE,
  SANDBOX_PAUSED,
  type ModelChoice,
} from '../../../../../src/webviews/conversation/host/modelPicker';
import type { Header, HostToWebview, Reply } from '../../../../../src/webviews/conversation/shared/protocol';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import { ConversationFeeds } from '../../../../../src/state/conversationFeeds';
import { eventually } from '../../../../shared/eventually';
import { useExtensionState } from '../../../state/extensionState';
import { postingControllerDeps } from './controllerDeps';

const PROFILE_KEY = 'sk-profile-secret-4d1e77';

describe('the panel’s model picker (switch_profile)', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 2, conversations: 4, seed: 11 } });
  let feeds: ConversationFeeds;
  let disposables: { dispose(): void }[];
  beforeEach(() => {
    feeds = new ConversationFeeds(t.connection, t.store, t.log);
    disposables = [feeds];
  });
  afterEach(() => disposables.forEach((disposable) => disposable.dispose()));

  /** A seeded conversation in a RUNNING sandbox, with a panel's controller on its feed. */
  async function openPanel(pick: (choices: readonly ModelChoice[]) => ModelChoice | undefined) {
    await t.store.refresh();
    const running = new Set(t.store.sandboxes.filter((s) => s.status === 'RUNNING').map((s) => s.id));
    const conversation = t.store.conversations.find((c) => running.has(c.sandbox_id));
    assert.ok(conversation, 'the seed has a conversation in a running sandbox');
    const lease = feeds.acquire(conversation.id);
    disposables.push(lease);
    const posted: HostToWebview[] = [];
    const offered: (readonly ModelChoice[])[] = [];
    const controller = new ConversationController({
      ...postingControllerDeps({ conversationId: conversation.id, feed: lease.feed, posted }),
      conversation: () => lease.conversation,
      secrets: () => [PROFILE_KEY],
      models: {
        modelSetup: () => t.connection.requireClient().modelSetup,
        pick: (choices) => {
          offered.push(choices);
          return Promise.resolve(pick(choices));
        },
      },
    });
    disposables.push(controller);
    controller.receive({ type: 'ready' });
    await eventually(
      () => lastHeader(posted)?.feed,
      (feed) => feed === 'live',
      { description: 'the panel’s feed live' },
    );
    return { conversation, posted, offered, controller };
  }

  async function saveProfiles(): Promise<void> {
    const setup = t.connection.requireClient().modelSetup;
    await setup.saveProfile('steady', { model: 'anthropic/claude-sonnet-4-5-20250929' });
    await setup.saveProfile('fast', { model: 'openai/gpt-4o-mini', apiKey: PROFILE_KEY });
  }

  async function reply(posted: HostToWebview[], id: number): Promise<Reply> {
    return eventually(
      () => posted.find((message): message is Reply => message.type === 'reply' && message.id === id),
      (found) => found !== undefined,
      { description: `the reply to ${id}` },
    ) as Promise<Reply>;
  }

  it('lists the profiles with the one in use marked, switches to the one chosen, and the header and transcript follow', async () => {
    await saveProfiles();
    const { conversation, posted, offered, controller } = await openPanel((choices) =>
      choices.find((choice) => choice.profile === 'fast'),
    );
    assert.equal(lastHeader(posted)?.model, 'anthropic/claude-sonnet-4-5-20250929');
    posted.length = 0;
    const busyHeaders = () => posted.filter((m) => m.type === 'header' && m.header.controls.busy === 'model');
    controller.receive({ type: 'switchModel', id: 7 });
    assert.deepEqual(await reply(posted, 7), { type: 'reply', id: 7, ok: true });
    assert.deepEqual(offered[0], [
      { profile: 'steady', model: 'anthropic/claude-sonnet-4-5-20250929', current: true },
      { profile: 'fast', model: 'openai/gpt-4o-mini', current: false },
    ]);
    assert.ok(busyHeaders().length > 0, 'the header said the switch was under way');
    const switches = t.server.requests.filter((r) => r.path.endsWith('/switch_profile'));
    assert.deepEqual(
      switches.map((r) => [r.path, r.body]),
      [[`/api/v1/app-conversations/${conversation.id}/switch_profile`, { profile_name: 'fast' }]],
    );
    const header = await eventually(
      () => lastHeader(posted),
      (shown) => shown?.model === 'openai/gpt-4o-mini',
      { description: 'the header shows the new model' },
    );
    assert.equal(header?.controls.busy, null);
    const marks = rowsPosted(posted).filter(
      (row) => row.kind === 'notice' && row.title === 'Model switched to openai/gpt-4o-mini',
    );
    assert.equal(marks.length, 1, 'the transcript marks the switch once');
    assert.ok(!JSON.stringify(posted).includes(PROFILE_KEY));
  });

  it('switches nothing when the pick is dismissed or the model in use is chosen again', async () => {
    await saveProfiles();
    const picks = [undefined, 'steady'];
    const { posted, controller } = await openPanel((choices) =>
      choices.find((choice) => choice.profile === picks.shift()),
    );
    controller.receive({ type: 'switchModel', id: 1 });
    assert.equal((await reply(posted, 1)).ok, true);
    controller.receive({ type: 'switchModel', id: 2 });
    assert.equal((await reply(posted, 2)).ok, true);
    assert.deepEqual(
      t.server.requests.filter((r) => r.path.endsWith('/switch_profile')),
      [],
    );
  });

  it('offers at most 50 of a hostile server’s endless list', async () => {
    const profiles = Array.from({ length: 500 }, (_, i) => ({
      name: `p${i}`,
      model: `m/${i}`,
      base_url: null,
      api_key_set: false,
    }));
    t.server.faults.add({
      kind: 'status',
      status: 200,
      body: { profiles, active_profile: null },
      match: { path: '/api/v1/settings/profiles' },
    });
    const { posted, offered, controller } = await openPanel(() => undefined);
    controller.receive({ type: 'switchModel', id: 1 });
    assert.equal((await reply(posted, 1)).ok, true);
    assert.equal(offered[0]?.length, 50);
  });

  it('says in words why not: a paused sandbox (409), no profiles, a server before 1.11', async () => {
    await saveProfiles();
    const { conversation, posted, controller } = await openPanel((choices) => choices.at(-1));
    const sandbox = t.server.state.sandboxes.find((s) => s.id === conversation.sandbox_id);
    assert.ok(sandbox);
    sandbox.status = 'PAUSED';
    controller.receive({ type: 'switchModel', id: 1 });
    assert.deepEqual(await reply(posted, 1), { type: 'reply', id: 1, ok: false, error: SANDBOX_PAUSED });
    assert.equal(t.server.requests.filter((r) => r.path.endsWith('/switch_profile')).length, 1);

    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_profiles = { profiles: {}, active: null };
    controller.receive({ type: 'switchModel', id: 2 });
    assert.deepEqual(await reply(posted, 2), { type: 'reply', id: 2, ok: false, error: NO_PROFILES });

    // a server before 1.11: FastAPI's own 404 for a route it does not have
    t.server.faults.add({ kind: 'status', status: 404, match: { path: '/api/v1/settings/profiles' } });
    controller.receive({ type: 'switchModel', id: 3 });
    assert.deepEqual(await reply(posted, 3), { type: 'reply', id: 3, ok: false, error: NO_PROFILES_ROUTE });
    assert.ok(!JSON.stringify(posted).includes(PROFILE_KEY));
  });
});

function lastHeader(posted: readonly HostToWebview[]): Header | undefined {
  for (let index = posted.length - 1; index >= 0; index--) {
    const message = posted[index];
    if (message?.type === 'header' || message?.type === 'reset') return message.header;
  }
  return undefined;
}

function rowsPosted(posted: readonly HostToWebview[]): Row[] {
  return posted.flatMap((message) => ('rows' in message && Array.isArray(message.rows) ? message.rows : []));
}
