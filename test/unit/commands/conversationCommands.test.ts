// New Conversation's decisions, through the scripted user and against the test server: what is asked
// and sent, that a dismissal at any question starts nothing, that a chosen confirmation policy is set
// before the first message reaches the agent, and how a conversation is opened by id.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { registerConversationCommands } from '../../../src/commands/conversationCommands';
import { MementoManager } from '../../../src/core/mementoManager';
import { messageText, type AgentEvent } from '../../../src/api';
import { askedWords, firstWords, forgetAskedWords } from '../../../src/state/askedWords';
import { ConversationFeeds } from '../../../src/state/conversationFeeds';
import { ConversationSteering } from '../../../src/state/conversationSteering';
import { ConversationWatch } from '../../../src/state/conversationWatch';
import { commands, MemoryMemento, prompts, settings } from '../../shared/vscodeStandIn/standIn';
import { eventually } from '../../shared/eventually';
import { useExtensionState } from '../state/extensionState';

/** The settings read (both generations), and nothing else. */
const SETTINGS_PATH = /^\/api(\/v1)?\/settings$/;

describe('conversation commands', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 3, conversations: 6, seed: 5 } });
  let registered: vscode.Disposable[];
  let feeds: ConversationFeeds;
  let watch: ConversationWatch;
  let shown: { id: string; title: string }[];
  let workspaceState: MemoryMemento;
  let setUpAsked: number;
  let reported: string[];

  beforeEach(() => {
    shown = [];
    workspaceState = new MemoryMemento();
    setUpAsked = 0;
    reported = [];
    feeds = new ConversationFeeds(t.connection, t.store, t.log);
    // notifications off: the watch remembers what it watches without following live feeds
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
      panels: {
        show: (id, title) => void shown.push({ id, title }),
        isInView: () => false,
        close: () => false,
        attach: () => undefined,
      },
      steering: new ConversationSteering(t.connection, t.store, t.actions, feeds, t.log),
      watch,
      workspaceState,
      handoffRecords: { save: () => Promise.resolve(undefined) },
      modelOffer: { open: () => Promise.resolve(void setUpAsked++) },
      modelReady: { report: (check) => void reported.push(check.readiness) },
    });
  });
  afterEach(() => {
    forgetAskedWords();
    registered.forEach((disposable) => disposable.dispose());
    watch.dispose();
    feeds.dispose();
  });

  const starts = () =>
    t.server.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/app-conversations');

  it('asks for the message, the repository, the branch and the sandbox, and starts with what was answered', async () => {
    prompts.answer('inputBox', '  Fix the failing tests  ');
    prompts.answer('inputBox', 'acme/app');
    prompts.answer('inputBox', 'main');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(id);
    assert.deepEqual(
      prompts.of('inputBox').map((asked) => asked.message),
      [
        'New Conversation: what should OpenHands do?',
        'New Conversation: repository',
        'New Conversation: branch',
      ],
    );
    assert.equal(prompts.of('quickPick')[0]?.choices[0], '$(add) New sandbox');
    const record = t.server.state.conversations.find((c) => c.id === id.replace(/-/g, ''));
    assert.equal(record?.selected_repository, 'acme/app');
    assert.equal(record?.selected_branch, 'main');
    const events = t.server.state.agentConversations.get(id.replace(/-/g, ''))?.events ?? [];
    assert.ok(
      JSON.stringify(events).includes('Fix the failing tests'),
      'the first message reached the agent',
    );
    assert.equal(prompts.of('information')[0]?.message, 'The conversation has started.');
    assert.equal(watch.isWatched(id), true);
    assert.ok(t.store.findConversation(id), 'the list shows it');
    // until the server titles it, the conversation goes by what was asked (kept in memory only)
    assert.equal(askedWords(id), 'Fix the failing tests');
    const kept = t.memento.keys().map((key) => JSON.stringify(t.memento.get(key)));
    assert.ok(!kept.some((value) => value.includes('failing tests')), 'nothing of it in globalState');
  });

  it('learns what was asked of a conversation it did not start from its open feed', async () => {
    await t.store.refresh();
    const running = new Set(t.store.sandboxes.filter((s) => s.status === 'RUNNING').map((s) => s.id));
    const target = t.server.state.conversations.find(
      (c) =>
        running.has(c.sandbox_id) &&
        (t.server.state.agentConversations.get(c.id)?.events ?? []).some(
          (e) => e.kind === 'MessageEvent' && e.source === 'user',
        ),
    );
    assert.ok(target, 'the seed has a reachable conversation with a user message');
    const first = t.server.state.agentConversations
      .get(target.id)
      ?.events.find((e) => e.kind === 'MessageEvent' && e.source === 'user');
    assert.equal(askedWords(target.id), undefined);
    const lease = feeds.acquire(target.id);
    try {
      const learnt = await eventually(
        () => askedWords(target.id),
        (words) => words !== undefined,
        { description: 'the first user message learnt from the feed' },
      );
      assert.equal(learnt, firstWords(messageText(first as AgentEvent)));
    } finally {
      lease.dispose();
    }
  });

  it('starts nothing when the user dismisses any question', async () => {
    for (let dismissedAt = 0; dismissedAt < 3; dismissedAt++) {
      prompts.reset();
      const answers = ['Do something', ''];
      for (let i = 0; i < dismissedAt; i++) prompts.answer('inputBox', answers[i]);
      prompts.answer(dismissedAt < 2 ? 'inputBox' : 'quickPick', undefined);
      assert.equal(
        await commands.executeCommand('openhands.newConversation'),
        undefined,
        `dismissed at ${dismissedAt}`,
      );
    }
    assert.deepEqual(starts(), []);
  });

  it('starts in a sandbox row’s sandbox, asking no sandbox', async () => {
    await t.store.refresh();
    const running = t.store.sandboxes.find((s) => s.status === 'RUNNING');
    assert.ok(running);
    prompts.answer('inputBox', '');
    prompts.answer('inputBox', '');
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation', {
      kind: 'sandbox',
      sandbox: running,
    });
    assert.equal(
      t.server.state.conversations.find((c) => c.id === id?.replace(/-/g, ''))?.sandbox_id,
      running.id,
    );
    assert.deepEqual(prompts.of('quickPick'), []);
  });

  it('sets the confirmation policy before the first message reaches the agent', async () => {
    settings.set({ 'openhands.confirmationPolicy': 'always' });
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation', {
      message: 'Delete the temp files',
      repository: null,
      sandboxId: null,
    });
    assert.ok(id);
    const agent = t.server.state.agentConversations.get(id.replace(/-/g, ''));
    assert.deepEqual(agent?.confirmation_policy, { kind: 'AlwaysConfirm' });
    const start = starts()[0];
    assert.ok(
      start && !JSON.stringify(start.body ?? '').includes('Delete the temp files'),
      'the start carried no message',
    );
    assert.ok(JSON.stringify(agent?.events ?? []).includes('Delete the temp files'));
  });

  it('opens a conversation’s panel by id with its title, and copies its id', async () => {
    await t.store.refresh();
    const conversation = t.store.conversations[0];
    assert.ok(conversation);
    assert.equal(await commands.executeCommand('openhands.openConversation', conversation.id), true);
    assert.deepEqual(shown, [{ id: conversation.id, title: conversation.title ?? '' }]);
    assert.equal(
      await commands.executeCommand('openhands.copyConversationId', { kind: 'conversation', conversation }),
      conversation.id,
    );
  });

  it('filters the conversations by what the user typed, and clears the filter', async () => {
    prompts.answer('inputBox', 'login');
    await commands.executeCommand('openhands.filterConversations');
    assert.equal(t.store.titleFilter, 'login');
    assert.equal(prompts.of('inputBox')[0]?.message, 'Filter Conversations by Title');
    await commands.executeCommand('openhands.clearConversationFilter');
    assert.equal(t.store.titleFilter, undefined);
  });

  describe('a server whose agent has no usable model (issue 36)', () => {
    const TASK = 'Fix the failing tests in src/auth';
    const setUp = 'Set Up the Model…';
    const startAnyway = 'Start Anyway';
    /** Answers every question after the task: no repository, a new sandbox. */
    const answerTheRest = () => {
      prompts.answer('inputBox', '');
      prompts.answer('quickPick', '$(add) New sandbox');
    };

    it('a fresh server (no settings): asks before starting; Set Up the Model… asks for the page, starts nothing and keeps the task', async () => {
      t.server.state.settings = null;
      prompts.answer('inputBox', TASK);
      answerTheRest();
      prompts.answer('warning', setUp);
      assert.equal(await commands.executeCommand('openhands.newConversation'), undefined);
      const [question] = prompts.of('warning');
      assert.ok(question, 'it asked');
      assert.equal(question.modal, true);
      assert.deepEqual(question.choices, [setUp, startAnyway]);
      assert.match(question.detail ?? '', /no model yet: a conversation would wait for ever/);
      assert.match(question.detail ?? '', /what you typed is kept/);
      assert.equal(setUpAsked, 1, 'the Model page was asked for');
      assert.deepEqual(reported, ['no-settings']);
      assert.deepEqual(starts(), []);

      // the next New Conversation offers the task again
      prompts.reset();
      prompts.answer('inputBox', undefined);
      await commands.executeCommand('openhands.newConversation');
      assert.deepEqual(prompts.of('inputBox')[0]?.choices, [TASK]);
    });

    it('a model with no key: the question names it; Start Anyway starts with the task, and the next one starts empty', async () => {
      const settings = t.server.state.settings;
      assert.ok(settings);
      settings.llm_model = 'openai/gpt-5.5';
      settings.llm_api_key = null;
      prompts.answer('inputBox', TASK);
      answerTheRest();
      prompts.answer('warning', startAnyway);
      prompts.answer('information', undefined);
      const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
      assert.ok(id, 'it started');
      assert.match(prompts.of('warning')[0]?.detail ?? '', /Its model openai\/gpt-5\.5 has no API key/);
      assert.equal(setUpAsked, 0);
      assert.equal(starts().length, 1);
      const events = t.server.state.agentConversations.get(id.replace(/-/g, ''))?.events ?? [];
      assert.ok(JSON.stringify(events).includes(TASK), 'the task reached the agent');

      prompts.reset();
      prompts.answer('inputBox', undefined);
      await commands.executeCommand('openhands.newConversation');
      assert.deepEqual(prompts.of('inputBox')[0]?.choices, [], 'a started task is not offered again');
    });

    it('dismissing the question starts nothing and loses nothing', async () => {
      t.server.state.settings = null;
      prompts.answer('inputBox', TASK);
      answerTheRest();
      prompts.answer('warning', undefined);
      assert.equal(await commands.executeCommand('openhands.newConversation'), undefined);
      assert.equal(setUpAsked, 0);
      assert.deepEqual(starts(), []);
      prompts.reset();
      prompts.answer('inputBox', undefined);
      await commands.executeCommand('openhands.newConversation');
      assert.deepEqual(prompts.of('inputBox')[0]?.choices, [TASK]);
    });

    it('a ready model, a server with no settings route, or a read that fails: no question, it starts', async () => {
      for (const setup of [
        () => undefined,
        () => void t.server.faults.add({ kind: 'html', match: { path: SETTINGS_PATH } }),
        () => void t.server.faults.add({ kind: 'status', status: 503, match: { path: SETTINGS_PATH } }),
      ]) {
        t.server.faults.clear();
        setup();
        prompts.reset();
        prompts.answer('inputBox', TASK);
        answerTheRest();
        prompts.answer('information', undefined);
        const id = await commands.executeCommand('openhands.newConversation');
        assert.ok(id, 'it started');
        assert.deepEqual(prompts.of('warning'), []);
      }
      assert.deepEqual(reported, ['ready', 'unknown', 'unknown']);
      assert.equal(starts().length, 3);
    });
  });
});
