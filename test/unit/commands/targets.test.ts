// What a command acts on: a row, an id (keybindings, links, other extensions: looked up, then asked of
// the server, never prompted), or what the user picks from the eligible ones.
import assert from 'node:assert/strict';
import { describeConversations, resolveConversation, resolveSandbox } from '../../../src/commands/targets';
import { conversationTitle } from '../../../src/state/names';
import { prompts } from '../../shared/vscodeStandIn/standIn';
import { conversation } from '../state/appRecords';
import { useExtensionState } from '../state/extensionState';

describe('command targets', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 4, conversations: 8, seed: 5 } });
  const running = {
    title: 'Pause Sandbox',
    eligible: (s: { status: string }) => s.status === 'RUNNING',
    none: 'No running sandbox to pause.',
  };
  const batchGets = () =>
    t.server.requests.filter(
      (r) => r.method === 'GET' && /^\/api\/v1\/(sandboxes|app-conversations)$/.test(r.path),
    ).length;

  it('takes a row’s sandbox as it is, and a conversation row’s sandbox by its id', async () => {
    await t.store.refresh();
    const [first] = t.store.sandboxes;
    assert.ok(first);
    assert.equal(
      await resolveSandbox({ kind: 'sandbox', sandbox: first }, t.store, t.connection, running),
      first,
    );
    const hosted = t.store.conversations.find((c) => t.store.findSandbox(c.sandbox_id));
    assert.ok(hosted);
    const found = await resolveSandbox(
      { kind: 'conversation', conversation: hosted },
      t.store,
      t.connection,
      running,
    );
    assert.equal(found?.id, hosted.sandbox_id);
    assert.deepEqual(prompts.asked, []);
  });

  it('looks an id up in the views’ data, then on the server, and says which server has no such sandbox', async () => {
    const id = t.server.state.sandboxes[0]?.id ?? '';
    const fetched = await resolveSandbox(id, t.store, t.connection, running);
    assert.equal(fetched?.id, id);
    assert.equal(batchGets(), 1);
    await t.store.refresh();
    const before = batchGets();
    assert.equal((await resolveSandbox(id, t.store, t.connection, running))?.id, id);
    assert.equal(batchGets(), before);
    await assert.rejects(resolveSandbox('oh-agent-server-nope', t.store, t.connection, running), {
      message: `No sandbox with id oh-agent-server-nope on ${t.server.url}.`,
    });
    assert.deepEqual(prompts.asked, []);
  });

  it('offers only the eligible sandboxes, by name, status and image, and hands back the one picked', async () => {
    await t.store.refresh();
    const eligible = t.store.sandboxes.filter((s) => s.status === 'RUNNING');
    const wanted = eligible[0];
    assert.ok(wanted);
    prompts.answer('quickPick', t.store.sandboxName(wanted.id));
    assert.equal(await resolveSandbox(undefined, t.store, t.connection, running), wanted);
    const [asked] = prompts.of('quickPick');
    assert.equal(asked?.message, 'Pause Sandbox');
    assert.deepEqual(
      asked?.choices,
      eligible.map((s) => t.store.sandboxName(s.id)),
    );
  });

  it('loads the sandboxes first when none are, and says so when none is eligible', async () => {
    const none = await resolveSandbox(undefined, t.store, t.connection, {
      ...running,
      eligible: () => false,
    });
    assert.equal(none, undefined);
    assert.ok(t.store.sandboxes.length > 0, 'the list was loaded to look');
    assert.deepEqual(
      prompts.asked.map((asked) => [asked.kind, asked.message]),
      [['information', 'No running sandbox to pause.']],
    );
  });

  it('offers the conversations most recently active first, and fetches an id it has not loaded', async () => {
    prompts.answer('quickPick', undefined);
    assert.equal(await resolveConversation(undefined, t.store, t.connection), undefined);
    const byRecency = [...t.store.conversations].sort((a, b) =>
      (b.updated_at ?? '').localeCompare(a.updated_at ?? ''),
    );
    assert.ok(byRecency.length > 1);
    const [asked] = prompts.of('quickPick');
    assert.equal(asked?.message, 'Open Conversation');
    assert.deepEqual(asked?.choices, byRecency.map(conversationTitle));

    const other = t.server.state.conversations.find((c) => !c.parent_conversation_id);
    assert.ok(other);
    await t.store.setTitleFilter('matches nothing at all');
    const fetched = await resolveConversation(other.id, t.store, t.connection);
    assert.equal(fetched?.id.replace(/-/g, ''), other.id.replace(/-/g, ''));
    await assert.rejects(
      resolveConversation('f'.repeat(32), t.store, t.connection),
      /^Error: No conversation with id f+ on /,
    );
  });

  it('names at most three conversations, then how many more', () => {
    const four = [1, 2, 3, 4].map((id) => conversation(id, { title: `T${id}` }));
    assert.equal(describeConversations(four), '“T1”, “T2”, “T3” and 1 more');
    assert.equal(describeConversations(four.slice(0, 1)), '“T1”');
    assert.equal(describeConversations([]), undefined);
  });
});
