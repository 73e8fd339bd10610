// Which confirmation policy a conversation gets: the toggle in the panel and the setting for starts.
import assert from 'node:assert/strict';
import { confirmationPolicyFor, startPolicy } from '../../../src/state/confirmationPolicy';

describe('confirmation policies', () => {
  it('turns confirmation on as the setting’s policy, risky or always, and off as never', () => {
    assert.deepEqual(confirmationPolicyFor(true, 'risky'), {
      kind: 'ConfirmRisky',
      threshold: 'HIGH',
      confirm_unknown: true,
    });
    for (const setting of ['always', 'server', 'never'] as const)
      assert.deepEqual(confirmationPolicyFor(true, setting), { kind: 'AlwaysConfirm' }, setting);
    for (const setting of ['always', 'server', 'never', 'risky'] as const)
      assert.deepEqual(confirmationPolicyFor(false, setting), { kind: 'NeverConfirm' }, setting);
  });

  it('leaves a start to the server’s settings only when the setting says so', () => {
    assert.equal(startPolicy('server'), undefined);
    assert.deepEqual(startPolicy('always'), { kind: 'AlwaysConfirm' });
    assert.deepEqual(startPolicy('never'), { kind: 'NeverConfirm' });
    assert.equal(startPolicy('risky')?.kind, 'ConfirmRisky');
  });
});
