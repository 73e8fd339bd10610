// The conversation panel in a real VS Code against the test server's agent-server double: opened
// from a tree row, by id and by link; one feed per conversation, closed with the panel; live events;
// a dropped socket recovered without duplicates; a paused sandbox shown as offline with Resume.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentMessage, userMessage } from '../shared/agentEvents';
import { EXTENSION_ID } from './env';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { closePanels, liveSnapshot, panels, quietConversation } from './conversations';
import { agentServer } from './serverControl';

describe('conversation panel in a real VS Code', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));

  const running = () => quietConversation(t.api);
  const live = (id: string) => liveSnapshot(t.api, id);

  it('a click on a conversation row opens its panel with the transcript, live; once per conversation', async () => {
    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', {
      kind: 'conversation',
      conversation,
    });
    const snapshot = await live(conversation.id);
    const stored = await agentServer.events(conversation.id);
    assert.equal(snapshot?.header.eventCount, stored.length, 'every stored event, once');
    assert.ok((snapshot?.rows.length ?? 0) > 0);
    assert.equal(snapshot?.header.title, conversation.title);
    assert.deepEqual(panels(t.api).openIds(), [conversation.id]);
    // again, by id: the same panel, the same feed
    assert.equal(await vscode.commands.executeCommand('openhands.openConversation', conversation.id), true);
    assert.deepEqual(panels(t.api).openIds(), [conversation.id]);
    assert.equal(panels(t.api).feedCount(), 1);
    assert.equal(await agentServer.sockets(conversation.id), 1, 'one socket for the conversation');
  });

  it('closing the panel closes its feed and socket', async () => {
    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    await live(conversation.id);
    panels(t.api).close(conversation.id);
    assert.equal(panels(t.api).feedCount(), 0);
    await eventually(
      () => agentServer.sockets(conversation.id),
      (count) => count === 0,
    );
  });

  it('events the agent stores arrive live, each once, in order', async () => {
    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const before = await live(conversation.id);
    await agentServer.append(conversation.id, [agentMessage('A live **reply**.')]);
    const after = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) => (snapshot?.rows.length ?? 0) > (before?.rows.length ?? 0),
    );
    const last = after?.rows.at(-1);
    assert.ok(last?.kind === 'message' && last.markdown === 'A live **reply**.');
  });

  it('a dropped socket: the header says reconnecting, then it recovers what it missed without duplicates', async () => {
    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    await live(conversation.id);
    await agentServer.drop(conversation.id, 800);
    await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) => snapshot?.header.feed === 'reconnecting',
    );
    await agentServer.append(conversation.id, [userMessage('sent while the panel was away')]);
    const stored = await agentServer.events(conversation.id);
    const back = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) => snapshot?.header.feed === 'live' && snapshot.header.eventCount === stored.length,
      15_000,
    );
    const ids = back?.rows.map((row) => row.id) ?? [];
    assert.equal(new Set(ids).size, ids.length, 'no row twice');
    const last = back?.rows.at(-1);
    assert.ok(last?.kind === 'message' && last.markdown === 'sent while the panel was away');
  });

  it('a paused sandbox: offline with the reason and Resume; the last transcript stays; resuming brings it live', async () => {
    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const first = await live(conversation.id);
    panels(t.api).close(conversation.id);
    assert.equal(
      await vscode.commands.executeCommand('openhands.pauseSandbox', conversation.sandbox_id),
      true,
    );
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const offline = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) => snapshot?.header.feed === 'offline',
    );
    assert.equal(offline?.header.canResume, true);
    assert.match(offline?.header.feedDetail ?? '', /paused/i);
    assert.equal(offline?.rows.length, first?.rows.length, 'what it last had, not an empty page');
    panels(t.api).sendFromWebview(conversation.id, { type: 'resumeSandbox' });
    await live(conversation.id);
  });

  it('Open in Browser is its own command; a vscode:// link opens the panel', async () => {
    const conversation = running();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('openhands.openConversationInBrowser'));
    await vscode.commands.executeCommand(
      'vscode.open',
      vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/conversation?id=${conversation.id}`),
    );
    await eventually(
      () => panels(t.api).openIds(),
      (ids) => ids.includes(conversation.id),
      10_000,
    );
  });
});
