// A flow's notice: a toast VS Code lets the extension end, so the flow's next message replaces it,
// a stale one is taken back, and none outlives its lifetime; a server's words never become a link.
import assert from 'node:assert/strict';
import { FlowNotice } from '../../../src/core/flowNotice';
import { windowRecord } from '../../shared/vscodeStandIn/standIn';
import { eventually } from '../../shared/eventually';

/** The notices on screen: the progress runs in the Notification location that have not ended. */
function shown(): string[] {
  return windowRecord.progress.filter((run) => !run.ended).map((run) => run.title ?? '');
}

describe('FlowNotice', () => {
  it('shows a finished notification (a full bar, not a spinner) until the flow says something newer', async () => {
    const notice = new FlowNotice();
    try {
      notice.show('Connected to Team: OpenHands 1.11.0, API key accepted.');
      assert.deepEqual(shown(), ['Connected to Team: OpenHands 1.11.0, API key accepted.']);
      assert.deepEqual(windowRecord.progress[0]?.reports, [{ increment: 100 }]);
      assert.equal(windowRecord.progress[0]?.cancellable, false);
      notice.show('Team was forgotten: its key and secrets are gone from this machine.');
      await eventually(shown, (now) => now.length === 1, { description: 'the earlier one gone' });
      assert.deepEqual(shown(), ['Team was forgotten: its key and secrets are gone from this machine.']);
    } finally {
      notice.dispose();
    }
    await eventually(shown, (now) => now.length === 0, { description: 'none left after dispose' });
  });

  it('is taken back by end (the user is back), and a later end does nothing', async () => {
    const notice = new FlowNotice();
    notice.show('The conversation of Team was closed: the views now show This machine (:3001).', {
      label: 'Switch Back to Team',
      command: 'openhands.switchServer',
      args: ['https://team.example:8443'],
    });
    assert.equal(
      shown()[0],
      '[Switch Back to Team](command:openhands.switchServer?%5B%22https%3A%2F%2Fteam.example%3A8443%22%5D) — ' +
        'The conversation of Team was closed: the views now show This machine (:3001).',
    );
    notice.end();
    await eventually(shown, (now) => now.length === 0, { description: 'taken back' });
    notice.end();
    notice.dispose();
  });

  it('ends by itself after its lifetime', async () => {
    const notice = new FlowNotice(30);
    notice.show('Connected.');
    assert.equal(shown().length, 1);
    await eventually(shown, (now) => now.length === 0, { description: 'gone after 30 ms', timeoutMs: 2000 });
    notice.dispose();
  });

  it('makes no link of the words it shows, and keeps its own link whole', () => {
    const notice = new FlowNotice();
    try {
      notice.show('Connected to X: OpenHands [1.11](command:openhands.forgetServer?%5B%5D).', {
        label: 'Switch Back to [Team]',
        command: 'openhands.switchServer',
        args: ['http://h/(x)'],
      });
      const title = shown()[0] ?? '';
      // VS Code's link syntax: [label](command:…) with no space between the brackets and the parenthesis
      const links = [...title.matchAll(/\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)\)/gi)];
      assert.deepEqual(
        links.map((link) => link[1]),
        ['Switch Back to Team'],
      );
      assert.equal(links[0]?.[2], 'command:openhands.switchServer?%5B%22http%3A%2F%2Fh%2F%28x%29%22%5D');
    } finally {
      notice.dispose();
    }
  });
});
