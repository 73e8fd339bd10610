import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SandboxInfo } from '../../src/api';
import type { OpenHandsExtensionApi } from '../../src/extension';
import { expectNoConversationStarted, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

function itemOf(api: OpenHandsExtensionApi, sandbox: SandboxInfo): vscode.TreeItem {
  const current = api.store.findSandbox(sandbox.id) ?? sandbox;
  return api.sandboxesProvider.getTreeItem({ kind: 'sandbox', sandbox: current });
}

async function serverStatus(api: OpenHandsExtensionApi, id: string): Promise<string | undefined> {
  const [sandbox] = (await api.connection.client?.getSandboxes([id])) ?? [];
  return sandbox?.status;
}

describe('sidebar: lifecycle commands in a real VS Code', () => {
  const t = useFreshExtension();

  const withStatus = (status: string) => {
    const sandbox = t.api.store.sandboxes.find((s) => s.status === status);
    assert.ok(sandbox, `the seed has a ${status} sandbox`);
    return sandbox;
  };

  it('pause by id shows "Pausing…" with a spinner at once, then PAUSED', async () => {
    const sandbox = withStatus('RUNNING');
    await server.addFault({ kind: 'latency', ms: 400, match: { method: 'POST', pathRegex: '/pause$' } });
    const pausing = vscode.commands.executeCommand<boolean>('openhands.pauseSandbox', sandbox.id);
    const busy = await eventually(
      () => itemOf(t.api, sandbox),
      (item) => item.contextValue === 'sandbox.busy',
    );
    assert.match(String(busy.description), /^Pausing…/);
    assert.equal((busy.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    assert.equal(await pausing, true);
    assert.equal(t.api.store.findSandbox(sandbox.id)?.status, 'PAUSED');
    assert.equal(t.api.store.transitions.has(sandbox.id), false);
    assert.equal(itemOf(t.api, sandbox).contextValue?.startsWith('sandbox.paused'), true);
    assert.equal(await serverStatus(t.api, sandbox.id), 'PAUSED');
  });

  it('resume by id shows "Resuming…" then RUNNING', async () => {
    const sandbox = withStatus('PAUSED');
    const resuming = vscode.commands.executeCommand<boolean>('openhands.resumeSandbox', sandbox.id);
    const busy = await eventually(
      () => itemOf(t.api, sandbox),
      (item) => item.contextValue === 'sandbox.busy',
    );
    assert.match(String(busy.description), /^Resuming…/);
    assert.equal(await resuming, true);
    assert.equal(t.api.store.findSandbox(sandbox.id)?.status, 'RUNNING');
    assert.equal(await serverStatus(t.api, sandbox.id), 'RUNNING');
  });

  it('resuming a running sandbox (or pausing a paused one) is fine', async () => {
    assert.equal(
      await vscode.commands.executeCommand('openhands.resumeSandbox', withStatus('RUNNING').id),
      true,
    );
    assert.equal(
      await vscode.commands.executeCommand('openhands.pauseSandbox', withStatus('PAUSED').id),
      true,
    );
  });

  it('a failed pause puts the last real state back', async () => {
    const sandbox = withStatus('RUNNING');
    await server.addFault({
      kind: 'status',
      status: 500,
      body: { detail: 'docker said no' },
      match: { method: 'POST', pathRegex: '/pause$' },
    });
    assert.equal(await vscode.commands.executeCommand('openhands.pauseSandbox', sandbox.id), false);
    assert.equal(t.api.store.transitions.has(sandbox.id), false);
    const item = itemOf(t.api, sandbox);
    assert.equal(item.contextValue?.startsWith('sandbox.running'), true);
    assert.match(String(item.description), /^Running/);
    assert.equal(await serverStatus(t.api, sandbox.id), 'RUNNING');
  });

  it('start with a spec id shows "Starting…" and ends RUNNING on the server', async () => {
    const specs = await t.api.connection.client?.searchSandboxSpecs();
    const spec = specs?.items.at(-1);
    assert.ok(spec);
    const before = new Set(t.api.store.sandboxes.map((s) => s.id));
    const starting = vscode.commands.executeCommand<SandboxInfo | undefined>(
      'openhands.startSandbox',
      spec.id,
    );
    const fresh = await eventually(
      () => t.api.store.sandboxes.find((s) => !before.has(s.id)),
      (s) => s !== undefined,
    );
    assert.ok(fresh);
    assert.match(String(itemOf(t.api, fresh).description), /^Starting…/);
    const started = await starting;
    assert.equal(started?.status, 'RUNNING');
    assert.equal(started?.sandbox_spec_id, spec.id);
    assert.equal(await serverStatus(t.api, fresh.id), 'RUNNING');
  });

  it('delete by id acts without prompting and removes the sandbox', async () => {
    const sandbox = withStatus('PAUSED');
    assert.equal(await vscode.commands.executeCommand('openhands.deleteSandbox', sandbox.id), true);
    assert.equal(t.api.store.findSandbox(sandbox.id), undefined);
    assert.equal(await serverStatus(t.api, sandbox.id), undefined);
  });

  it('an unknown id gives a clear error', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('openhands.pauseSandbox', 'oh-agent-server-nope')),
      /No sandbox with id oh-agent-server-nope/,
    );
  });

  it('copy id commands put the id on the clipboard', async () => {
    const sandbox = withStatus('RUNNING');
    await vscode.commands.executeCommand('openhands.copySandboxId', sandbox.id);
    assert.equal(await vscode.env.clipboard.readText(), sandbox.id);
    const conversation = t.api.store.conversations[0];
    assert.ok(conversation);
    await vscode.commands.executeCommand('openhands.copyConversationId', conversation.id);
    assert.equal(await vscode.env.clipboard.readText(), conversation.id);
  });

  it('new conversation with arguments runs the start task to READY and shows the conversation', async () => {
    const id = await vscode.commands.executeCommand<string | undefined>('openhands.newConversation', {
      message: 'Write a haiku about sandboxes',
      repository: 'acme/webapp',
      branch: 'main',
      sandboxId: null,
    });
    assert.ok(id, 'the command returns the new conversation id');
    const conversation = t.api.store.findConversation(id);
    assert.ok(conversation, 'the conversation is in the view');
    assert.equal(conversation.selected_repository, 'acme/webapp');
    const rows = t.api.conversationsProvider.getChildren();
    assert.ok(rows.some((row) => row.kind === 'conversation' && row.conversation.id === id));
  });

  it('new conversation reports a start task ERROR and returns nothing', async () => {
    await server.failNextStart('the repository could not be cloned');
    await expectNoConversationStarted(t.api, 'openhands.newConversation', {
      message: 'x',
      repository: null,
      sandboxId: null,
    });
  });

  it('open conversation and open sandbox VS Code accept ids', async () => {
    const conversation = t.api.store.conversations[0];
    assert.ok(conversation);
    assert.equal(await vscode.commands.executeCommand('openhands.openConversation', conversation.id), true);
    const running = t.api.store.sandboxes.find(
      (s) => s.status === 'RUNNING' && s.exposed_urls?.some((u) => u.name === 'VSCODE'),
    );
    assert.ok(running);
    assert.equal(await vscode.commands.executeCommand('openhands.openSandboxVsCode', running.id), true);
  });
});
