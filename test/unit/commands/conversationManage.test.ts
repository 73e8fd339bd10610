// Rename, Delete and Download through the scripted user and against the test server: the store
// changes at once (no poll), the delete question says whether the sandbox goes, a download writes the
// server's zip whole or nothing at all, and a server without the routes is told in words.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { AgentServerClient } from '../../../src/api';
import type { StoreChange } from '../../../src/state/store';
import { registerManageCommands } from '../../../src/commands/conversationManage';
import { eventually } from '../../shared/eventually';
import { fixtureImage } from '../../shared/images';
import { commands, prompts, windowRecord } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState, type ExtensionState } from '../state/extensionState';

const SEED = { sandboxes: 4, conversations: 10, seed: 5 };

function useManageCommands(t: ExtensionState, closed: string[]) {
  let registered: vscode.Disposable[] = [];
  beforeEach(async () => {
    closed.length = 0;
    registered = registerManageCommands({
      store: t.store,
      connection: t.connection,
      log: t.log,
      closePanel: (id) => {
        closed.push(id);
        return true;
      },
      agentClient: (endpoint) => new AgentServerClient({ endpoint, timeoutMs: 5000 }),
    });
    await t.store.refresh();
  });
  afterEach(() => registered.forEach((disposable) => disposable.dispose()));
}

/** A loaded top-level conversation whose sandbox holds `others` other conversations. */
function withOthers(t: ExtensionState, matches: (others: number) => boolean) {
  const found = t.store.conversations.find((c) => {
    const others = t.server.state.conversations.filter((o) => o.sandbox_id === c.sandbox_id && o.id !== c.id);
    return (
      !c.parent_conversation_id &&
      matches(others.length) &&
      others.every((o) => o.parent_conversation_id !== c.id)
    );
  });
  assert.ok(found, 'the seed has such a conversation');
  return found;
}

describe('conversation manage commands', function () {
  this.timeout(20_000);
  const closed: string[] = [];

  describe('OpenHands 1.11', () => {
    const t = useExtensionState({ seed: SEED });
    useManageCommands(t, closed);
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(path.join(os.tmpdir(), 'openhands-download-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it('renames a row: the store holds the new title at once, its row and sandbox row redrawn, no poll', async () => {
      const conversation = withOthers(t, (others) => others === 0);
      const changes: StoreChange[] = [];
      const listening = t.store.onDidChange((change) => changes.push(change));
      const before = t.server.requests.length;
      prompts.answer('inputBox', 'Fix the login bug');
      const node = { kind: 'conversation' as const, conversation };
      assert.equal(await commands.executeCommand('openhands.renameConversation', node), true);
      listening.dispose();
      assert.deepEqual(prompts.of('inputBox')[0]?.choices, [conversation.title ?? '']);
      assert.equal(t.store.findConversation(conversation.id)?.title, 'Fix the login bug');
      assert.equal(t.store.sandboxName(conversation.sandbox_id), 'Fix the login bug');
      assert.deepEqual(
        changes.map((change) => change.rows?.conversations.map((c) => c.title)),
        [['Fix the login bug']],
      );
      assert.deepEqual(
        t.server.requests.slice(before).map((r) => `${r.method} ${r.path}`),
        [`PATCH /api/v1/app-conversations/${conversation.id}`],
      );
    });

    it('asks before deleting and says the sandbox goes when no other conversation uses it', async () => {
      const conversation = withOthers(t, (others) => others === 0);
      const node = { kind: 'conversation' as const, conversation };
      assert.equal(await commands.executeCommand('openhands.deleteConversation', node), false);
      const [asked] = prompts.of('warning');
      assert.equal(asked?.modal, true);
      assert.match(asked?.message ?? '', /^Delete conversation “.+”\?$/);
      assert.match(
        asked?.detail ?? '',
        /^No other conversation uses its sandbox “.+”, so the sandbox and its workspace are deleted too\./,
      );
      assert.ok(
        t.server.state.conversations.some((c) => c.id === conversation.id),
        'a dismissal deletes nothing',
      );

      prompts.answer('warning', 'Delete');
      let redrawn = 0;
      const listening = t.store.onDidChange(() => redrawn++);
      assert.equal(await commands.executeCommand('openhands.deleteConversation', node), true);
      listening.dispose();
      // the row left before any poll (the views were told); the panel was closed and the user told why
      assert.equal(t.store.findConversation(conversation.id), undefined);
      assert.ok(redrawn > 0, 'the views were told');
      assert.deepEqual(closed, [conversation.id]);
      assert.match(prompts.of('information')[0]?.message ?? '', /was deleted, so its panel was closed\.$/);
      assert.equal(
        t.server.state.conversations.some((c) => c.id === conversation.id),
        false,
      );
      await eventually(
        () => t.server.state.sandboxes.some((s) => s.id === conversation.sandbox_id),
        (present) => !present,
        { description: 'the unshared sandbox to go' },
      );
    });

    it('says the sandbox stays when another conversation uses it', async () => {
      const conversation = withOthers(t, (others) => others > 0);
      // as the list shows them: sub-conversations are not rows
      const others = t.store.conversationsIn(conversation.sandbox_id).length - 1;
      const sandbox = t.store.sandboxName(conversation.sandbox_id);
      prompts.answer('warning', 'Delete');
      const node = { kind: 'conversation' as const, conversation };
      assert.equal(await commands.executeCommand('openhands.deleteConversation', node), true);
      assert.equal(
        prompts.of('warning')[0]?.detail,
        `Its sandbox “${sandbox}” stays: ${others} other conversation(s) use it. This cannot be undone.`,
      );
      assert.ok(
        t.server.state.sandboxes.some((s) => s.id === conversation.sandbox_id),
        'the sandbox stays',
      );
    });

    it("downloads the server's zip to where the user said, under a name made safe from the title", async () => {
      const conversation = withOthers(t, () => true);
      t.server.state.conversations.find((c) => c.id === conversation.id)!.title = '../../etc/pass:wd <CON>';
      await t.store.refresh({ full: true });
      const target = path.join(folder, 'saved.zip');
      prompts.answer('saveDialog', target);
      const node = {
        kind: 'conversation' as const,
        conversation: t.store.findConversation(conversation.id)!,
      };
      assert.equal(await commands.executeCommand('openhands.downloadConversation', node), target);
      assert.equal(path.basename(prompts.of('saveDialog')[0]?.choices[0] ?? ''), 'etc pass wd CON.zip');
      const expected = await t.connection.requireClient().manage.download(conversation.id);
      assert.ok(expected.offered);
      assert.deepEqual(readFileSync(target), expected.value);
      assert.deepEqual(readdirSync(folder), ['saved.zip']);
      assert.equal(windowRecord.progress[0]?.cancellable, true);
    });

    it('exports the transcript as Markdown beside its pictures, the session key masked, a hostile title kept in its folder', async () => {
      const conversation = t.store.conversations.find((c) => c.session_api_key);
      assert.ok(conversation?.session_api_key, 'a running conversation');
      const key = conversation.session_api_key;
      const png = fixtureImage('page.png');
      t.server.agent.append(conversation.id, [
        {
          kind: 'MessageEvent',
          source: 'agent',
          llm_message: {
            role: 'assistant',
            content: [
              { type: 'text', text: `The sandbox key is ${key}` },
              { type: 'image', image_urls: [`data:image/png;base64,${png.toString('base64')}`] },
            ],
          },
        },
      ]);
      t.server.state.conversations.find((c) => c.id === conversation.id)!.title = '../../../escape';
      await t.store.refresh({ full: true });
      const target = path.join(folder, 'notes.md');
      prompts.answer('saveDialog', target);
      const node = {
        kind: 'conversation' as const,
        conversation: t.store.findConversation(conversation.id)!,
      };
      assert.equal(await commands.executeCommand('openhands.exportConversationMarkdown', node), target);
      assert.equal(path.basename(prompts.of('saveDialog')[0]?.choices[0] ?? ''), 'escape.md');
      const markdown = readFileSync(target, 'utf8');
      assert.ok(markdown.startsWith('# ../../../escape\n'), markdown.slice(0, 80));
      assert.equal(markdown.includes(key), false, 'the session key is masked');
      assert.match(markdown, /The sandbox key is \[redacted\]/);
      const link = /!\[[^\]]*\]\((notes_files\/picture-\d{3}\.png)\)/.exec(markdown);
      assert.ok(link, 'a relative link to the picture');
      assert.deepEqual(readFileSync(path.join(folder, link[1]!)).subarray(0, png.length), png);
      assert.deepEqual(readdirSync(folder).sort(), ['notes.md', 'notes_files']);
      // read as the panel reads it: the agent server's history, not the app server's zip
      const paths = t.server.requests.map((r) => r.path);
      assert.ok(paths.some((p) => p.endsWith('/events/search')));
      assert.equal(
        paths.some((p) => p.endsWith('/download')),
        false,
      );
    });

    it("exports a conversation whose sandbox is paused from the server's zip of its events", async () => {
      const conversation = t.store.conversations.find((c) => c.sandbox_status === 'PAUSED');
      assert.ok(conversation, 'a conversation in a paused sandbox');
      t.server.agent.append(conversation.id, [
        {
          kind: 'MessageEvent',
          source: 'user',
          llm_message: { role: 'user', content: [{ type: 'text', text: 'Written while it ran' }] },
        },
      ]);
      const target = path.join(folder, 'paused.md');
      prompts.answer('saveDialog', target);
      const node = { kind: 'conversation' as const, conversation };
      assert.equal(await commands.executeCommand('openhands.exportConversationMarkdown', node), target);
      assert.match(readFileSync(target, 'utf8'), /## User[\s\S]*Written while it ran/);
      assert.ok(t.server.requests.some((r) => r.path.endsWith('/download')));
    });

    it('writes nothing when the download fails, and says why', async () => {
      const conversation = withOthers(t, () => true);
      t.server.faults.add({ kind: 'cut', afterBytes: 40, match: { path: /\/download$/ } });
      prompts.answer('saveDialog', path.join(folder, 'cut.zip'));
      const node = { kind: 'conversation' as const, conversation };
      assert.equal(await commands.executeCommand('openhands.downloadConversation', node), undefined);
      assert.deepEqual(readdirSync(folder), []);
      assert.match(prompts.of('error')[0]?.message ?? '', /^Could not download “.+”: /);
    });

    it('writes nothing when the user cancels the download', async () => {
      const conversation = withOthers(t, () => true);
      t.server.faults.add({ kind: 'hang', match: { path: /\/download$/ } });
      prompts.answer('saveDialog', path.join(folder, 'cancelled.zip'));
      const node = { kind: 'conversation' as const, conversation };
      const running = commands.executeCommand('openhands.downloadConversation', node);
      const progress = await eventually(
        () => windowRecord.progress[0],
        (run) => run !== undefined,
        { description: 'the progress notification' },
      );
      progress!.cancellation.cancel();
      assert.equal(await running, undefined);
      assert.deepEqual(readdirSync(folder), []);
      assert.deepEqual(prompts.of('error'), [], 'a cancel is no error');
    });
  });

  describe('a server before 1.11', () => {
    const t = useExtensionState({ seed: SEED, routesSince1_11: false });
    useManageCommands(t, closed);

    it('says in words that it cannot rename or delete, changes nothing, shows no error', async () => {
      const conversation = t.store.conversations[0]!;
      const node = { kind: 'conversation' as const, conversation };
      prompts.answer('inputBox', 'New title');
      assert.equal(await commands.executeCommand('openhands.renameConversation', node), false);
      assert.equal(await commands.executeCommand('openhands.deleteConversation', conversation.id), false);
      assert.deepEqual(
        prompts.of('information').map((asked) => asked.message),
        [
          'This OpenHands server cannot rename conversations: OpenHands 1.11 and later can.',
          'This OpenHands server cannot delete conversations: OpenHands 1.11 and later can.',
        ],
      );
      assert.deepEqual(prompts.of('error'), []);
      assert.ok(t.store.findConversation(conversation.id), 'the row stays');
    });
  });
});
