// Sandbox lifecycle actions against the test server: the row shows the action at once, the wait ends
// when the server reports the target status, one action per sandbox at a time, and a failure comes
// back as an outcome in words fit for the user (state shows no UI).
import assert from 'node:assert/strict';
import type { SandboxInfo } from '../../../src/api';
import { windowRecord } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from './extensionState';

describe('SandboxActions: pause, resume, delete and start, with honest optimism', function () {
  this.timeout(20_000);
  const t = useExtensionState({ seed: { sandboxes: 4, conversations: 8, seed: 5 } });

  async function loaded(status: SandboxInfo['status']): Promise<SandboxInfo> {
    await t.store.refresh();
    const found = t.store.sandboxes.find((sandbox) => sandbox.status === status);
    assert.ok(found, `the seed has a ${status} sandbox`);
    return found;
  }

  it('shows “pausing” at once and ends when the server reports PAUSED', async () => {
    const running = await loaded('RUNNING');
    const pausing = t.actions.pause(running);
    assert.equal(t.store.transitions.get(running.id)?.kind, 'pausing');
    assert.deepEqual(await pausing, { ok: true });
    assert.equal(t.store.findSandbox(running.id)?.status, 'PAUSED');
    assert.equal(t.store.transitions.size, 0);
    assert.equal(t.server.state.sandboxes.find((s) => s.id === running.id)?.status, 'PAUSED');
  });

  it('refuses a second action on a sandbox that is busy, without asking the server', async () => {
    const paused = await loaded('PAUSED');
    const resuming = t.actions.resume(paused);
    const posts = () => t.server.requests.filter((r) => r.method !== 'GET').length;
    const before = posts();
    const second = await t.actions.delete(paused);
    assert.equal(second.ok, false);
    assert.ok(!second.ok);
    assert.equal(second.level, 'warning');
    assert.equal(second.canRetry, false);
    assert.equal(second.message, `Sandbox “${t.store.sandboxName(paused.id)}” is busy with another action.`);
    assert.equal(posts(), before);
    assert.deepEqual(await resuming, { ok: true });
    assert.equal(t.store.findSandbox(paused.id)?.status, 'RUNNING');
  });

  it('removes a deleted sandbox from the views and the server', async () => {
    const running = await loaded('RUNNING');
    assert.deepEqual(await t.actions.delete(running), { ok: true });
    assert.equal(t.store.findSandbox(running.id), undefined);
    assert.equal(
      t.server.state.sandboxes.find((s) => s.id === running.id),
      undefined,
    );
  });

  it('brings back the last real state on failure, says why with the sandbox’s name, and logs it', async () => {
    const running = await loaded('RUNNING');
    t.server.faults.add({
      kind: 'status',
      status: 500,
      body: { detail: 'docker said no' },
      match: { method: 'POST', path: `/api/v1/sandboxes/${running.id}/pause` },
    });
    const outcome = await t.actions.pause(running);
    assert.ok(!outcome.ok);
    assert.equal(outcome.level, 'error');
    assert.equal(outcome.canRetry, true);
    assert.ok(
      outcome.message.startsWith(`Could not pause sandbox “${t.store.sandboxName(running.id)}”: `),
      outcome.message,
    );
    assert.match(outcome.message, /docker said no/);
    assert.equal(t.store.transitions.size, 0);
    assert.equal(t.store.findSandbox(running.id)?.status, 'RUNNING');
    assert.ok(
      windowRecord.logChannels[0]?.lines.some((line) => line.startsWith('error: Could not pause sandbox')),
    );
  });

  it('starts a sandbox and hands it back once RUNNING', async () => {
    await t.store.refresh();
    const { sandbox, outcome } = await t.actions.start(undefined);
    assert.deepEqual(outcome, { ok: true });
    assert.equal(sandbox?.status, 'RUNNING');
    assert.equal(t.store.findSandbox(sandbox?.id ?? '')?.status, 'RUNNING');
  });

  it('says why a start failed, without a sandbox', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 503,
      match: { method: 'POST', path: '/api/v1/sandboxes' },
    });
    const { sandbox, outcome } = await t.actions.start('no-such-spec');
    assert.equal(sandbox, undefined);
    assert.ok(!outcome.ok);
    assert.match(outcome.message, /^Could not start a sandbox: /);
  });
});
