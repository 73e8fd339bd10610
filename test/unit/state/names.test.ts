// What sandboxes, specs and conversations are called wherever they are shown.
import assert from 'node:assert/strict';
import {
  conversationTitle,
  isPlaceholderTitle,
  newestConversation,
  readableSandboxName,
  sandboxName,
  shortSandboxId,
  shortSpec,
  vscodeUrl,
} from '../../../src/state/names';
import { forgetAskedWords, rememberAsked } from '../../../src/state/askedWords';
import { conversation, minutesAgo, sandbox } from './appRecords';

describe('names', () => {
  it('shortens a spec to its image’s last part and tag, a digest to 12 hex digits', () => {
    assert.equal(shortSpec('ghcr.io/openhands/agent-server:4e2ecd8-python'), 'agent-server:4e2ecd8-python');
    assert.equal(
      shortSpec(`ghcr.io/openhands/agent-server@sha256:${'4e2ecd8f0a1b'}${'c'.repeat(52)}`),
      'agent-server@sha256:4e2ecd8f0a1b',
    );
    assert.equal(shortSpec('plain'), 'plain');
    assert.equal(shortSpec('trailing/'), 'trailing/');
  });

  it('cuts the long Docker prefix off a sandbox id, and only that', () => {
    assert.equal(shortSandboxId('oh-agent-server-4x7kq'), '4x7kq');
    assert.equal(shortSandboxId('sandbox-4x7kq'), 'sandbox-4x7kq');
  });

  it('gives a sandbox the same two-word name every time, and different sandboxes mostly different ones', () => {
    const name = readableSandboxName('oh-agent-server-4x7kq');
    assert.match(name, /^[a-z]+-[a-z]+$/);
    assert.equal(readableSandboxName('oh-agent-server-4x7kq'), name);
    const names = new Set(Array.from({ length: 200 }, (_, i) => readableSandboxName(`oh-agent-server-${i}`)));
    assert.ok(names.size > 150, `${names.size} names for 200 sandboxes`);
  });

  it('names a sandbox after its newest conversation, else by its readable name', () => {
    const older = conversation(1, { title: 'Older', created_at: minutesAgo(60) });
    const newer = conversation(2, { title: 'Newer', created_at: minutesAgo(5) });
    const undated = conversation(3, { title: 'Undated', created_at: null });
    assert.equal(newestConversation([older, undated, newer]), newer);
    assert.equal(newestConversation([]), undefined);
    assert.equal(sandboxName('oh-agent-server-x', newer), 'Newer');
    assert.equal(sandboxName('oh-agent-server-x', undefined), readableSandboxName('oh-agent-server-x'));
  });

  it('titles a conversation without one by its id’s first eight digits', () => {
    assert.equal(conversationTitle(conversation(1, { title: '  Fix it  ' })), 'Fix it');
    assert.equal(conversationTitle(conversation(0xabc, { title: '   ' })), 'Conversation 00000000');
    assert.equal(
      conversationTitle(conversation(1, { id: 'deadbeef0000', title: null })),
      'Conversation deadbeef',
    );
  });

  it('reads an untitled conversation (no title, or the server’s placeholder) as what the user asked', () => {
    const id = 'b2dd7e1f000040008000000000000001';
    const placeholder = conversation(1, { id, title: 'Conversation b2dd7' });
    assert.ok(isPlaceholderTitle('Conversation b2dd7', 'B2DD7E1F-0000-4000-8000-000000000001'));
    assert.ok(!isPlaceholderTitle('Conversation b2dd8', id));
    assert.equal(
      conversationTitle(placeholder),
      'Conversation b2dd7',
      'nothing asked is known: the server’s',
    );
    try {
      rememberAsked(id, 'Add a dark mode toggle to the settings page\nand test it');
      assert.equal(conversationTitle(placeholder), 'Add a dark mode toggle to the settings page');
      assert.equal(
        conversationTitle({ ...placeholder, title: null }),
        'Add a dark mode toggle to the settings page',
      );
      // the server's own title, once it has one, wins
      assert.equal(conversationTitle({ ...placeholder, title: 'Dark mode toggle' }), 'Dark mode toggle');
      // a title that only looks like a placeholder (another id's digits) is a title
      assert.equal(conversationTitle({ ...placeholder, title: 'Conversation 12345' }), 'Conversation 12345');
    } finally {
      forgetAskedWords();
    }
  });

  it('finds the sandbox’s own VS Code among its exposed URLs', () => {
    const url = 'http://127.0.0.1:8001/?tkn=secret&folder=/workspace';
    assert.equal(
      vscodeUrl(
        sandbox('s', {
          exposed_urls: [
            { name: 'AGENT_SERVER', url: 'http://a', port: 1 },
            { name: 'VSCODE', url, port: 2 },
          ],
        }),
      ),
      url,
    );
    assert.equal(vscodeUrl(sandbox('s', { exposed_urls: null })), undefined);
  });
});
