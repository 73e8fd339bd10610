// The header's "Started from your local state" line in real Chromium: the summary as text, the lists
// shown on a click, a hostile subject or path drawn as text (no element made of it), nothing without a
// hand-off. Without Chromium it fails on CI and skips elsewhere.
import assert from 'node:assert/strict';
import type { Header } from '../../../../../src/webviews/conversation/shared/protocol';
import { header } from './fixtureRows';
import { usePages } from './pageSuite';

const HOSTILE = '<img src=x onerror="document.title=\'ran\'">';

describe('conversation page: started from your local state, in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();

  const load = (head: Header) => pages.withHeader(head);

  it('says what was handed over, and lists the commits and files on a click, hostile ones as text', async () => {
    const h = await load(
      header({
        handedOver: {
          summary: 'Started from your local state: 3 commits, 5 files',
          lists: [
            {
              heading: 'Commits not on the remote',
              items: ['Add the login form', HOSTILE],
              more: 'and 1 more',
            },
            { heading: 'Edited files', items: ['src/login.ts', `${HOSTILE}.ts`], more: null },
          ],
        },
      }),
    );
    const summary = h.page.locator('.handed-over > summary');
    assert.equal(
      ((await summary.textContent()) ?? '').trim(),
      'Started from your local state: 3 commits, 5 files',
    );
    assert.equal(await h.page.locator('.handed-lists').isVisible(), false, 'closed until asked');
    await summary.click();
    assert.equal(await h.page.locator('.handed-lists').isVisible(), true);
    const items = await h.page.locator('.handed-list li').allTextContents();
    assert.deepEqual(
      items.map((item) => item.trim()),
      ['Add the login form', HOSTILE, 'src/login.ts', `${HOSTILE}.ts`],
    );
    assert.equal(((await h.page.locator('.handed-more').textContent()) ?? '').trim(), 'and 1 more');
    assert.equal(await h.page.locator('.handed-over img').count(), 0, 'no element made of a subject or path');
    assert.notEqual(await h.page.title(), 'ran');
  });

  it('shows nothing for a conversation started without local state', async () => {
    const h = await load(header({ handedOver: null }));
    assert.equal(await h.page.locator('.handed-over').count(), 0);
  });
});
