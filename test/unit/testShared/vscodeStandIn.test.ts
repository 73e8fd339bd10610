// The vscode stand-in behaves as VS Code where the unit tests rely on it: events delivered at once and a
// throwing listener kept from the firer, a Memento of JSON copies, settings with package.json's
// defaults, and a scripted user who cannot answer what was not asked.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { listenerErrors, MemoryMemento, prompts, settings } from '../../shared/vscodeStandIn/standIn';

describe('the vscode stand-in', () => {
  it('is what `vscode` resolves to under mocha', () => {
    assert.equal(typeof vscode.EventEmitter, 'function');
    assert.equal(vscode.TreeItemCollapsibleState.Collapsed, 1);
  });

  it('fires events at once, in order, and keeps a listener’s throw from the firer', () => {
    const emitter = new vscode.EventEmitter<number>();
    const heard: string[] = [];
    emitter.event((n) => heard.push(`a${n}`));
    emitter.event(() => {
      throw new Error('listener failed');
    });
    const subscription = emitter.event((n) => heard.push(`c${n}`));
    emitter.fire(1);
    subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, ['a1', 'c1', 'a2']);
    assert.equal(listenerErrors.length, 2);
    emitter.dispose();
    emitter.fire(3);
    assert.deepEqual(heard, ['a1', 'c1', 'a2']);
  });

  it('keeps JSON in a Memento: copies out, undefined removes, and update returns a promise', async () => {
    const memento = new MemoryMemento();
    const value = { list: [1, 2] };
    const update = memento.update('k', value);
    assert.ok(update instanceof Promise);
    await update;
    value.list.push(3);
    const read = memento.get<{ list: number[] }>('k');
    assert.deepEqual(read, { list: [1, 2] });
    assert.notEqual(memento.get('k'), read);
    await memento.update('k', undefined);
    assert.deepEqual(memento.keys(), []);
    assert.equal(memento.get('k', 'fallback'), 'fallback');
  });

  it('reads package.json’s defaults under the user’s settings, and tells who listens what changed', () => {
    const config = () => vscode.workspace.getConfiguration('openhands');
    assert.equal(config().get('notifications'), 'watched');
    const seen: boolean[] = [];
    vscode.workspace.onDidChangeConfiguration((event) =>
      seen.push(event.affectsConfiguration('openhands'), event.affectsConfiguration('openhands.pageSize')),
    );
    settings.set({ 'openhands.notifications': 'all' });
    assert.equal(config().get('notifications'), 'all');
    assert.deepEqual(seen, [true, false]);
  });

  it('refuses answers a prompt cannot give, and dismisses what was not scripted', async () => {
    prompts.answer('warning', 'Maybe');
    await assert.rejects(
      async () => vscode.window.showWarningMessage('Delete?', { modal: true }, 'Delete'),
      /no button “Maybe”/,
    );
    prompts.answer('inputBox', 'no spaces please');
    await assert.rejects(
      async () =>
        vscode.window.showInputBox({
          validateInput: (text) => (text.includes(' ') ? 'No spaces.' : undefined),
        }),
      /refuses “no spaces please”: No spaces\./,
    );
    assert.equal(await vscode.window.showQuickPick(['a', 'b']), undefined);
    assert.deepEqual(
      prompts.asked.map((asked) => asked.kind),
      ['warning', 'inputBox', 'quickPick'],
    );
  });
});
