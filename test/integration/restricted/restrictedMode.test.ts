// Restricted Mode (issue 23, item 5): `npm run test:vscode` runs this folder in a second VS Code whose
// workspace trust is on and whose folder was never trusted. Everything but writing to the workspace
// works; Apply and Accept This File refuse and say why; the settings a workspace must not choose
// (package.json capabilities.untrustedWorkspaces.restrictedConfigurations) are not read from it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppConversation } from '../../../src/api';
import type { ApplyOutcome } from '../../../src/commands/changes/applyFlow';
import type { OpenHandsExtensionApi } from '../../../src/extension';
import { useFreshExtension } from '../extensionApi';
import { eventually } from '../../shared/eventually';

function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with a folder open');
  return folder;
}

/** Every file under the folder, by relative path (what Apply would have written shows up here). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

function panels(api: OpenHandsExtensionApi) {
  assert.ok(api.conversationPanels, 'the extension exports the panel hooks in test mode');
  return api.conversationPanels;
}

describe('Restricted Mode: an untrusted workspace (issue 23, item 5)', function () {
  this.timeout(60_000);
  const t = useFreshExtension();

  const running = (): AppConversation => {
    const conversation = t.api.store.conversations.find(
      (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running',
    );
    assert.ok(conversation, 'the seed has a conversation in a running sandbox');
    return conversation;
  };

  afterEach(async () => {
    for (const id of t.api.conversationPanels?.openIds() ?? []) t.api.conversationPanels?.close(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the workspace is untrusted and the extension is active in it', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the driver opens the folder in Restricted Mode');
    const extension = vscode.extensions.getExtension('openhands-community.openhands-vscode');
    assert.equal(extension?.isActive, true);
  });

  it('the views list sandboxes and conversations, and a conversation panel opens live', async () => {
    await t.api.store.refresh();
    assert.equal(t.api.store.state, 'ready');
    const sandboxes = (await t.api.sandboxesProvider.getChildren()).filter((n) => n.kind === 'sandbox');
    assert.ok(sandboxes.length > 0, 'the Sandboxes view has rows');
    const conversations = t.api.conversationsProvider.getChildren().filter((n) => n.kind === 'conversation');
    assert.ok(conversations.length > 0, 'the Conversations view has rows');

    const conversation = running();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const snapshot = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (s) => s?.header.feed === 'live' && s.header.eventCount > 0,
      15_000,
    );
    assert.ok((snapshot?.rows.length ?? 0) > 0, 'the transcript has rows');
  });

  it('Apply and Accept This File refuse, saying why, and write nothing', async () => {
    await t.api.store.refresh();
    const conversation = running();
    const folder = workspaceFolder().uri.fsPath;
    const before = filesUnder(folder);
    const outcomes = [
      // the command, as the panel's Apply and the Changes row run it
      await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', conversation.id),
      // with every question answered, as automation would
      await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
        conversationId: conversation.id,
        folder,
        otherRepository: true,
        otherBase: true,
        skipConflicts: true,
        skipRefused: true,
      }),
      await vscode.commands.executeCommand<ApplyOutcome>('openhands.acceptChangeFile', {
        conversationId: conversation.id,
        folder,
        only: ['README.md'],
      }),
    ];
    for (const outcome of outcomes) {
      assert.equal(outcome?.kind, 'refused');
      if (outcome?.kind !== 'refused') continue;
      assert.equal(outcome.reason, 'untrusted');
      assert.match(outcome.message ?? '', /not available in Restricted Mode/);
      assert.match(outcome.message ?? '', /which you have not trusted/);
    }
    assert.deepEqual(filesUnder(folder), before, 'nothing was written to the workspace');
  });

  it("a workspace's settings cannot choose the confirmation policy or the auth header", async () => {
    const folder = workspaceFolder();
    const file = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const settings = {
      'openhands.confirmationPolicy': 'never',
      'openhands.authHeader': 'Authorization',
      'openhands.httpLogLevel': 'bodies',
      'openhands.pageSize': 7,
    };
    fs.writeFileSync(file, JSON.stringify(settings));
    try {
      const config = () => vscode.workspace.getConfiguration('openhands');
      // the file was read: a setting not on the restricted list applies
      await eventually(
        () => config().get('pageSize'),
        (pageSize) => pageSize === 7,
      );
      assert.equal(config().get('confirmationPolicy'), 'server');
      assert.equal(config().get('authHeader'), 'X-Session-API-Key');
      assert.equal(config().get('httpLogLevel'), 'requests');
      await eventually(
        () => t.api.connection.config.pageSize,
        (pageSize) => pageSize === 7,
      );
      assert.equal(t.api.connection.config.confirmationPolicy, 'server');
      assert.equal(t.api.connection.config.authHeader, 'X-Session-API-Key');
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      await eventually(
        () => vscode.workspace.getConfiguration('openhands').get('pageSize'),
        (pageSize) => pageSize !== 7,
      );
    }
  });
});
