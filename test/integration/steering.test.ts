// Steering the agent from a real VS Code against the test server's agent-server double: messages
// from the panel and the palette, resume and send, approve and reject, pause / stop / continue,
// the watch's notifications and the badge, and the confirmation policy of new conversations.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AppConversation } from '../../src/api';
import type { ShownNotification } from '../../src/views/conversationNotifier';
import { ReplySchema, type Header } from '../../src/webviews/conversation/shared/protocol';
import { setSetting, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { openLive as openLiveIn, panels } from './conversations';
import { agentServer, server, type RecordedRequest } from './serverControl';

type StoredEvent = Record<string, unknown> & { id: string; kind: string };

async function stored(conversationId: string): Promise<StoredEvent[]> {
  return (await agentServer.events(conversationId)) as StoredEvent[];
}

function textOf(event: StoredEvent): string {
  const message = event['llm_message'] as { content?: { text?: string }[] } | undefined;
  return (message?.content ?? []).map((part) => part.text ?? '').join('');
}

function statusUpdates(events: StoredEvent[]): string[] {
  return events
    .filter((event) => event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'execution_status')
    .map((event) => String(event['value']));
}

describe('steering the agent from a real VS Code', function () {
  this.timeout(60_000);
  const t = useFreshExtension();
  const shown: ShownNotification[] = [];
  let subscription: vscode.Disposable | undefined;

  beforeEach(async () => {
    shown.length = 0;
    subscription = t.api.notifier.onDidShow((notification) => shown.push(notification));
    await agentServer.setOptions({ agentStepMs: 150 });
    await setSetting('notifications', undefined);
    await setSetting('confirmationPolicy', undefined);
  });
  afterEach(async () => {
    subscription?.dispose();
    for (const id of panels(t.api).openIds()) panels(t.api).close(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await agentServer.setOptions({ agentStepMs: 150 });
  });

  /**
   * A conversation whose sandbox runs and whose agent is at rest; each test takes another (`index`):
   * the server is reset between tests, and what the extension holds of one (a kept transcript, the
   * watch) must not carry over into the next.
   */
  const resting = async (index: number): Promise<AppConversation> => {
    const candidates = () =>
      t.api.store.conversations.filter(
        (c) =>
          c.sandbox_status === 'RUNNING' &&
          (c.execution_status === 'finished' || c.execution_status === 'idle'),
      );
    // the list is read again until it shows the reset server (a resume in the test before may have
    // paused another sandbox, and the list may still say so)
    const found = await eventually(
      async () => {
        await t.api.store.refresh();
        return candidates();
      },
      (list) => list.length > index,
    ).catch(() => candidates());
    assert.ok(found.length > index, `the seed has ${index + 1} resting conversations in running sandboxes`);
    return found[index] as AppConversation;
  };

  const openLive = (id: string) => openLiveIn(t.api, id);

  const header = (id: string) => panels(t.api).snapshot(id)?.header;
  /** The host's answer to the page's control of this id, once it came. */
  const replyTo = (conversationId: string, id: number) =>
    eventually(
      () =>
        panels(t.api)
          .posted(conversationId)
          .map((message) => ReplySchema.safeParse(message).data)
          .find((reply) => reply?.id === id),
      (reply) => reply !== undefined,
    );

  /** Another editor in front: the panel is no longer what the user looks at, so it may notify. */
  async function lookElsewhere(): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ content: 'elsewhere' });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Active });
  }

  it('a message from the panel shows as pending, is echoed, runs the agent to finished, and notifies once', async () => {
    const conversation = await resting(0);
    await openLive(conversation.id);
    await lookElsewhere();
    panels(t.api).sendFromWebview(conversation.id, {
      type: 'send',
      text: 'Run the tests once more',
      resume: false,
    });
    assert.equal(header(conversation.id)?.controls.outbox[0]?.text, 'Run the tests once more');
    await eventually(
      () => stored(conversation.id),
      (events) =>
        events.some((event) => event.kind === 'MessageEvent' && textOf(event) === 'Run the tests once more'),
    );
    // the echo takes it out of the outbox; the row is the transcript's own
    const echoed = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) =>
        snapshot?.header.controls.outbox.length === 0 &&
        snapshot.rows.some((row) => row.kind === 'message' && row.markdown === 'Run the tests once more'),
    );
    assert.ok(echoed);
    assert.equal(t.api.watch.isWatched(conversation.id), true, 'opened and messaged here: watched');
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'finished',
      20_000,
    );
    const events = await stored(conversation.id);
    const after = statusUpdates(
      events.slice(events.findIndex((e) => textOf(e) === 'Run the tests once more')),
    );
    assert.deepEqual([after[0], after.at(-1)], ['running', 'finished']);
    // the panel is behind another editor: one notification, for this transition
    const finished = await eventually(
      () => shown.filter((n) => n.conversationId === conversation.id && n.status === 'finished'),
      (list) => list.length >= 1,
      10_000,
    );
    assert.equal(finished.length, 1);
    assert.match(finished[0]?.text ?? '', /finished/);
    // done: the watch lets go of its feed (the panel holds its own)
    await eventually(
      () => t.api.watch.isFollowing(conversation.id),
      (following) => !following,
    );
  });

  it('confirmation on: the action waits with its arguments; the badge counts it; reject, then continue; then approve', async () => {
    const conversation = await resting(1);
    await openLive(conversation.id);
    panels(t.api).sendFromWebview(conversation.id, { type: 'setConfirmation', id: 1, on: true });
    await eventually(
      () => header(conversation.id)?.controls.confirmationPolicy,
      (policy) => policy === 'AlwaysConfirm',
    );
    await lookElsewhere();
    panels(t.api).sendFromWebview(conversation.id, {
      type: 'send',
      text: 'Clean the build folder',
      resume: false,
    });
    const waiting = await eventually(
      () => header(conversation.id),
      (h) => h?.executionStatus === 'waiting_for_confirmation' && h.controls.pendingActions.length > 0,
      20_000,
    );
    const pending = waiting?.controls.pendingActions[0];
    assert.equal(pending?.tool, 'terminal');
    assert.match(pending?.detail ?? '', /"command"/);
    await eventually(
      () => t.api.conversationsView.badge?.value,
      (value) => value === 1,
    );
    assert.ok(t.api.watch.waiting().includes(conversation.id));
    await eventually(
      () =>
        shown.filter((n) => n.conversationId === conversation.id && n.status === 'waiting_for_confirmation'),
      (list) => list.length === 1,
    );

    panels(t.api).sendFromWebview(conversation.id, { type: 'reject', id: 2, reason: 'not on this machine' });
    const rejected = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) =>
        snapshot?.header.executionStatus === 'idle' &&
        snapshot.header.controls.rejected &&
        snapshot.rows.some((row) => row.kind === 'action' && row.state === 'rejected'),
    );
    const rejectedRow = rejected?.rows.find((row) => row.kind === 'action' && row.state === 'rejected');
    assert.ok(rejectedRow?.kind === 'action' && rejectedRow.result === 'not on this machine');
    assert.equal(rejected?.header.controls.pendingActions.length, 0);
    await eventually(
      () => t.api.conversationsView.badge,
      (badge) => badge === undefined,
    );
    // the agent stays idle until told
    const idleEvents = (await stored(conversation.id)).length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal((await stored(conversation.id)).length, idleEvents, 'nothing happens after a reject');

    panels(t.api).sendFromWebview(conversation.id, { type: 'continue', id: 3 });
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'finished' || status === 'waiting_for_confirmation',
      20_000,
    );
    assert.equal(header(conversation.id)?.controls.rejected, false);

    // approve: a new request waits, Approve runs it
    panels(t.api).sendFromWebview(conversation.id, {
      type: 'send',
      text: 'Now list the files',
      resume: false,
    });
    await eventually(
      () => header(conversation.id),
      (h) => h?.executionStatus === 'waiting_for_confirmation' && h.controls.pendingActions.length > 0,
      20_000,
    );
    const approvedId = header(conversation.id)?.controls.pendingActions[0]?.id;
    panels(t.api).sendFromWebview(conversation.id, { type: 'approve', id: 4 });
    const approved = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) =>
        snapshot?.rows.some(
          (row) => row.id === approvedId && row.kind === 'action' && row.state === 'done',
        ) ?? false,
      20_000,
    );
    assert.ok(approved);
    assert.deepEqual(await replyTo(conversation.id, 4), { type: 'reply', id: 4, ok: true });
  });

  it('pause between steps, continue, a second continue is a quiet no-op, stop now', async () => {
    const conversation = await resting(2);
    await agentServer.setOptions({ agentStepMs: 1500 });
    await openLive(conversation.id);
    panels(t.api).sendFromWebview(conversation.id, { type: 'send', text: 'Take your time', resume: false });
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'running',
      10_000,
    );
    panels(t.api).sendFromWebview(conversation.id, { type: 'pause', id: 5 });
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'paused',
      10_000,
    );
    assert.ok((await stored(conversation.id)).some((event) => event.kind === 'PauseEvent'));
    panels(t.api).sendFromWebview(conversation.id, { type: 'continue', id: 6 });
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'running',
      10_000,
    );
    assert.deepEqual(await replyTo(conversation.id, 6), { type: 'reply', id: 6, ok: true });
    assert.equal(header(conversation.id)?.controls.busy, null);
    panels(t.api).sendFromWebview(conversation.id, { type: 'continue', id: 7 });
    assert.deepEqual(
      await replyTo(conversation.id, 7),
      { type: 'reply', id: 7, ok: true },
      'Continue while running is no error',
    );
    assert.equal(header(conversation.id)?.controls.busy, null);
    panels(t.api).sendFromWebview(conversation.id, { type: 'stop', id: 8 });
    await eventually(
      () => header(conversation.id)?.executionStatus,
      (status) => status === 'paused',
      10_000,
    );
    assert.deepEqual(await replyTo(conversation.id, 8), { type: 'reply', id: 8, ok: true });
  });

  it('resume and send: a paused sandbox is resumed, its agent server waited for, then the message sent', async () => {
    const conversation = await resting(3);
    assert.equal(
      await vscode.commands.executeCommand('openhands.pauseSandbox', conversation.sandbox_id),
      true,
    );
    await openLive(conversation.id).catch(() => undefined);
    await eventually(
      () => header(conversation.id)?.feed,
      (feed) => feed === 'offline',
    );
    const before = panels(t.api).posted(conversation.id).length;
    panels(t.api).sendFromWebview(conversation.id, { type: 'send', text: 'Back to work', resume: true });
    await eventually(
      () => stored(conversation.id),
      (events) => events.some((event) => textOf(event) === 'Back to work'),
      30_000,
    );
    await eventually(
      () => header(conversation.id),
      (h) => h?.feed === 'live' && h.controls.outbox.length === 0,
      15_000,
    );
    // every step the page was told, in order (a sampler missed the short ones once connections were kept)
    const steps: string[] = [];
    for (const message of panels(t.api).posted(conversation.id).slice(before)) {
      const state = (message as { header?: Header }).header?.controls.outbox[0]?.state;
      if (state && steps.at(-1) !== state) steps.push(state);
    }
    assert.equal(steps[0], 'resuming');
    assert.ok(steps.includes('connecting') || steps.includes('sending'), `steps: ${steps.join(', ')}`);
    assert.equal(t.api.store.findSandbox(conversation.sandbox_id)?.status, 'RUNNING');
  });

  it('a message that cannot be sent comes back with the reason', async () => {
    const conversation = await resting(4);
    assert.equal(
      await vscode.commands.executeCommand('openhands.pauseSandbox', conversation.sandbox_id),
      true,
    );
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    await eventually(
      () => header(conversation.id)?.feed,
      (feed) => feed === 'offline',
    );
    panels(t.api).sendFromWebview(conversation.id, { type: 'send', text: 'Lost?', resume: false });
    const failed = await eventually(
      () => header(conversation.id)?.controls.outbox[0],
      (entry) => entry?.state === 'failed',
    );
    assert.equal(failed?.text, 'Lost?');
    assert.match(failed?.reason ?? '', /paused/i);
  });

  it('Send Message from the palette (by id) and Send Selection with the code after the instruction', async () => {
    const conversation = await resting(5);
    const sent = await vscode.commands.executeCommand('openhands.sendMessage', {
      conversationId: conversation.id,
      message: 'From the palette',
    });
    assert.equal(sent, true);
    await eventually(
      () => stored(conversation.id),
      (events) => events.some((event) => textOf(event) === 'From the palette'),
    );
    assert.equal(t.api.watch.isWatched(conversation.id), true);

    const document = await vscode.workspace.openTextDocument({
      language: 'typescript',
      content: 'const a = 1;\nexport function twice(x: number) {\n  return x * 2;\n}\n',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    await eventually(
      () => stored(conversation.id),
      (events) => statusUpdates(events).at(-1) !== 'running',
      20_000,
    );
    const selectionSent = await vscode.commands.executeCommand('openhands.sendSelectionToConversation', {
      conversationId: conversation.id,
      instruction: 'Add a test for this',
      // the first message may have left actions waiting (the seed sets some conversations to confirm)
      runPending: true,
    });
    assert.equal(selectionSent, true);
    const events = await eventually(
      () => stored(conversation.id),
      (all) => all.some((event) => textOf(event).startsWith('Add a test for this')),
    );
    const message = textOf(
      events.find((event) => textOf(event).startsWith('Add a test for this')) as StoredEvent,
    );
    assert.match(message, /\(lines 2-4\):/);
    assert.match(
      message,
      /```typescript\nexport function twice\(x: number\) \{\n {2}return x \* 2;\n\}\n```/,
    );
  });

  it('a new conversation with confirmation "always" gets the policy before its first message', async () => {
    await setSetting('confirmationPolicy', 'always');
    const sandbox = t.api.store.sandboxes.find((s) => s.status === 'RUNNING');
    assert.ok(sandbox);
    const id = await vscode.commands.executeCommand<string | undefined>('openhands.newConversation', {
      message: 'Remove the temp files',
      repository: null,
      sandboxId: sandbox.id,
    });
    assert.ok(id, 'the conversation started');
    const events = await eventually(
      () => stored(id),
      (all) =>
        all.some((event) => event.kind === 'MessageEvent' && textOf(event) === 'Remove the temp files'),
      20_000,
    );
    const policyAt = events.findIndex(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'confirmation_policy',
    );
    const messageAt = events.findIndex((event) => textOf(event) === 'Remove the temp files');
    assert.ok(policyAt >= 0 && policyAt < messageAt, 'the policy is set before the message is stored');
    assert.deepEqual(events[policyAt]?.['value'], { kind: 'AlwaysConfirm' });
    assert.equal(t.api.watch.isWatched(id), true, 'started here: watched');
  });

  it('notifications off: no notification, and no feed held for watching', async () => {
    await setSetting('notifications', 'off');
    const conversation = await resting(6);
    assert.equal(
      await vscode.commands.executeCommand('openhands.sendMessage', {
        conversationId: conversation.id,
        message: 'Quietly',
      }),
      true,
    );
    await eventually(
      () => stored(conversation.id),
      (events) => ['finished', 'waiting_for_confirmation'].includes(statusUpdates(events).at(-1) ?? ''),
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(shown.length, 0);
    assert.equal(t.api.watch.followingCount, 0);
  });

  it('Approve and Pause in an open panel are one round trip each: straight to the agent server, the app server not asked', async () => {
    const conversation = await resting(1);
    await openLive(conversation.id);
    const id = conversation.id.replace(/-/g, '');
    const roundTrips = async (click: () => Promise<void>) => {
      await server.clearRequests();
      await click();
      const requests = await server.requests();
      const names = (request: RecordedRequest) =>
        JSON.stringify(request.query).replace(/-/g, '').includes(id) || request.path.includes(id);
      return {
        // where is the agent server? (the batch get of this conversation)
        asked: requests.filter((r) => r.path.startsWith('/api/v1/app-conversations') && names(r)).length,
        sent: requests.filter(
          (r) => r.method === 'POST' && r.path.includes('/api/conversations/') && names(r),
        ).length,
      };
    };
    assert.deepEqual(await roundTrips(() => t.api.steering.approve(conversation.id)), { asked: 0, sent: 1 });
    assert.deepEqual(await roundTrips(() => t.api.steering.pause(conversation.id)), { asked: 0, sent: 1 });
  });
});
