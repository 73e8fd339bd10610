// How a sandbox action's outcome reaches the user: progress on the Sandboxes view, a failure as an
// error (or a warning) with Retry only when trying again makes sense, and Show Log.
import assert from 'node:assert/strict';
import { Log } from '../../../src/core/log';
import type { ActionOutcome } from '../../../src/state/sandboxActions';
import { reportAction, showFailure } from '../../../src/views/actionReports';
import { eventually } from '../../shared/eventually';
import { prompts, windowRecord } from '../../shared/vscodeStandIn/standIn';

const FAILED: ActionOutcome = {
  ok: false,
  level: 'error',
  canRetry: true,
  message: 'Could not pause sandbox “x”: boom',
};

describe('action reports', () => {
  it('runs the action under the Sandboxes view’s progress and says nothing when it worked', async () => {
    assert.equal(
      await reportAction(
        () => Promise.resolve({ ok: true }),
        new Log(),
        () => undefined,
      ),
      true,
    );
    assert.deepEqual(
      windowRecord.progress.map((run) => run.location),
      [{ viewId: 'openhands.sandboxes' }],
    );
    assert.deepEqual(prompts.asked, []);
  });

  it('shows a failure as an error with Retry and Show Log; Retry runs the action again', async () => {
    let retried = 0;
    prompts.answer('error', 'Retry');
    assert.equal(
      await reportAction(
        () => Promise.resolve(FAILED),
        new Log(),
        () => retried++,
      ),
      false,
    );
    await eventually(
      () => retried,
      (count) => count === 1,
      { description: 'the retry' },
    );
    const [asked] = prompts.of('error');
    assert.equal(asked?.message, FAILED.message);
    assert.deepEqual(asked?.choices, ['Retry', 'Show Log']);
  });

  it('offers no Retry when trying again makes no sense, shows a warning as one, and Show Log opens the log', async () => {
    const log = new Log();
    prompts.answer('warning', 'Show Log');
    showFailure({ ok: false, level: 'warning', canRetry: false, message: 'did not settle' }, log, () =>
      assert.fail('no retry'),
    );
    await eventually(
      () => windowRecord.logChannels[0]?.shown,
      (shown) => shown === 1,
      { description: 'the log shown' },
    );
    assert.deepEqual(prompts.of('warning')[0]?.choices, ['Show Log']);
    assert.deepEqual(prompts.of('error'), []);
  });
});
