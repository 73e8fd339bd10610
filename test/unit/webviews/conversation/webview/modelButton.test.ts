// The header's model picker in real Chromium: the model is a button that asks the host (a numbered
// control); it waits while any control is under way; the host's refusal is shown in words; a hostile
// model name is text. Without Chromium it fails on CI and skips elsewhere.
import assert from 'node:assert/strict';
import type { Header, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import { header } from './fixtureRows';
import type { Harness } from './harness';
import { usePages } from './pageSuite';

describe('conversation page: the model picker in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();

  const load = (head: Header) => pages.withHeader(head);

  const asked = async (h: Harness) =>
    (await h.posted()).filter(
      (m): m is Extract<WebviewToHost, { type: 'switchModel' }> => m.type === 'switchModel',
    );

  it('shows the model as a button; a click asks the host once, by id', async () => {
    const h = await load(header());
    const button = h.page.locator('#model-picker');
    assert.equal(((await button.textContent()) ?? '').trim(), 'litellm_proxy/claude-sonnet-4-5-20250929');
    await button.click();
    const [request, ...more] = await asked(h);
    assert.deepEqual(more, []);
    assert.equal(typeof request?.id, 'number');
  });

  it('waits while a control is under way, and shows the host’s refusal in words', async () => {
    const h = await load(header({ controls: { ...header().controls, busy: 'approve' } }));
    assert.equal(await h.page.locator('#model-picker[disabled]').count(), 1);
    await h.page.locator('#model-picker').click({ force: true });
    assert.deepEqual(await asked(h), []);
    await h.post({ type: 'header', header: header() });
    await h.page.locator('#model-picker:not([disabled])').click();
    const [request] = await asked(h);
    assert.ok(request);
    const refusal =
      'The model was not switched: the sandbox is paused. Resume the sandbox, then switch the model.';
    await h.post({ type: 'reply', id: request.id, ok: false, error: refusal });
    await h.page.waitForSelector('.control-error');
    assert.equal(((await h.page.textContent('.control-error')) ?? '').trim(), refusal);
  });

  it('shows no picker without a model, and a hostile model name as text', async () => {
    const none = await load(header({ model: null }));
    assert.equal(await none.page.locator('#model-picker').count(), 0);
    const evil = '<img src=x onerror="window.__pwned=1">';
    const h = await load(header({ model: evil }));
    assert.equal(await h.page.locator('.header-meta img').count(), 0);
    assert.equal(((await h.page.textContent('#model-picker .model-name')) ?? '').trim(), evil);
    assert.equal(await h.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });
});
