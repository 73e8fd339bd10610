// The conversation panel's page in real Chromium (the harness: the page built from the sources, in
// VS Code's document and CSP): the protocol (ready, epoch/rev, gaps, malformed messages, expand),
// the header and its not-live banner, the rows in the host's order, and the virtual list (only the
// rows near the viewport, stuck to the bottom, the reader's place kept when rows arrive above and
// below, "↓ N new"), and what it keeps in setState. Without Chromium it fails on CI and skips elsewhere (test/shared/chromium.ts).
import assert from 'node:assert/strict';
import type { Header, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import { fixtureImage } from '../../../../shared/images';
import { generateRows, header, resendMessages, showcaseRows } from './fixtureRows';
import { type Harness, type HarnessWindow } from './harness';
import { usePages } from './pageSuite';

const EPOCH = 1_700_000_000_000;

function message(id: string, markdown: string, timestamp = '2026-11-23T19:49:01.000001'): Row {
  return { id, timestamp, kind: 'message', role: 'agent', markdown };
}

describe('conversation page in Chromium', function () {
  this.timeout(60_000);
  const { page } = usePages();

  /** Sends the transcript as the host does after `ready`, and waits for its last row. */
  async function load(h: Harness, rows: Row[], head: Partial<Header> = {}): Promise<void> {
    const messages = resendMessages(rows, EPOCH, header(head));
    for (const m of messages) await h.post(m);
    await h.page.waitForFunction((count) => {
      const row = document.querySelector('.rows [aria-setsize]');
      return count === 0 ? true : row?.getAttribute('aria-setsize') === String(count);
    }, rows.length);
    await settle(h);
  }

  /** Two frames: whatever was scheduled has rendered. */
  function settle(h: Harness): Promise<void> {
    return h.page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
  }

  async function readies(h: Harness): Promise<WebviewToHost[]> {
    return (await h.posted()).filter((m) => m.type === 'ready');
  }

  /** Where a row is on screen, relative to the transcript's top; undefined when not in the DOM. */
  function rowTop(h: Harness, id: string): Promise<number | undefined> {
    return h.page.evaluate((rowId) => {
      const row = document.querySelector(`[data-row-id="${rowId}"]`);
      const scroller = document.querySelector('.transcript') as HTMLElement;
      return row ? row.getBoundingClientRect().top - scroller.getBoundingClientRect().top : undefined;
    }, id);
  }

  function scrollState(h: Harness) {
    return h.page.evaluate(() => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      return {
        top: scroller.scrollTop,
        max: scroller.scrollHeight - scroller.clientHeight,
        rendered: document.querySelectorAll('.rows > .row').length,
      };
    });
  }

  it('says ready once on load, with nothing held, and asks for nothing else', async () => {
    const h = await page();
    assert.deepEqual(await h.posted(), [{ type: 'ready' }]);
  });

  it('drops malformed messages and renders the rows in the order the host gives', async () => {
    const h = await page();
    for (const bad of [
      'not an object',
      null,
      { type: 'rows' },
      { type: 'reset', epoch: 'one', rev: 0, header: header() },
      { type: 'reset', epoch: EPOCH, rev: 0, header: { ...header(), extra: 1 } },
      { type: 'rows', epoch: EPOCH, rev: 1, at: 'middle', rows: [] },
      { type: 'rows', epoch: EPOCH, rev: 1, at: 'end', rows: [{ id: 'x', kind: 'message' }] },
      { type: 'unknown' },
    ])
      await h.post(bad);
    // timestamps out of order on purpose: the host's order wins
    const rows = [
      message('third-by-time', 'first in the transcript', '2026-11-23T19:49:59.000001'),
      message('first-by-time', 'second', '2026-11-23T19:49:01.000001'),
      message('second-by-time', 'third', '2026-11-23T19:49:30.000001'),
    ];
    await load(h, rows);
    const order = await h.page.$$eval('.rows > .row', (els) => els.map((e) => e.getAttribute('data-row-id')));
    assert.deepEqual(order, ['third-by-time', 'first-by-time', 'second-by-time']);
    assert.deepEqual(await readies(h), [{ type: 'ready' }], 'nothing malformed was acted on');
  });

  it('ignores another epoch, asks again on a gap (once), and starts over on the next reset', async () => {
    const h = await page();
    await load(h, [message('a', 'A')]);
    await h.post({ type: 'rows', epoch: EPOCH - 1, rev: 2, at: 'end', rows: [message('old', 'old epoch')] });
    await h.post({ type: 'rows', epoch: EPOCH + 1, rev: 2, at: 'end', rows: [message('new', 'next epoch')] });
    await settle(h);
    assert.equal(await h.page.$('[data-row-id="old"]'), null);
    assert.equal(await h.page.$('[data-row-id="new"]'), null);
    assert.equal((await readies(h)).length, 1);
    // rev 2 goes missing
    await h.post({ type: 'rows', epoch: EPOCH, rev: 3, at: 'end', rows: [message('c', 'C')] });
    await h.post({ type: 'remove', epoch: EPOCH, rev: 4, ids: ['a'] });
    await settle(h);
    assert.deepEqual(await readies(h), [{ type: 'ready' }, { type: 'ready', epoch: EPOCH, rev: 1 }]);
    assert.equal(await h.page.$('[data-row-id="c"]'), null, 'nothing after the gap is applied');
    assert.notEqual(await h.page.$('[data-row-id="a"]'), null, 'what was shown stays meanwhile');
    // the host starts over
    const rows = [message('a', 'A'), message('b', 'B'), message('c', 'C')];
    for (const m of resendMessages(rows, EPOCH + 5, header())) await h.post(m);
    await h.page.waitForSelector('[data-row-id="c"]');
    assert.equal((await readies(h)).length, 2);
    await h.post({ type: 'remove', epoch: EPOCH + 5, rev: 2, ids: ['b'] });
    await h.page.waitForSelector('[data-row-id="b"]', { state: 'detached' });
  });

  it('replaces rows in place, puts older ones first, and removes the streaming bubble', async () => {
    const h = await page();
    await load(h, [
      message('m2', 'two'),
      { id: 'streaming', timestamp: '', kind: 'streaming', text: 'typing so far' },
    ]);
    assert.equal(await h.page.textContent('[data-row-id="streaming"] .stream-body'), 'typing so far');
    assert.notEqual(await h.page.$('[data-row-id="streaming"] .caret'), null);
    await h.post({ type: 'rows', epoch: EPOCH, rev: 2, at: 'start', rows: [message('m1', 'one')] });
    await h.post({
      type: 'rows',
      epoch: EPOCH,
      rev: 3,
      at: 'end',
      rows: [{ id: 'streaming', timestamp: '', kind: 'streaming', text: 'typing so far, and more' }],
    });
    await h.post({ type: 'remove', epoch: EPOCH, rev: 4, ids: ['streaming'] });
    await h.post({
      type: 'rows',
      epoch: EPOCH,
      rev: 5,
      at: 'end',
      rows: [message('m2', 'two, edited'), message('m3', 'three')],
    });
    await h.page.waitForSelector('[data-row-id="m3"]');
    await settle(h);
    const rows = await h.page.$$eval('.rows > .row', (els) =>
      els.map((e) => [e.getAttribute('data-row-id'), e.querySelector('.markdown')?.textContent?.trim()]),
    );
    assert.deepEqual(rows, [
      ['m1', 'one'],
      ['m2', 'two, edited'],
      ['m3', 'three'],
    ]);
  });

  it('offers "Show all" on clipped texts, asks with expand, and shows the whole text', async () => {
    const h = await page();
    const clipped: Row = {
      id: 'cmd',
      timestamp: '',
      kind: 'action',
      tool: 'terminal',
      summary: 'build',
      risk: 'LOW',
      state: 'done',
      terminal: {
        command: 'make',
        output: 'line 1\nline 2',
        outputClip: { fullLength: 123_456 },
        exitCode: 0,
      },
    };
    await load(h, [clipped]);
    const button = h.page.getByRole('button', { name: 'Show all (123,456 characters)' });
    await button.click();
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'expand'),
      [{ type: 'expand', id: 'cmd' }],
    );
    const whole = `${'x'.repeat(200)}\nthe end`;
    await h.post({
      type: 'expanded',
      row: { ...clipped, terminal: { command: 'make', output: whole, exitCode: 0 } },
    });
    await h.page.waitForFunction(() =>
      document.querySelector('[data-row-id="cmd"] pre.output')?.textContent?.endsWith('the end'),
    );
    assert.equal(await button.count(), 0);
    // an unknown id is ignored
    await h.post({ type: 'expanded', row: message('nope', 'x') });
    await settle(h);
    assert.equal(await h.page.$('[data-row-id="nope"]'), null);
  });

  it('draws an image when its row is shown, from the bytes the host sends, and says why one cannot be', async () => {
    const h = await page();
    const screenshot: Row = {
      id: 'look',
      timestamp: '',
      kind: 'action',
      tool: 'browser_get_state',
      summary: 'Look at the page (screenshot)',
      risk: 'LOW',
      state: 'done',
      result: 'Page: Shop',
      images: [{ event: 'obs-look', index: 0, width: 320, height: 200, label: 'Screenshot: 320×200 PNG' }],
    };
    const sent: Row = {
      id: 'msg',
      timestamp: '',
      kind: 'message',
      role: 'user',
      markdown: 'Like this? ![tracker](https://example.com/t.png)',
      images: [
        { event: 'msg', index: 0, width: 320, height: 200, label: 'Image: 320×200 JPEG' },
        { event: 'msg', index: 1, label: 'Image: PNG' },
      ],
    };
    await load(h, [screenshot, sent]);
    await h.page.waitForFunction(
      () =>
        (window as unknown as HarnessWindow).__harness.posted.filter((m) => m.type === 'image').length === 3,
    );
    // the boxes have the images' shape before any byte came
    const box = await h.page.locator('[data-row-id="look"] .shot-frame').boundingBox();
    assert.ok(box && Math.abs(box.width / box.height - 1.6) < 0.05, `box ${JSON.stringify(box)}`);
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'image'),
      [
        { type: 'image', event: 'obs-look', index: 0 },
        { type: 'image', event: 'msg', index: 0 },
        { type: 'image', event: 'msg', index: 1 },
      ],
    );
    await h.post({
      type: 'image',
      event: 'obs-look',
      index: 0,
      image: {
        mime: 'image/png',
        base64: fixtureImage('page.png').toString('base64'),
        width: 320,
        height: 200,
      },
    });
    await h.post({
      type: 'image',
      event: 'msg',
      index: 0,
      image: {
        mime: 'image/jpeg',
        base64: fixtureImage('page.jpg').toString('base64'),
        width: 320,
        height: 200,
      },
    });
    await h.post({ type: 'image', event: 'msg', index: 1, problem: 'a PNG image cut short' });
    await h.page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>('.shot-frame img')].filter(
          (img) => img.complete && img.naturalWidth === 320,
        ).length === 2,
    );
    const drawn = await h.page.$$eval('img', (images) =>
      images.map((img) => ({ src: img.src.slice(0, 5), alt: img.alt })),
    );
    assert.deepEqual(drawn, [
      { src: 'blob:', alt: 'Screenshot: 320×200 PNG' },
      { src: 'blob:', alt: 'Image: 320×200 JPEG' },
    ]);
    assert.match(
      (await h.page.locator('[data-row-id="msg"] .shot-failed').textContent()) ?? '',
      /Cannot be shown: a PNG image cut short\./,
    );
    // a markdown image is its alt text: nothing remote is loaded
    assert.deepEqual(h.foreignRequests, []);
    await h.page.locator('[data-row-id="look"] .shot-frame').click();
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'openImage'),
      [{ type: 'openImage', event: 'obs-look', index: 0 }],
    );
    const { violations, errors } = await h.page.evaluate(
      () => (window as unknown as HarnessWindow).__harness,
    );
    assert.deepEqual([violations, errors], [[], []]);
  });

  it('renders every row kind: bubbles, cards, diffs, exit codes, notices, unknown events', async () => {
    const h = await page({ height: 2400 });
    await load(h, showcaseRows());
    const seen = await h.page.evaluate(() => {
      const q = (selector: string) => document.querySelector(selector);
      const text = (selector: string) => q(selector)?.textContent?.replace(/\s+/g, ' ').trim();
      const style = (selector: string) => {
        const e = q(selector);
        return e ? getComputedStyle(e) : undefined;
      };
      return {
        userAlign: style('[data-row-id="s1"] .message')?.justifyContent,
        agentAlign: style('[data-row-id="s4"] .message')?.justifyContent,
        reasoningFolded: (q('[data-row-id="s4"] details.reasoning') as HTMLDetailsElement | null)?.open,
        thoughtFolded: (q('[data-row-id="s3"] details.thought') as HTMLDetailsElement | null)?.open,
        failedExit: text('[data-row-id="s3"] .exit'),
        failedExitClass: q('[data-row-id="s3"] .exit')?.className,
        command: text('[data-row-id="s3"] .command-text'),
        outputWhiteSpace: style('[data-row-id="s3"] pre.output')?.whiteSpace,
        outputOverflow: style('[data-row-id="s3"] pre.output')?.overflowX,
        okExit: text('[data-row-id="s6"] .exit'),
        diffStat: text('[data-row-id="s5"] .stat'),
        diffOps: Array.from(document.querySelectorAll('[data-row-id="s5"] .dl')).map(
          (e) => e.className.split(' ')[1],
        ),
        rejected: text('[data-row-id="s7"] .rejection'),
        rejectedStruck: style('[data-row-id="s7"] .summary')?.textDecorationLine,
        highRisk: text('[data-row-id="s7"] .risk'),
        lowRisk: q('[data-row-id="s6"] .risk'),
        pending: text('[data-row-id="s10"] .state'),
        ring: q('[data-row-id="s10"] vscode-progress-ring') !== null,
        notice: text('[data-row-id="s8"] .notice-title'),
        noticeClass: q('[data-row-id="s8"] .notice')?.className,
        generic: text('[data-row-id="s9"] .generic'),
        streaming: q('[data-row-id="streaming"] .caret') !== null,
      };
    });
    assert.equal(seen.userAlign, 'flex-end');
    assert.equal(seen.agentAlign, 'normal');
    assert.equal(seen.reasoningFolded, false);
    assert.equal(seen.thoughtFolded, false);
    assert.equal(seen.failedExit, 'exit 1');
    assert.match(seen.failedExitClass ?? '', /exit-fail/);
    assert.equal(seen.command, '$ python -m pytest tests/test_parse.py -q');
    assert.equal(seen.outputWhiteSpace, 'pre');
    assert.equal(seen.outputOverflow, 'auto');
    assert.equal(seen.okExit, 'exit 0');
    assert.equal(seen.diffStat, '+2 −1');
    assert.deepEqual(seen.diffOps, ['dl-gap', 'dl-ctx', 'dl-del', 'dl-add', 'dl-add', 'dl-ctx']);
    assert.equal(seen.rejected, 'Rejected: Not on the shared branch, please');
    assert.equal(seen.rejectedStruck, 'line-through');
    assert.equal(seen.highRisk, 'high risk');
    assert.equal(seen.lowRisk, null, 'LOW and UNKNOWN risks are not shown');
    assert.equal(seen.pending, 'running');
    assert.ok(seen.ring);
    assert.match(seen.notice ?? '', /^Interrupted by the user\s*19:49:20$/);
    assert.match(seen.noticeClass ?? '', /notice-warning/);
    assert.equal(seen.generic, 'BrowserObservation · environment · Page loaded: https://example.com');
    assert.ok(seen.streaming);
  });

  it('shows the header, and a banner with its button whenever the feed is not live', async () => {
    const h = await page();
    await load(h, [message('a', 'A')], { executionStatus: 'waiting_for_confirmation', eventCount: 1234 });
    const meta = (await h.page.textContent('.header-meta'))?.replace(/\s+/g, ' ');
    assert.match(meta ?? '', /waiting for confirmation/);
    assert.match(meta ?? '', /Sandbox running/);
    assert.match(meta ?? '', /claude-sonnet/);
    assert.match(meta ?? '', /1,234 events/);
    assert.equal(await h.page.getAttribute('.exec-status', 'aria-live'), 'polite');
    assert.equal(await h.page.$('.feed-banner'), null, 'live: no banner');

    const banner = async (head: Partial<Header>) => {
      await h.post({ type: 'header', header: header(head) });
      await settle(h);
      return (await h.page.textContent('.feed-banner'))?.replace(/\s+/g, ' ').trim() ?? '';
    };
    assert.match(await banner({ feed: 'connecting' }), /^Connecting… What is shown may be out of date\.$/);
    const reconnecting = await banner({
      feed: 'reconnecting',
      retryInMs: 5_000,
      feedDetail: 'socket closed',
    });
    assert.match(
      reconnecting,
      /Reconnecting in [45] s socket closed\. What is shown may be out of date\. Retry now/,
    );
    await h.page.waitForFunction(() =>
      /in [34] s/.test(document.querySelector('.feed-banner')?.textContent ?? ''),
    );
    await h.page.click('#retry-now');
    assert.match(
      await banner({ feed: 'offline', feedDetail: 'the sandbox is paused', canResume: true }),
      /Offline: the sandbox is paused/,
    );
    await h.page.click('#resume-sandbox');
    assert.doesNotMatch(
      await banner({ feed: 'offline', feedDetail: 'the sandbox is gone', canResume: false }),
      /Resume/,
    );
    assert.match(
      await banner({ feed: 'failed', feedDetail: 'refused (403)' }),
      /^Disconnected: refused \(403\)/,
    );
    await h.page.click('#retry');
    await h.page.click('#open-in-browser');
    await h.page.click('#show-log');
    const actions = (await h.posted()).filter((m) => m.type !== 'ready').map((m) => m.type);
    assert.deepEqual(actions, ['reconnect', 'resumeSandbox', 'reconnect', 'openInBrowser', 'showLog']);
    assert.equal(await h.page.$('#retry-now'), null);
  });

  it('says when the transcript is not the whole conversation, live or not, with Open in Browser', async () => {
    const h = await page();
    await load(h, [message('a', 'A')]);
    assert.equal(await h.page.$('.history-notice'), null, 'whole: no notice');
    const notice = async (head: Partial<Header>) => {
      await h.post({ type: 'header', header: header(head) });
      await settle(h);
      return (await h.page.textContent('.history-notice'))?.replace(/\s+/g, ' ').trim() ?? '';
    };
    const cut = 'The transcript reached its limit of 64 MB; some events are not shown.';
    assert.equal(await notice({ notice: cut }), `${cut} Open in Browser`);
    assert.equal(await h.page.$('.feed-banner'), null, 'live: still no banner');
    // under the not-live banner while reconnecting
    assert.match(await notice({ notice: cut, feed: 'reconnecting', feedDetail: 'socket closed' }), /64 MB/);
    assert.ok(await h.page.$('.feed-banner'));
    await h.page.click('#notice-open-in-browser');
    const actions = (await h.posted()).filter((m) => m.type !== 'ready').map((m) => m.type);
    assert.deepEqual(actions, ['openInBrowser']);
    // a server's text is text, one line, cut
    const hostile = `<img src=x onerror=alert(1)>\n${'y'.repeat(2000)}`;
    const shown = await notice({ notice: hostile });
    assert.ok(shown.startsWith('<img src=x onerror=alert(1)> y'), shown.slice(0, 80));
    assert.ok(shown.length < 700, `${shown.length} characters`);
    assert.equal(await h.page.$('.history-notice img'), null);
    await h.post({ type: 'header', header: header({ notice: null }) });
    await settle(h);
    assert.equal(await h.page.$('.history-notice'), null, 'gone when the host says nothing');
  });

  it('shows "No events yet" for an empty transcript, with the not-live banner', async () => {
    const h = await page();
    await load(h, [], { feed: 'offline', feedDetail: 'the sandbox is paused', canResume: true });
    assert.equal(await h.page.isVisible('text=No events yet'), true);
    assert.equal(await h.page.isVisible('#resume-sandbox'), true);
  });

  it('renders only the rows near the viewport of a long transcript, stuck to the bottom', async () => {
    const h = await page({ height: 800 });
    const rows = generateRows(3000, 2);
    await load(h, rows);
    const state = await scrollState(h);
    assert.ok(state.rendered > 0 && state.rendered < 80, `rows in the DOM: ${state.rendered}`);
    assert.ok(state.max - state.top < 2, 'at the bottom');
    const last = rows[rows.length - 1] as Row;
    const lastTop = await rowTop(h, last.id);
    assert.ok(lastTop !== undefined && lastTop < 800, 'the newest row is visible');
    // new rows at the end are followed
    const next = resendMessages(rows, EPOCH, header()).length;
    await h.post({
      type: 'rows',
      epoch: EPOCH,
      rev: next,
      at: 'end',
      rows: [message('late', 'late row\n\nwith two paragraphs')],
    });
    await h.page.waitForSelector('[data-row-id="late"]');
    await settle(h);
    const after = await scrollState(h);
    assert.ok(after.max - after.top < 2, 'still at the bottom');
    assert.equal(await h.page.$('.jump'), null, 'no "new" button while following');
  });

  it('keeps the reader in place when rows arrive below and above, and offers "↓ N new"', async () => {
    const h = await page({ height: 800 });
    const rows = generateRows(1200, 4);
    const recent = rows.slice(200);
    const older = rows.slice(0, 200);
    await load(h, recent);
    let rev = resendMessages(recent, EPOCH, header()).length;
    // scroll up by a few screens
    await h.page.evaluate(() => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      scroller.scrollTop -= 3000;
    });
    await settle(h);
    const anchorId = await h.page.evaluate(() => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      const top = scroller.getBoundingClientRect().top;
      const rowsInDom = Array.from(document.querySelectorAll('.rows > .row'));
      return (
        rowsInDom.find((r) => r.getBoundingClientRect().bottom > top + 100)?.getAttribute('data-row-id') ?? ''
      );
    });
    const before = await rowTop(h, anchorId);
    assert.ok(before !== undefined);
    // rows below
    await h.post({
      type: 'rows',
      epoch: EPOCH,
      rev: rev++,
      at: 'end',
      rows: [message('n1', 'new one'), message('n2', 'new two'), message('n3', 'new three')],
    });
    await h.page.waitForSelector('.jump.has-new');
    const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1;
    assert.ok(near(await rowTop(h, anchorId), before), 'rows added below move nothing');
    assert.match((await h.page.textContent('.jump')) ?? '', /3 new/);
    // older rows above (history read backwards)
    await h.post({ type: 'rows', epoch: EPOCH, rev: rev++, at: 'start', rows: older });
    await settle(h);
    await settle(h);
    assert.ok(near(await rowTop(h, anchorId), before), 'rows inserted above move nothing on screen');
    const setsize = await h.page.getAttribute('.rows > .row', 'aria-setsize');
    assert.equal(setsize, String(rows.length + 3));
    // what is kept for a reload: where the reader is, no text of any row
    await h.page.waitForTimeout(400);
    const states = await h.page.evaluate(() => (window as unknown as HarnessWindow).__harness.states);
    const lastState = states[states.length - 1] as {
      stuck: boolean;
      top?: { id: string };
      conversationId?: string;
    };
    assert.equal(lastState.stuck, false);
    assert.equal(lastState.conversationId, header().conversationId);
    assert.ok(lastState.top?.id);
    const kept = JSON.stringify(states);
    for (const row of rows.slice(-50)) {
      if (row.kind === 'message')
        assert.ok(!kept.includes(row.markdown.slice(0, 30)), 'no row text in the state');
    }
    assert.deepEqual(Object.keys(lastState).sort(), ['conversationId', 'stuck', 'top', 'version']);
    // back to the bottom
    await h.page.click('.jump');
    await settle(h);
    const state = await scrollState(h);
    assert.ok(state.max - state.top < 2);
    assert.notEqual(await h.page.$('[data-row-id="n3"]'), null);
    assert.equal(await h.page.$('.jump'), null);
  });

  it('goes back to where the reader was after a reload', async () => {
    const rows = generateRows(1500, 5);
    const target = rows[300] as Row;
    const h = await page({
      height: 800,
      initialState: {
        version: 1,
        conversationId: header().conversationId,
        stuck: false,
        top: { id: target.id, delta: 0 },
      },
    });
    await load(h, rows);
    await settle(h);
    const top = await rowTop(h, target.id);
    assert.ok(top !== undefined && Math.abs(top) < 2, `the row is at the top again (${top})`);
    assert.equal(await h.page.isVisible('.jump'), true, 'not following the end');
  });

  it('keeps a huge output inside its block', async () => {
    const h = await page({ height: 800 });
    const output = `${'0123456789'.repeat(100_000)}\n${'line\n'.repeat(5000)}`;
    const row: Row = {
      id: 'big',
      timestamp: '',
      kind: 'action',
      tool: 'terminal',
      summary: 'cat big.log',
      risk: 'LOW',
      state: 'done',
      terminal: { command: 'cat big.log', output, exitCode: 0 },
    };
    await load(h, [message('a', 'before'), row, message('b', 'after')]);
    const box = await h.page.evaluate(() => {
      const pre = document.querySelector('[data-row-id="big"] pre.output') as HTMLElement;
      return {
        height: pre.getBoundingClientRect().height,
        scrollWidth: pre.scrollWidth,
        width: pre.clientWidth,
      };
    });
    assert.ok(box.height < 400, `max height kept (${box.height})`);
    assert.ok(box.scrollWidth > box.width, 'long lines scroll sideways');
    assert.notEqual(await h.page.$('[data-row-id="b"]'), null);
  });
});
