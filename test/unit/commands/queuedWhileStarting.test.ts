// New Conversation on a server that holds messages while a conversation starts (OpenHands 1.11's
// pending messages): the panel opens at once with the start's status, what is typed there is queued on
// the server (shown as queued), and turns into the agent's user messages, in order, once the start
// ends; a failed start gives the texts back; a server without the route opens nothing early. Through
// the scripted user, the panel's host side and real HTTP against the test server, held in STARTING.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { registerConversationCommands } from '../../../src/commands/conversationCommands';
import { MementoManager } from '../../../src/core/mementoManager';
import { forgetAskedWords } from '../../../src/state/askedWords';
import { ConversationFeeds } from '../../../src/state/conversationFeeds';
import { ConversationSteering } from '../../../src/state/conversationSteering';
import type { StartSource } from '../../../src/state/conversationStart';
import { ConversationWatch } from '../../../src/state/conversationWatch';
import { ConversationController } from '../../../src/webviews/conversation/host/controller';
import type { Header, HostToWebview } from '../../../src/webviews/conversation/shared/protocol';
import { commands, MemoryMemento, prompts } from '../../shared/vscodeStandIn/standIn';
import { eventually, eventuallyDefined } from '../../shared/eventually';
import { useExtensionState } from '../state/extensionState';
import { postingControllerDeps } from '../webviews/conversation/host/controllerDeps';

/** Polls until `probe` holds. */
const eventuallyTrue = (probe: () => boolean, options: { description: string }) =>
  eventually(probe, (ok) => ok, options);

interface OpenedPanel {
  id: string;
  start: StartSource | undefined;
  controller: ConversationController;
  posted: HostToWebview[];
}

describe('New Conversation: messages typed while it starts', function () {
  this.timeout(30_000);
  const t = useExtensionState({ seed: { sandboxes: 2, conversations: 2, seed: 11 } });
  let registered: vscode.Disposable[];
  let feeds: ConversationFeeds;
  let watch: ConversationWatch;
  let opened: OpenedPanel[];
  let queueOffered: boolean;
  const cleanup: (() => void)[] = [];

  beforeEach(() => {
    opened = [];
    queueOffered = true;
    feeds = new ConversationFeeds(t.connection, t.store, t.log);
    watch = new ConversationWatch({
      store: t.store,
      feeds,
      mementos: new MementoManager(t.memento),
      scope: () => 'off',
      secrets: () => [],
    });
    const steering = new ConversationSteering(t.connection, t.store, t.actions, feeds, t.log);
    registered = registerConversationCommands({
      store: t.store,
      connection: t.connection,
      log: t.log,
      reveal: () => Promise.resolve(),
      panels: {
        // the panel's host side as register.ts builds it, without the webview
        show: (id, _title, start) => {
          const lease = feeds.acquire(id);
          const posted: HostToWebview[] = [];
          const controller = new ConversationController({
            ...postingControllerDeps({ conversationId: id, feed: lease.feed, posted }),
            conversation: () => lease.conversation,
            steer: {
              send: (text, resume, onStep, images) => steering.send(id, text, { resume, onStep, images }),
              approve: () => steering.approve(id),
              reject: (reason) => steering.reject(id, reason),
              continue: () => steering.continue(id),
              pause: () => steering.pause(id),
              stop: () => steering.stop(id),
              setConfirmation: () => Promise.resolve(),
            },
            start,
          });
          opened.push({ id, start, controller, posted });
          cleanup.push(
            () => controller.dispose(),
            () => lease.dispose(),
          );
        },
        isInView: () => false,
        isOpen: (id) => opened.some((panel) => panel.id === id),
        close: () => false,
        attach: () => undefined,
      },
      steering,
      watch,
      workspaceState: new MemoryMemento(),
      handoffRecords: { save: () => Promise.resolve(undefined) },
      modelOffer: { open: () => Promise.resolve() },
      modelReady: { report: () => undefined },
      queueOffered: () => Promise.resolve(queueOffered),
    });
  });
  afterEach(() => {
    t.server.holdStarts(false);
    for (const dispose of cleanup.splice(0)) dispose();
    forgetAskedWords();
    registered.forEach((disposable) => disposable.dispose());
    watch.dispose();
    feeds.dispose();
  });

  const newConversation = (message: string) =>
    commands.executeCommand<string | undefined>('openhands.newConversation', {
      message,
      repository: null,
      sandboxId: null,
    });
  const header = (panel: OpenedPanel): Header => panel.controller.header();
  const outbox = (panel: OpenedPanel) =>
    header(panel).controls.outbox.map((entry) => [entry.text, entry.state, entry.reason]);
  const send = (panel: OpenedPanel, text: string) =>
    panel.controller.receive({ type: 'send', text, resume: false });
  const userTexts = (panel: OpenedPanel) =>
    panel.controller
      .rows()
      .flatMap((row) => (row.kind === 'message' && row.role === 'user' ? [row.markdown] : []));
  /** The panel New Conversation opened, once the start is held at STARTING_CONVERSATION. */
  const heldPanel = () =>
    eventuallyDefined(
      () => {
        const panel = opened[0];
        return panel && t.server.state.startTasks.at(-1)?.status === 'STARTING_CONVERSATION'
          ? panel
          : undefined;
      },
      { description: 'the panel of the held start' },
    );

  it('opens the panel at once saying the start; queued messages reach the agent after the task, in order', async () => {
    t.server.holdStarts(true);
    const started = newConversation('Fix the failing tests');
    const panel = await heldPanel();
    assert.ok(panel.start, 'the panel follows the start');
    await eventuallyTrue(() => header(panel).starting?.status === 'Starting the conversation…', {
      description: 'the header says the start’s status',
    });
    assert.equal(header(panel).feed, 'connecting', 'no "server does not know this conversation" meanwhile');

    assert.equal(header(panel).sandboxStatus, 'STARTING');
    // the task went with the start request: it waits first
    assert.deepEqual(outbox(panel), [['Fix the failing tests', 'queued', null]]);
    send(panel, 'Then run the linter');
    send(panel, 'And tell me what you changed');
    await eventuallyTrue(() => outbox(panel).filter(([, state]) => state === 'queued').length === 3, {
      description: 'both messages shown as queued',
    });
    assert.deepEqual(
      outbox(panel).map(([text]) => text),
      ['Fix the failing tests', 'Then run the linter', 'And tell me what you changed'],
    );
    const task = t.server.state.startTasks.at(-1)!;
    assert.deepEqual(
      t.server.state.pendingMessages.map((m) => [
        m.conversation_id,
        m.content.map((part) => ('text' in part ? part.text : '')).join(''),
      ]),
      [
        [`task-${task.id}`, 'Then run the linter'],
        [`task-${task.id}`, 'And tell me what you changed'],
      ],
    );

    t.server.holdStarts(false);
    const id = await started;
    assert.equal(id, panel.id, 'the conversation has the id its panel opened with');
    await eventuallyTrue(() => outbox(panel).length === 0 && userTexts(panel).length === 3, {
      description: 'the queued messages turned into the agent’s user messages',
    });
    assert.deepEqual(userTexts(panel), [
      'Fix the failing tests',
      'Then run the linter',
      'And tell me what you changed',
    ]);
    assert.equal(header(panel).starting ?? null, null);
    assert.equal(prompts.of('information').length, 0, 'no "has started" toast: the panel says it');
  });

  it('a message sent once the start is over goes the usual way, not to the queue', async () => {
    const id = await newConversation('Say hello');
    const panel = opened[0]!;
    assert.equal(id, panel.id);
    await eventuallyTrue(() => header(panel).feed === 'live', { description: 'the feed live' });
    const queuedBefore = t.server.requests.filter((r) => r.path.endsWith('/pending-messages')).length;
    send(panel, 'Now say goodbye');
    await eventuallyTrue(() => userTexts(panel).includes('Now say goodbye'), { description: 'the echo' });
    assert.equal(
      t.server.requests.filter((r) => r.path.endsWith('/pending-messages')).length,
      queuedBefore,
      'nothing queued after the start',
    );
  });

  it('a start that fails says so, and gives every queued message back to the input', async () => {
    t.server.holdStarts(true);
    t.server.failNextStartTasks('the repository could not be cloned');
    prompts.answer('error', undefined);
    const started = newConversation('Fix it');
    const panel = await heldPanel();
    send(panel, 'Queued before the failure');
    await eventuallyTrue(() => outbox(panel)[1]?.[1] === 'queued', { description: 'queued' });
    t.server.holdStarts(false);
    assert.equal(await started, undefined);
    const words = 'The conversation could not be started: the repository could not be cloned.';
    assert.deepEqual(outbox(panel), [
      ['Fix it', 'failed', words],
      ['Queued before the failure', 'failed', words],
    ]);
    assert.equal(header(panel).feed, 'offline');
    assert.match(
      String(header(panel).feedDetail),
      /could not be started: the repository could not be cloned/,
    );
    // the page puts each failed entry's text back into the input, then dismisses it
    for (const entry of header(panel).controls.outbox)
      panel.controller.receive({ type: 'dismissOutbox', id: entry.id });
    assert.deepEqual(outbox(panel), []);
  });

  it('a server without the route: nothing opens early, no id is asked for, nothing is queued', async () => {
    queueOffered = false;
    prompts.answer('information', undefined);
    const id = await newConversation('Plain start');
    assert.ok(id);
    assert.equal(opened.length, 0, 'no panel while it started');
    const start = t.server.requests.find(
      (r) => r.method === 'POST' && r.path === '/api/v1/app-conversations',
    );
    assert.equal((start?.body as Record<string, unknown>)['conversation_id'], undefined);
    assert.equal(prompts.of('information')[0]?.message, 'The conversation has started.');
  });
});
