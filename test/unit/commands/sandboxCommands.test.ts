// The sandbox commands' decisions, through the scripted user and against the test server: what is
// asked before a delete or a pause that stops working agents, what a dismissal leaves alone, what an
// id argument skips, and which image a start uses.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SandboxInfo } from '../../../src/api';
import { registerSandboxCommands } from '../../../src/commands/sandboxCommands';
import { commands, envRecord, prompts } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from '../state/extensionState';

describe('sandbox commands', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 4, conversations: 10, seed: 5 } });
  let registered: vscode.Disposable[];

  beforeEach(async () => {
    registered = registerSandboxCommands({
      store: t.store,
      connection: t.connection,
      actions: t.actions,
      specs: t.specs,
      log: t.log,
    });
    await t.store.refresh();
  });
  afterEach(() => registered.forEach((disposable) => disposable.dispose()));

  const onServer = (id: string) => t.server.state.sandboxes.find((s) => s.id === id);

  /** A loaded sandbox of this status whose conversations match `hosting`. */
  function loaded(
    status: SandboxInfo['status'],
    hosting: (count: number) => boolean = () => true,
  ): SandboxInfo {
    const found = t.store.sandboxes.find(
      (s) =>
        s.status === status &&
        hosting(t.server.state.conversations.filter((c) => c.sandbox_id === s.id).length),
    );
    assert.ok(found, `the seed has such a ${status} sandbox`);
    return found;
  }

  it('asks before deleting a row’s sandbox, naming the conversations it hosts, and a dismissal deletes nothing', async () => {
    const doomed = loaded('PAUSED', (count) => count > 0);
    const node = { kind: 'sandbox' as const, sandbox: doomed };
    assert.equal(await commands.executeCommand('openhands.deleteSandbox', node), false);
    assert.ok(onServer(doomed.id), 'still there');
    const [asked] = prompts.of('warning');
    assert.equal(asked?.message, `Delete sandbox “${t.store.sandboxName(doomed.id)}”?`);
    assert.equal(asked?.modal, true);
    assert.match(
      asked?.detail ?? '',
      /^It hosts \d+ conversation\(s\): “.+”.*\. Their workspace is removed with it\. This cannot be undone\.$/,
    );
    assert.deepEqual(asked?.choices, ['Delete']);

    prompts.answer('warning', 'Delete');
    assert.equal(await commands.executeCommand('openhands.deleteSandbox', node), true);
    assert.equal(onServer(doomed.id), undefined);
    assert.equal(t.store.findSandbox(doomed.id), undefined);
  });

  it('deletes by id without asking: the caller already decided', async () => {
    const doomed = loaded('PAUSED');
    assert.equal(await commands.executeCommand('openhands.deleteSandbox', doomed.id), true);
    assert.equal(onServer(doomed.id), undefined);
    assert.deepEqual(prompts.asked, []);
  });

  it('asks before pausing a sandbox whose agents are working, and pauses one whose agents are not at once', async () => {
    const busy = loaded('RUNNING');
    const record = t.server.state.conversations.find((c) => c.sandbox_id === busy.id);
    const quiet = t.store.sandboxes.find((s) => s.status === 'RUNNING' && s.id !== busy.id);
    assert.ok(record && quiet);
    record.execution_status = 'running';
    for (const c of t.server.state.conversations) if (c.sandbox_id === quiet.id) c.execution_status = 'idle';
    await t.store.refresh({ full: true });

    assert.equal(
      await commands.executeCommand('openhands.pauseSandbox', { kind: 'sandbox', sandbox: busy }),
      false,
    );
    assert.equal(onServer(busy.id)?.status, 'RUNNING');
    const [asked] = prompts.of('warning');
    assert.equal(
      asked?.message,
      `Pause sandbox “${t.store.sandboxName(busy.id)}” while its agents are working?`,
    );
    assert.match(
      asked?.detail ?? '',
      /^1 conversation\(s\) are working in it: “.+”\. Their agents stop until the sandbox is resumed\.$/,
    );

    prompts.reset();
    assert.equal(
      await commands.executeCommand('openhands.pauseSandbox', { kind: 'sandbox', sandbox: quiet }),
      true,
    );
    assert.equal(onServer(quiet.id)?.status, 'PAUSED');
    assert.deepEqual(prompts.asked, []);
  });

  it('resumes the paused sandbox the user picks, among those that can resume', async () => {
    const paused = loaded('PAUSED');
    const offered = t.store.sandboxes
      .filter((s) => s.status === 'PAUSED' || s.status === 'ERROR')
      .map((s) => t.store.sandboxName(s.id));
    prompts.answer('quickPick', t.store.sandboxName(paused.id));
    assert.equal(await commands.executeCommand('openhands.resumeSandbox'), true);
    assert.equal(onServer(paused.id)?.status, 'RUNNING');
    assert.deepEqual(prompts.of('quickPick')[0]?.choices, offered);
  });

  it('offers the server’s images, the default first and marked, and starts from the one picked', async () => {
    prompts.answer('quickPick', 'agent-server:4e2ecd8-nodejs');
    const started = await commands.executeCommand<SandboxInfo | undefined>('openhands.startSandbox');
    assert.equal(started?.sandbox_spec_id, 'ghcr.io/openhands/agent-server:4e2ecd8-nodejs');
    assert.equal(onServer(started?.id ?? '')?.status, 'RUNNING');
    const [asked] = prompts.of('quickPick');
    assert.deepEqual(asked?.choices, ['agent-server:4e2ecd8-python', 'agent-server:4e2ecd8-nodejs']);
    assert.equal(asked?.detail, 'Choose the image the sandbox starts from');
  });

  it('starts nothing when the user dismisses the images, or when they cannot be read', async () => {
    const count = t.server.state.sandboxes.length;
    assert.equal(await commands.executeCommand('openhands.startSandbox'), undefined);
    t.server.faults.add({ kind: 'status', status: 500, match: { path: '/api/v1/sandbox-specs/search' } });
    assert.equal(await commands.executeCommand('openhands.startSandbox'), undefined);
    assert.equal(t.server.state.sandboxes.length, count);
    assert.match(
      prompts.of('error')[0]?.message ?? '',
      /^Could not read the sandbox images the server offers: /,
    );
  });

  it('copies a sandbox’s id, and says so when a sandbox has no VS Code to open', async () => {
    const paused = loaded('PAUSED');
    assert.equal(
      await commands.executeCommand('openhands.copySandboxId', { kind: 'sandbox', sandbox: paused }),
      paused.id,
    );
    assert.equal(envRecord.clipboard, paused.id);
    assert.equal(
      await commands.executeCommand('openhands.openSandboxVsCode', { kind: 'sandbox', sandbox: paused }),
      false,
    );
    assert.equal(
      prompts.of('warning')[0]?.message,
      `Sandbox “${t.store.sandboxName(paused.id)}” has no VS Code to open (it must be running).`,
    );
    assert.deepEqual(envRecord.opened, []);
  });

  it('opens a running sandbox’s own VS Code', async () => {
    const running = loaded('RUNNING');
    assert.equal(await commands.executeCommand('openhands.openSandboxVsCode', running.id), true);
    assert.equal(envRecord.opened.length, 1);
    assert.match(envRecord.opened[0] ?? '', new RegExp(`/__sandboxes/${running.id}/vscode/\\?tkn=`));
  });
});
