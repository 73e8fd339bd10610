// New Conversation's model step against the test server over HTTP, through the scripted user: asked
// only with two or more saved profiles (after the task), the active one first, the choice remembered
// per workspace as the next default; a profile other than the active one is switched to right after
// the start (switch_profile) and before the first message reaches the agent. No secret is kept.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { registerConversationCommands } from '../../../src/commands/conversationCommands';
import { PROFILE_MEMORY_KEY } from '../../../src/conversations/profileStep';
import { MementoManager } from '../../../src/core/mementoManager';
import { forgetAskedWords } from '../../../src/state/askedWords';
import { ConversationFeeds } from '../../../src/state/conversationFeeds';
import { ConversationSteering } from '../../../src/state/conversationSteering';
import { ConversationWatch } from '../../../src/state/conversationWatch';
import { commands, MemoryMemento, prompts, settings } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from '../state/extensionState';

const FAST_KEY = 'sk-fast-profile-secret-91c2';
const TASK = { message: 'Tidy the README', repository: null, sandboxId: null };

describe('New Conversation: the model step', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 2, conversations: 2, seed: 7 } });
  let registered: vscode.Disposable[];
  let feeds: ConversationFeeds;
  let watch: ConversationWatch;
  let workspaceState: MemoryMemento;

  beforeEach(() => {
    prompts.reset();
    workspaceState = new MemoryMemento();
    feeds = new ConversationFeeds(t.connection, t.store, t.log);
    watch = new ConversationWatch({
      store: t.store,
      feeds,
      mementos: new MementoManager(t.memento),
      scope: () => 'off',
      secrets: () => [],
    });
    registered = registerConversationCommands({
      store: t.store,
      connection: t.connection,
      log: t.log,
      reveal: () => Promise.resolve(),
      panels: { show: () => undefined, isInView: () => false, attach: () => undefined, close: () => false },
      steering: new ConversationSteering(t.connection, t.store, t.actions, feeds, t.log),
      watch,
      workspaceState,
      handoffRecords: { save: () => Promise.resolve(undefined) },
      modelOffer: {
        open: () => Promise.reject(new Error('the Model page was offered: the double has a model')),
      },
      modelReady: { report: () => undefined },
    });
  });
  afterEach(() => {
    forgetAskedWords();
    registered.forEach((disposable) => disposable.dispose());
    watch.dispose();
    feeds.dispose();
  });

  /** `steady` (the settings' model, active) and `fast` (another model, with its own key). */
  async function twoProfiles(): Promise<void> {
    const setup = t.connection.requireClient().modelSetup;
    await setup.saveProfile('steady');
    await setup.activateProfile('steady');
    await setup.saveProfile('fast', { model: 'openai/gpt-4o-mini', apiKey: FAST_KEY });
  }

  const switches = () => t.server.requests.filter((r) => r.path.endsWith('/switch_profile'));
  const starts = () =>
    t.server.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/app-conversations');
  const modelSteps = () =>
    prompts.of('quickPick').filter((asked) => asked.message === 'New Conversation: model');

  async function start(args: object = TASK): Promise<string | undefined> {
    prompts.answer('information', undefined);
    return commands.executeCommand<string | undefined>('openhands.newConversation', args);
  }

  it('offers the profiles after the task, the active one first; a switch to another lands before the first message', async () => {
    await twoProfiles();
    prompts.answer('inputBox', 'Tidy the README');
    prompts.answer('inputBox', '');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'fast');
    const id = await start({});
    assert.ok(id);
    // the task, the repository, the sandbox, then the model
    assert.deepEqual(
      prompts.asked.filter((asked) => asked.kind !== 'information').map((asked) => asked.message),
      [
        'New Conversation: what should OpenHands do?',
        'New Conversation: repository',
        'New Conversation: sandbox',
        'New Conversation: model',
      ],
    );
    assert.deepEqual(modelSteps()[0]?.choices, ['steady', 'fast']);
    // the start carries neither the message nor a model (1.11 has no start field for a profile's LLM)
    const body = JSON.stringify(starts()[0]?.body ?? {});
    assert.ok(!body.includes('Tidy the README') && !body.includes('llm_model'), body);
    const hex = id.replace(/-/g, '');
    assert.deepEqual(
      switches().map((r) => [r.path, r.body]),
      [[`/api/v1/app-conversations/${hex}/switch_profile`, { profile_name: 'fast' }]],
    );
    const events = t.server.state.agentConversations.get(hex)?.events ?? [];
    const switchedAt = events.findIndex(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e['key'] === 'agent',
    );
    const askedAt = events.findIndex((e) => e.kind === 'MessageEvent' && e.source === 'user');
    assert.ok(
      switchedAt >= 0 && askedAt > switchedAt,
      'the model switched before the message reached the agent',
    );
    assert.equal(t.server.state.conversations.find((c) => c.id === hex)?.llm_model, 'openai/gpt-4o-mini');
    // remembered per workspace: the name alone
    assert.equal(workspaceState.get(PROFILE_MEMORY_KEY), 'fast');
    const kept = [workspaceState, t.memento].flatMap((memento) =>
      memento.keys().map((key) => JSON.stringify(memento.get(key))),
    );
    assert.ok(!kept.some((value) => value.includes(FAST_KEY)), 'no key in workspaceState or globalState');
    const logged = (t.log.channel as unknown as { lines: string[] }).lines;
    assert.ok(!logged.some((line) => line.includes(FAST_KEY)), 'no key in the log');
  });

  it('the last choice leads next time; the active one chosen starts as before, with no switch', async () => {
    await twoProfiles();
    await workspaceState.update(PROFILE_MEMORY_KEY, 'fast');
    prompts.answer('quickPick', 'steady');
    const id = await start();
    assert.ok(id);
    assert.deepEqual(modelSteps()[0]?.choices, ['fast', 'steady']);
    assert.deepEqual(switches(), []);
    assert.ok(JSON.stringify(starts()[0]?.body).includes('Tidy the README'), 'the message rode the start');
    assert.equal(workspaceState.get(PROFILE_MEMORY_KEY), 'steady');
  });

  it('a remembered profile the server no longer has leaves the active one first', async () => {
    await twoProfiles();
    await workspaceState.update(PROFILE_MEMORY_KEY, 'gone');
    prompts.answer('quickPick', 'steady');
    assert.ok(await start());
    assert.deepEqual(modelSteps()[0]?.choices, ['steady', 'fast']);
  });

  it('asks nothing with one profile or none, or on a server before 1.11', async () => {
    assert.ok(await start(), 'no profiles');
    await t.connection.requireClient().modelSetup.saveProfile('steady');
    assert.ok(await start(), 'one profile');
    await twoProfiles();
    t.server.faults.add({ kind: 'status', status: 404, match: { path: '/api/v1/settings/profiles' } });
    assert.ok(await start(), 'no profiles route');
    assert.deepEqual(modelSteps(), []);
    assert.deepEqual(switches(), []);
    assert.equal(workspaceState.get(PROFILE_MEMORY_KEY), undefined);
  });

  it('starts nothing when the model step is dismissed', async () => {
    await twoProfiles();
    prompts.answer('quickPick', undefined);
    assert.equal(await commands.executeCommand('openhands.newConversation', TASK), undefined);
    assert.equal(modelSteps().length, 1);
    assert.deepEqual(starts(), []);
    assert.equal(workspaceState.get(PROFILE_MEMORY_KEY), undefined);
  });

  it('with a confirmation policy too: the model, then the policy, then the message', async () => {
    await twoProfiles();
    settings.set({ 'openhands.serverUrl': t.server.url, 'openhands.confirmationPolicy': 'always' });
    const id = await start({ ...TASK, profile: 'fast' });
    assert.ok(id);
    assert.deepEqual(modelSteps(), [], 'a profile given asks nothing');
    const events = t.server.state.agentConversations.get(id.replace(/-/g, ''))?.events ?? [];
    const keys = events
      .filter(
        (e) =>
          e.kind === 'ConversationStateUpdateEvent' || (e.kind === 'MessageEvent' && e.source === 'user'),
      )
      .map((e) => (e.kind === 'MessageEvent' ? 'message' : String(e['key'])))
      .filter((key) => key === 'agent' || key === 'confirmation_policy' || key === 'message');
    assert.deepEqual(keys, ['agent', 'confirmation_policy', 'message']);
  });

  it('a switch the server refuses says so and sends no message', async () => {
    await twoProfiles();
    t.server.faults.add({ kind: 'status', status: 502, match: { path: /\/switch_profile$/ } });
    prompts.answer('error', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation', {
      ...TASK,
      profile: 'fast',
    });
    assert.ok(id, 'the conversation started');
    const said = prompts.of('error')[0]?.message ?? '';
    assert.match(
      said,
      /^The conversation started, but it could not be switched to the model of fast \(.+\)\. Your message was not sent;/,
    );
    assert.ok(!said.includes(FAST_KEY));
    const events = t.server.state.agentConversations.get(id.replace(/-/g, ''))?.events ?? [];
    assert.ok(!events.some((e) => e.kind === 'MessageEvent' && e.source === 'user'));
  });
});
