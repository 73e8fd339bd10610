// The page's requests answered by id: each posted with a number of its own, settled by the reply
// of that number only, once.
import assert from 'node:assert/strict';
import type { Reply, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import { Requests } from '../../../../../src/webviews/conversation/webview/requests';

describe('conversation page: requests answered by id', () => {
  it('posts each request with an id of its own and settles it by the reply of that id, once', () => {
    const posted: WebviewToHost[] = [];
    const requests = new Requests((message) => posted.push(message));
    const settled: [string, Reply][] = [];
    const pause = requests.ask({ type: 'pause' }, (reply) => settled.push(['pause', reply]));
    const reject = requests.ask({ type: 'reject', reason: 'no' }, (reply) => settled.push(['reject', reply]));
    assert.notEqual(pause, reject);
    assert.deepEqual(posted, [
      { type: 'pause', id: pause },
      { type: 'reject', reason: 'no', id: reject },
    ]);
    assert.equal(requests.error, null);
    requests.settle({ type: 'reply', id: reject, ok: false, error: 'refused' });
    assert.deepEqual(settled, [['reject', { type: 'reply', id: reject, ok: false, error: 'refused' }]]);
    assert.equal(requests.error, 'refused', 'a failure is shown');
    requests.settle({ type: 'reply', id: reject, ok: true });
    assert.equal(settled.length, 1, 'a request is settled once');
    requests.settle({ type: 'reply', id: pause, ok: true });
    assert.deepEqual(settled[1], ['pause', { type: 'reply', id: pause, ok: true }]);
    assert.equal(requests.error, null, 'a success takes it away');
  });

  it('takes the last failure away when the next control is asked, and says so', () => {
    let changed = 0;
    const requests = new Requests(
      () => undefined,
      () => changed++,
    );
    const first = requests.ask({ type: 'approve' });
    requests.settle({ type: 'reply', id: first, ok: false, error: 'The agent server refused (409).' });
    assert.equal(requests.error, 'The agent server refused (409).');
    assert.equal(changed, 1);
    requests.ask({ type: 'approve' });
    assert.equal(requests.error, null);
    assert.equal(changed, 2, 'shown again without the old failure');
    // refused with no words (another control was under way): nothing to show
    requests.settle({ type: 'reply', id: first + 1, ok: false });
    assert.equal(requests.error, null);
  });

  it('numbers from the page load on, so a reply to a page before a reload settles nothing', () => {
    const before = Date.now();
    const requests = new Requests(() => undefined);
    let settled = 0;
    const id = requests.ask({ type: 'stop' }, () => settled++);
    assert.ok(id >= before && Number.isSafeInteger(id));
    requests.settle({ type: 'reply', id: 1, ok: true });
    assert.equal(settled, 0);
  });
});
