// The conversation panel's list of the agent's changed files in real Chromium: the fold with the
// count, each file with its status letter (a click asks the host for its diff), the buttons (Open
// All, Apply, Save as Patch), the empty and failed states, and hostile paths shown as text.
// Without Chromium it fails on CI and skips elsewhere (test/shared/chromium.ts).
import assert from 'node:assert/strict';
import type {
  Header,
  PanelChanges,
  WebviewToHost,
} from '../../../../../src/webviews/conversation/shared/protocol';
import { header, resendMessages } from './fixtureRows';
import type { Harness, HarnessWindow } from './harness';
import { usePages } from './pageSuite';

const EPOCH = 1_700_000_000_000;

function withChanges(changes: PanelChanges): Header {
  return { ...header(), changes };
}

const FILES: PanelChanges['files'] = [
  { path: 'src/app.ts', status: 'UPDATED' },
  { path: 'notes/new.md', status: 'ADDED' },
  { path: 'old.txt', status: 'DELETED' },
  { path: '<img src=x onerror="window.__pwned=1">/evil<b>.md', status: 'ADDED' },
];

describe('conversation page: the agent’s changed files in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();

  const load = (head: Header) => pages.withHeader(head, '.changes');

  async function sent(h: Harness): Promise<WebviewToHost[]> {
    return (await h.posted()).filter((m) => m.type !== 'ready');
  }

  const text = async (h: Harness, selector: string) =>
    ((await h.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

  /** The text once the page has drawn what was posted (it draws on its next frame), or as it stands. */
  async function textOnceDrawn(h: Harness, selector: string, expected: RegExp): Promise<string> {
    await h.page
      .waitForFunction(
        ([sel, source]) =>
          new RegExp(source).test(
            (document.querySelector(sel)?.textContent ?? '').replace(/\s+/g, ' ').trim(),
          ),
        [selector, expected.source] as const,
        { timeout: 5000 },
      )
      .catch(() => undefined); // the assertion below says what the page shows instead
    return text(h, selector);
  }

  it('folds the list under a count; opening it shows each file with its status, folder and buttons', async () => {
    const h = await load(withChanges({ state: 'ready', files: FILES, message: null }));
    assert.equal(await text(h, '.changes summary'), 'Changes: 4 files');
    assert.equal(await h.page.locator('.change-file').first().isVisible(), false, 'folded at first');
    await h.page.click('.changes summary');
    assert.equal(await h.page.locator('.change-file').count(), 4);
    assert.deepEqual(
      await h.page.$$eval('.change-badge', (badges) => badges.map((badge) => badge.textContent)),
      ['M', 'A', 'D', 'A'],
    );
    assert.equal(await text(h, '.change-file >> nth=0'), 'M app.ts src');
    for (const id of ['#changes-open-all', '#changes-apply', '#changes-save-patch'])
      assert.equal(await h.page.locator(id).isVisible(), true, `${id} shows`);
  });

  it('asks the host for a file’s diff and for each button’s action', async () => {
    const h = await load(withChanges({ state: 'ready', files: FILES, message: null }));
    await h.page.click('.changes summary');
    await h.page.click('.change-file >> nth=1');
    await h.page.click('#changes-open-all');
    await h.page.click('#changes-apply');
    await h.page.click('#changes-save-patch');
    assert.deepEqual(await sent(h), [
      { type: 'openChange', file: { path: 'notes/new.md', status: 'ADDED' } },
      { type: 'changes', action: 'openAll' },
      { type: 'changes', action: 'apply' },
      { type: 'changes', action: 'savePatch' },
    ]);
  });

  it('marks a file that can run code, with its reason, and sends it back as the host gave it', async () => {
    const reason = 'VS Code runs its tasks, some as soon as the folder opens (runOn: folderOpen)';
    const tasks = { path: '.vscode/tasks.json', status: 'ADDED' as const, runsCode: reason };
    const h = await load(withChanges({ state: 'ready', files: [...FILES, tasks], message: null }));
    await h.page.click('.changes summary');
    assert.equal(await h.page.locator('.change-runs-code').count(), 1, 'only that file is marked');
    assert.equal(await text(h, '.change-file >> nth=4'), 'A tasks.json .vscode can run code');
    const title = await h.page.getAttribute('.change-file >> nth=4', 'title');
    assert.match(title ?? '', /Can run code on your machine: VS Code runs its tasks/);
    assert.equal(
      await h.page.getAttribute('.change-runs-code', 'aria-label'),
      `Can run code on your machine: ${reason}.`,
    );
    await h.page.click('.change-file >> nth=4');
    assert.deepEqual(await sent(h), [{ type: 'openChange', file: tasks }]);
  });

  it('shows a hostile path as text, never as markup', async () => {
    const h = await load(withChanges({ state: 'ready', files: FILES, message: null }));
    await h.page.click('.changes summary');
    assert.equal(await h.page.locator('.changes img, .changes b').count(), 0, 'no element from a path');
    assert.equal(await text(h, '.change-file >> nth=3 >> .change-name'), 'evil<b>.md');
    assert.equal(await h.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  it('says when nothing changed yet, while it reads, and why it could not read (keeping the last list)', async () => {
    const h = await load(withChanges({ state: 'ready', files: [], message: null }));
    assert.equal(await text(h, '.changes summary'), 'Changes: none yet');
    await h.page.click('.changes summary');
    assert.match(await text(h, '.changes'), /has not changed any file/);
    await h.post({ type: 'header', header: withChanges({ state: 'unread', files: [], message: null }) });
    assert.equal(await textOnceDrawn(h, '.changes summary', /^Changes: reading…$/), 'Changes: reading…');
    await h.post({
      type: 'header',
      header: withChanges({ state: 'failed', files: FILES.slice(0, 1), message: 'The sandbox is paused.' }),
    });
    assert.match(await textOnceDrawn(h, '.changes', /The sandbox is paused\./), /The sandbox is paused\./);
    assert.equal(await h.page.locator('.change-file').count(), 1, 'the last list stays');
  });

  it('keeps the fold open across a reload (the page is rebuilt whenever the panel comes back)', async () => {
    const head = withChanges({ state: 'ready', files: FILES, message: null });
    const h = await load(head);
    await h.page.click('.changes summary');
    // saved at once: a click on a file right after hides the page
    const states = await h.page.evaluate(() => (window as unknown as HarnessWindow).__harness.states);
    const kept = states[states.length - 1] as Record<string, unknown> | undefined;
    assert.equal(kept?.['changesOpen'], true, 'saved as open');
    const next = await pages.page({ initialState: kept });
    for (const m of resendMessages([], EPOCH, head)) await next.post(m);
    await next.page.waitForSelector('.changes');
    assert.equal(await next.page.locator('.changes[open]').count(), 1, 'open again after the reload');
  });

  it('shows no list where the host keeps no changes', async () => {
    const h = await pages.page();
    for (const m of resendMessages([], EPOCH, header())) await h.post(m);
    await h.page.waitForSelector('#message-input');
    assert.equal(await h.page.locator('.changes').count(), 0);
  });
});
