// A changed picture in a real VS Code against the agent-server double's real git: the agent's PNG
// opens in the diff editor with VS Code's image preview on both sides, served as bytes (read back
// through the file system API and compared with the fixtures); an added WebP and a deleted JPEG open
// alone, as Source Control opens them; a `.png` whose bytes are an SVG with a script stays text and
// says why; writes are refused; Open All Changes points to the picture alone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppConversation } from '../../src/api';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { firstRunningConversation } from './conversations';
import { agentServer } from './serverControl';

// compiled to out/test/integration: the fixtures stay in the repository's test folder
const IMAGES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'images');
const fixture = (name: string) => fs.readFileSync(path.join(IMAGES, name));

async function openChange(conversationId: string, file: string): Promise<boolean> {
  return vscode.commands.executeCommand<boolean>('openhands.openChange', { conversationId, path: file });
}

/** The URI the command gives a side of a changed picture (as `changeUri` writes it). */
function pictureUri(
  conversationId: string,
  file: string,
  side: string,
  version: number,
  status = 'UPDATED',
): vscode.Uri {
  const query = new URLSearchParams({
    conversation: conversationId,
    side,
    status,
    v: String(version),
  });
  return vscode.Uri.from({ scheme: 'openhands-change-image', path: `/${file}`, query: query.toString() });
}

function activeInput(): unknown {
  return vscode.window.tabGroups.activeTabGroup.activeTab?.input;
}

describe('changed pictures in a real VS Code', function () {
  this.timeout(90_000);
  const t = useFreshExtension();
  let conversation: AppConversation;

  beforeEach(async () => {
    conversation = await firstRunningConversation(t.api);
    await agentServer.imageWorkspace(conversation.id);
    await t.api.changes.refresh(conversation.id);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // the next file's tests read their own workspace's list
    t.api.changes.clear();
  });

  it('an updated PNG opens side by side in the image preview, both sides the picture’s bytes', async () => {
    assert.equal(await openChange(conversation.id, 'art/page.png'), true);
    const tab = await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab,
      (active) => active?.label === 'page.png (agent’s change)',
    );
    // VS Code 1.100 names no input for a diff of two custom editors (the image preview on each side)
    assert.equal(tab?.input, undefined);
    assert.equal(vscode.window.activeTextEditor, undefined, 'no text editor: the pictures are shown');
    const set = t.api.changes.latest(conversation.id);
    assert.ok(set);
    const input = {
      original: pictureUri(conversation.id, 'art/page.png', 'original', set.version),
      modified: pictureUri(conversation.id, 'art/page.png', 'modified', set.version),
    };
    assert.equal(input.original.scheme, 'openhands-change-image');
    assert.equal(input.modified.scheme, 'openhands-change-image');
    assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(input.original)), fixture('page.png'));
    assert.deepEqual(
      Buffer.from(await vscode.workspace.fs.readFile(input.modified)),
      fixture('page-changed.png'),
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(input.modified, Buffer.from('x'))),
      (error: unknown) => error instanceof vscode.FileSystemError && error.code === 'NoPermissions',
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.delete(input.original)),
      (error: unknown) => error instanceof vscode.FileSystemError && error.code === 'NoPermissions',
    );
  });

  it('an added WebP and a deleted JPEG open alone in the image preview', async () => {
    assert.equal(await openChange(conversation.id, 'art/small.webp'), true);
    const added = await eventually(activeInput, (active) => active instanceof vscode.TabInputCustom);
    assert.ok(added instanceof vscode.TabInputCustom);
    assert.equal(added.viewType, 'imagePreview.previewEditor');
    assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(added.uri)), fixture('small.webp'));
    // the image preview names its tab by the file, whatever label it is opened with
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'small.webp');

    assert.equal(await openChange(conversation.id, 'art/photo.jpg'), true);
    const deleted = await eventually(
      activeInput,
      (active) => active instanceof vscode.TabInputCustom && active.uri.path.endsWith('photo.jpg'),
    );
    assert.ok(deleted instanceof vscode.TabInputCustom);
    assert.equal(deleted.viewType, 'imagePreview.previewEditor');
    assert.match(deleted.uri.query, /side=original/);
    assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(deleted.uri)), fixture('page.jpg'));
  });

  it('a .png whose bytes are an SVG with a script stays text and says why', async () => {
    const sides = await t.api.changes.sides(conversation.id, { path: 'art/evil.png', status: 'ADDED' });
    assert.equal(sides.kind, 'text');
    assert.equal(sides.kind === 'text' && sides.notImage, 'an SVG image (shown as text, never as a picture)');
    assert.equal(await openChange(conversation.id, 'art/evil.png'), true);
    const input = await eventually(activeInput, (active) => active instanceof vscode.TabInputTextDiff);
    assert.ok(input instanceof vscode.TabInputTextDiff);
    assert.equal(input.modified.scheme, 'openhands-change', 'a text document, not the picture scheme');
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /<script>/);
    assert.equal(
      vscode.window.tabGroups.activeTabGroup.activeTab?.label,
      'evil.png (agent’s change; not shown as a picture: an SVG image (shown as text, never as a picture))',
    );
    assert.ok(input.modified.path.endsWith('/art/evil.png.txt'), 'named as text, so no image preview');
    const asPicture = pictureUri(
      conversation.id,
      'art/evil.png',
      'modified',
      t.api.changes.latest(conversation.id)?.version ?? 0,
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.readFile(asPicture)),
      (error: unknown) => error instanceof vscode.FileSystemError && error.code === 'FileNotFound',
    );
  });

  it('Open All Changes says to open a picture alone', async () => {
    const count = await vscode.commands.executeCommand<number>('openhands.openAllChanges', conversation.id);
    assert.ok(count >= 4);
    const set = t.api.changes.latest(conversation.id);
    const change = set?.files.find((file) => file.path === 'art/page.png');
    assert.ok(set && change);
    const right = vscode.Uri.from({
      scheme: 'openhands-change',
      path: '/art/page.png',
      query: new URLSearchParams({
        conversation: conversation.id,
        side: 'modified',
        status: change.status,
        v: String(set.version),
      }).toString(),
    });
    const document = await vscode.workspace.openTextDocument(right);
    assert.equal(document.getText(), 'art/page.png is a picture: open it alone to see it side by side.\n');
  });
});
