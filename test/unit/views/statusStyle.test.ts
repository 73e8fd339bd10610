// How statuses look: each known one its own icon, colour and word; an unknown one (a newer server) neutral.
import assert from 'node:assert/strict';
import { conversationIcon, executionStatusLabel, sandboxStatusStyle } from '../../../src/views/statusStyle';

describe('status styles', () => {
  it('gives each sandbox status its icon, colour and label, and an unknown one a neutral look', () => {
    const looks = (['RUNNING', 'STARTING', 'PAUSED', 'ERROR', 'MISSING', 'SHUTTING_DOWN'] as const).map(
      (status) => {
        const style = sandboxStatusStyle(status);
        return [style.label, style.icon.id, style.icon.color?.id];
      },
    );
    assert.deepEqual(looks, [
      ['Running', 'vm-running', 'testing.iconPassed'],
      ['Starting', 'loading~spin', 'charts.yellow'],
      ['Paused', 'debug-pause', 'charts.yellow'],
      ['Error', 'error', 'testing.iconFailed'],
      ['Missing', 'question', 'disabledForeground'],
      ['Shutting down', 'circle-outline', 'disabledForeground'],
    ]);
  });

  it('words the agent’s status for a row, an unknown one as it is', () => {
    assert.equal(executionStatusLabel(null), undefined);
    assert.equal(executionStatusLabel('running'), 'working');
    assert.equal(executionStatusLabel('waiting_for_confirmation'), 'waiting for you');
    assert.equal(executionStatusLabel('deep_thought'), 'deep thought');
  });

  it('marks a conversation by what needs the user first, then by its sandbox', () => {
    const icon = (...args: Parameters<typeof conversationIcon>) => {
      const found = conversationIcon(...args);
      return `${found.id} ${found.color?.id ?? ''}`;
    };
    assert.equal(icon('running', 'PAUSED'), 'loading~spin charts.blue');
    assert.equal(icon('stuck', 'RUNNING'), 'comment-unresolved testing.iconFailed');
    assert.equal(icon('waiting_for_confirmation', 'RUNNING'), 'comment-draft charts.orange');
    assert.equal(icon('idle', 'RUNNING'), 'comment-discussion testing.iconPassed');
    assert.equal(icon(null, 'PAUSED'), 'comment disabledForeground');
  });
});
