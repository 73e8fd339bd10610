// The header's cost, tokens and context in real Chromium: the line as the host says it, a click that
// opens the breakdown (and asks the host for nothing), a newer header that updates both in place, the
// warning, and hostile words shown as text. Without Chromium it fails on CI and skips elsewhere.
import assert from 'node:assert/strict';
import type { Header, Usage, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import { header } from './fixtureRows';
import type { Harness } from './harness';
import { usePages } from './pageSuite';

function usage(overrides: Partial<Usage> = {}): Usage {
  return {
    summary: '$0.42 · 215k tokens · context 58 %',
    contextPercent: 58,
    warning: null,
    breakdown: [
      { label: 'Cost', value: '$0.42' },
      { label: 'Prompt tokens', value: '200,000' },
      { label: 'Completion tokens', value: '15,000' },
      { label: 'Cache read tokens', value: '120,000' },
      { label: 'Cache write tokens', value: '8,000' },
      { label: 'Reasoning tokens', value: '2,000' },
      { label: 'Newest call', value: '116,000 tokens' },
      { label: 'Context window', value: '200,000 tokens (58 % used)' },
    ],
    source: 'live',
    ...overrides,
  };
}

describe('conversation page: cost, tokens and context in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();

  const load = (head: Header) => pages.withHeader(head);

  const text = async (h: Harness, selector: string) =>
    ((await h.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

  async function rows(h: Harness): Promise<string[][]> {
    return h.page.$$eval('#usage-breakdown tr', (trs) =>
      trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']),
    );
  }

  it('shows no line before any LLM call is known', async () => {
    const h = await load(header());
    assert.equal(await h.page.locator('#usage-toggle').count(), 0);
  });

  it('shows the line; a click opens the breakdown and another closes it, asking the host for nothing', async () => {
    const h = await load(header({ usage: usage() }));
    assert.equal(await text(h, '#usage-toggle'), '$0.42 · 215k tokens · context 58 %');
    assert.equal(await h.page.getAttribute('#usage-toggle', 'aria-expanded'), 'false');
    assert.equal(await h.page.locator('#usage-breakdown').count(), 0, 'closed at first');
    await h.page.click('#usage-toggle');
    await h.page.waitForSelector('#usage-breakdown');
    assert.equal(await h.page.getAttribute('#usage-toggle', 'aria-expanded'), 'true');
    assert.deepEqual((await rows(h))[1], ['Prompt tokens', '200,000']);
    assert.equal((await rows(h)).length, 8);
    await h.page.click('#usage-toggle');
    await h.page.waitForSelector('#usage-breakdown', { state: 'detached' });
    const sent: WebviewToHost[] = (await h.posted()).filter((m) => m.type !== 'ready');
    assert.deepEqual(sent, []);
  });

  it('updates the line and the open breakdown in place when a newer header comes', async () => {
    const h = await load(header({ usage: usage() }));
    await h.page.click('#usage-toggle');
    const newer = usage({
      summary: '$0.57 · 260k tokens · context 61 %',
      breakdown: [{ label: 'Cost', value: '$0.57' }],
    });
    await h.post({ type: 'header', header: header({ usage: newer }) });
    await h.page.waitForFunction(() =>
      document.querySelector('#usage-toggle')?.textContent?.includes('$0.57'),
    );
    assert.deepEqual(await rows(h), [['Cost', '$0.57']]);
    assert.equal(await h.page.getAttribute('#usage-toggle', 'aria-expanded'), 'true', 'still open');
  });

  it('marks the line and says why when the budget or the context is nearly used up', async () => {
    const warning = '82 % of the budget ($5.00) used';
    const h = await load(header({ usage: usage({ summary: '$4.10 of $5.00 · 215k tokens', warning }) }));
    assert.equal(await h.page.locator('#usage-toggle.usage-warn .codicon-warning').count(), 1);
    assert.match((await h.page.getAttribute('#usage-toggle', 'title')) ?? '', /^82 % of the budget/);
    await h.page.click('#usage-toggle');
    assert.equal(await text(h, '.usage-warning'), warning);
  });

  it('says when the figures are the server’s list, not yet live', async () => {
    const h = await load(header({ usage: usage({ source: 'list' }) }));
    await h.page.click('#usage-toggle');
    assert.match(await text(h, '.usage-note'), /As last listed by the server/);
  });

  it('shows hostile words as text, never as markup', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const h = await load(
      header({ usage: usage({ summary: evil, breakdown: [{ label: evil, value: `<b>${evil}</b>` }] }) }),
    );
    await h.page.click('#usage-toggle');
    assert.equal(
      await h.page.locator('.header-meta img, #usage-breakdown img, #usage-breakdown b').count(),
      0,
    );
    assert.equal(await text(h, '.usage-summary'), evil);
    assert.equal(await h.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });
});
