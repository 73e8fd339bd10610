// The header's branch and pull requests in real Chromium: the branch and `#12` as text, a PR link that
// goes to the host (never followed by the page), a PR without a link as plain text, a hostile branch
// name drawn as text, and the two buttons asking the host. Without Chromium it fails on CI and skips elsewhere.
import assert from 'node:assert/strict';
import type { Header, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import { header } from './fixtureRows';
import { usePages } from './pageSuite';

const PR_URL = 'https://github.com/acme/app/pull/12';

describe('conversation page: the agent’s branch and pull requests in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();

  const load = (head: Header) => pages.withHeader(head);

  it('names the branch and links #12; the link and the buttons ask the host', async () => {
    const h = await load(
      header({
        git: {
          repository: 'acme/app',
          branch: 'openhands/fix-login',
          pullRequests: [
            { number: 12, url: PR_URL },
            { number: 14, url: null },
          ],
        },
      }),
    );
    assert.equal(((await h.page.locator('.agent-branch').textContent()) ?? '').trim(), 'openhands/fix-login');
    const link = h.page.locator('.agent-git a.pr-link');
    assert.equal(await link.count(), 1);
    assert.equal(await link.getAttribute('href'), PR_URL);
    assert.equal(((await h.page.locator('.agent-git .pr-number').textContent()) ?? '').trim(), '#14');
    await link.click();
    await h.page.locator('#check-out-branch').click();
    await h.page.locator('#open-pull-request').click();
    const asked = (await h.posted()).filter(
      (m): m is Extract<WebviewToHost, { type: 'openLink' | 'branchAction' }> =>
        m.type === 'openLink' || m.type === 'branchAction',
    );
    assert.deepEqual(asked, [
      { type: 'openLink', url: PR_URL },
      { type: 'branchAction', action: 'checkOut' },
      { type: 'branchAction', action: 'openPullRequest' },
    ]);
  });

  it('draws a hostile branch as text, makes no link of a non-http address, and shows nothing without either', async () => {
    const h = await load(
      header({
        git: {
          repository: null,
          branch: '<img src=x onerror=alert(1)>',
          pullRequests: [{ number: 3, url: 'javascript:alert(1)' }],
        },
      }),
    );
    assert.equal(await h.page.locator('.agent-git img').count(), 0);
    assert.equal(
      ((await h.page.locator('.agent-branch').textContent()) ?? '').trim(),
      '<img src=x onerror=alert(1)>',
    );
    assert.equal(await h.page.locator('.agent-git a').count(), 0);
    assert.equal(await h.page.locator('#check-out-branch').count(), 0, 'no repository: nothing to check out');
    const empty = await load(header({ git: null }));
    assert.equal(await empty.page.locator('.agent-git').count(), 0);
  });
});
