// Rename, Delete and Download Conversation in a real VS Code against the test server: the row's label,
// an open panel's header and tab follow a rename at once; a delete takes the row and closes the panel;
// a download saves exactly the server's zip.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { OpenHandsNode } from '../../src/views/nodes';
import { closePanels, openLive, panels, quietConversation } from './conversations';
import { testServerUrl } from './env';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

describe('keep or close a conversation in a real VS Code', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));

  const rowLabel = (id: string): string | undefined => {
    const conversation = t.api.store.findConversation(id);
    if (!conversation) return undefined;
    const row: OpenHandsNode = { kind: 'conversation', conversation };
    const label = t.api.conversationsProvider.getTreeItem(row).label;
    return typeof label === 'string' ? label : label?.label;
  };

  it('rename: the row, the sandbox row and the open panel say the new title at once', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    await server.clearRequests();
    const renamed = await vscode.commands.executeCommand(
      'openhands.renameConversation',
      conversation.id,
      'Renamed in VS Code',
    );
    assert.equal(renamed, true);
    assert.equal(rowLabel(conversation.id), 'Renamed in VS Code');
    assert.equal(t.api.store.sandboxName(conversation.sandbox_id), 'Renamed in VS Code');
    assert.equal(panels(t.api).snapshot(conversation.id)?.header.title, 'Renamed in VS Code');
    // the tab's label comes back from the workbench a round trip later
    await eventually(
      () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).map((tab) => tab.label),
      (labels) => labels.includes('Renamed in VS Code'),
      { description: 'the panel’s tab to be renamed' },
    );
    // at once: no list was read again to learn it
    const requests = await server.requests();
    assert.deepEqual(
      requests.filter((r) => r.path.startsWith('/api/v1/app-conversations')).map((r) => r.method),
      ['PATCH'],
    );
  });

  it('delete: the row leaves, the open panel closes, the server has it no more', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    assert.equal(await vscode.commands.executeCommand('openhands.deleteConversation', conversation.id), true);
    assert.equal(t.api.store.findConversation(conversation.id), undefined);
    assert.equal(panels(t.api).openIds().includes(conversation.id), false);
    const [gone] = (await t.api.connection.client?.getConversations([conversation.id])) ?? [];
    assert.equal(gone, null);
  });

  it("download: the file saved is the server's zip, byte for byte, and nothing else is left", async () => {
    const conversation = quietConversation(t.api);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'openhands-download-'));
    try {
      const target = path.join(folder, 'conversation.zip');
      const saved = await vscode.commands.executeCommand(
        'openhands.downloadConversation',
        conversation.id,
        target,
      );
      assert.equal(saved, target);
      const response = await fetch(`${testServerUrl()}/api/v1/app-conversations/${conversation.id}/download`);
      assert.equal(response.headers.get('content-type'), 'application/zip');
      const expected = Buffer.from(await response.arrayBuffer());
      assert.deepEqual(readFileSync(target), expected);
      assert.deepEqual(readdirSync(folder), ['conversation.zip']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('export: the transcript as Markdown, read from the agent server as the panel reads it', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'openhands-export-'));
    try {
      const target = path.join(folder, 'transcript.md');
      const written = await vscode.commands.executeCommand(
        'openhands.exportConversationMarkdown',
        conversation.id,
        target,
      );
      assert.equal(written, target);
      const markdown = readFileSync(target, 'utf8');
      assert.ok(markdown.startsWith('# '), 'a title first');
      // every message row the panel shows is in the file, in the same order
      const rows = panels(t.api).snapshot(conversation.id)?.rows ?? [];
      const headings = rows.flatMap((row) =>
        row.kind === 'message'
          ? [row.role === 'user' ? '## User' : row.role === 'agent' ? '## Agent' : '## Environment']
          : [],
      );
      assert.ok(headings.length > 0, 'the panel shows messages');
      assert.deepEqual(markdown.match(/^## (User|Agent|Environment)$/gm), headings);
      assert.equal(
        markdown.includes(conversation.session_api_key ?? '\u0000'),
        false,
        'the sandbox key is masked',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
