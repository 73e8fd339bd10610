// Markdown from the agent in real Chromium (the harness: the built page, VS Code's CSP): nothing of
// the HTML it holds survives (no script, frame, style, form, image, event attribute, srcset), links
// stay only for http(s) and mailto, and clicking one posts openLink instead of navigating.
// Without Chromium it fails on CI and skips elsewhere (test/shared/chromium.ts).
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { Row } from '../../../../../src/webviews/conversation/shared/rows';
import { header, resendMessages } from './fixtureRows';
import { buildPage, launchChromium, openHarness, ORIGIN, type Harness, type HarnessWindow } from './harness';
import { requireChromium } from '../../../../shared/chromium';

const HOSTILE = [
  'Hostile payloads follow.',
  '',
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<a href="javascript:window.__pwned=3">raw js link</a>',
  '<a href="command:workbench.action.terminal.new">raw command link</a>',
  '<a href="file:///etc/passwd">raw file link</a>',
  '<a href="https://example.com/raw" onclick="window.__pwned=4" target="_blank">raw https link</a>',
  '<a href="&#106;avascript:window.__pwned=5">entity js link</a>',
  '',
  '[md js link](javascript:window.__pwned=6)',
  '[md command link](command:workbench.action.files.openFile)',
  '[md file link](file:///etc/passwd)',
  '[md data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[md vscode link](vscode://openhands.openhands-vscode/conversation?id=1)',
  '[ref js link][evil]',
  '',
  '[evil]: javascript:window.__pwned=7',
  '',
  '![tracking pixel](https://evil.example/pixel.png)',
  '![data image](data:image/png;base64,iVBORw0KGgo=)',
  '<img srcset="https://evil.example/set.png 1x" alt="srcset">',
  '<style>body { display: none }</style>',
  '<form action="https://evil.example/post"><input name="q"><button>go</button></form>',
  '<div onclick="window.__pwned=8" onmouseover="window.__pwned=9">div with events</div>',
  '<svg onload="window.__pwned=10"><circle r="1"></circle></svg>',
  '<math><mi xlink:href="javascript:window.__pwned=11">math</mi></math>',
  '<object data="https://evil.example/x"></object><embed src="https://evil.example/y">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<base href="https://evil.example/">',
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=12>"></p></noscript>',
  '<details open ontoggle="window.__pwned=13"><summary>toggle</summary>x</details>',
  '',
  '[good md link](https://example.com/docs) and <https://example.com/auto> and www.example.org',
  'and [mail](mailto:someone@example.com) and `<script>code span</script>`',
  '',
  '```html',
  '<script>window.__pwned=14</script>',
  '```',
].join('\n');

function hostileRow(markdown = HOSTILE): Row {
  return { id: 'hostile', timestamp: '2026-11-23T19:49:01.000001', kind: 'message', role: 'agent', markdown };
}

describe('conversation page in Chromium: sanitised markdown', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let dir = '';
  let harness: Harness | undefined;

  before(async function () {
    requireChromium(this);
    dir = await buildPage();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  beforeEach(async function () {
    if (!browser) return this.skip();
    harness = await openHarness({ browser, dir, theme: 'dark' });
    for (const message of resendMessages([hostileRow()], 1, header())) await harness.post(message);
    await harness.page.waitForSelector('[data-row-id="hostile"] .markdown p');
    // give an event handler, a load or a style the time to act, if one got through
    await harness.page.waitForTimeout(200);
  });

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('leaves no script, frame, style, form, image, object or event attribute', async () => {
    const h = harness as Harness;
    const found = await h.page.evaluate(() => {
      const app = document.getElementById('app') as HTMLElement;
      const markdown = document.querySelector('[data-row-id="hostile"] .markdown') as HTMLElement;
      const onAttributes: string[] = [];
      for (const element of Array.from(document.querySelectorAll('*')))
        for (const attribute of Array.from(element.attributes))
          if (attribute.name.toLowerCase().startsWith('on'))
            onAttributes.push(`${element.tagName} ${attribute.name}`);
      return {
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        onAttributes,
        scriptsInDocument: document.querySelectorAll('script').length,
        // the page's own controls (the composer's input and checkbox) are not the agent's
        inApp: Array.from(
          app.querySelectorAll(
            'script, iframe, frame, style, form, input, img, picture, source, object, embed, svg, math, link, meta, base, noscript, video, audio',
          ),
        )
          .filter((e) => !e.closest('.composer-slot'))
          .map((e) => e.tagName),
        markdownTags: [
          ...new Set(Array.from(markdown.querySelectorAll('*')).map((e) => e.tagName.toLowerCase())),
        ].sort(),
        attributes: [
          ...new Set(
            Array.from(markdown.querySelectorAll('*')).flatMap((e) =>
              Array.from(e.attributes).map((a) => a.name),
            ),
          ),
        ].sort(),
        srcset: document.querySelectorAll('[srcset], [src]').length,
        bodyShown: getComputedStyle(document.body).display !== 'none',
        text: markdown.textContent ?? '',
      };
    });
    assert.equal(found.pwned, undefined, 'no payload ran');
    assert.deepEqual(found.onAttributes, []);
    assert.equal(found.scriptsInDocument, 2, "the harness's shim and the page's bundle, nothing else");
    assert.deepEqual(found.inApp, []);
    assert.equal(found.srcset, 2, 'only the two scripts have a src; nothing has a srcset');
    assert.ok(found.bodyShown, 'no style applied');
    for (const tag of found.markdownTags)
      assert.ok(
        ['a', 'blockquote', 'code', 'del', 'em', 'li', 'ol', 'p', 'pre', 'strong', 'ul', 'br'].includes(tag),
        `unexpected <${tag}>`,
      );
    for (const name of found.attributes)
      assert.ok(['href', 'title', 'rel'].includes(name), `unexpected ${name}=`);
    // the HTML is shown as the text it is, not dropped without a trace
    assert.match(found.text, /<script>window.__pwned=2<\/script>/);
    assert.match(found.text, /<iframe src="https:\/\/evil.example\/frame"><\/iframe>/);
    assert.match(found.text, /tracking pixel/, 'an image is its alt text');
    assert.ok(h.foreignRequests.length === 0, `nothing loaded from outside: ${h.foreignRequests.join(', ')}`);
    const violations = await h.page.evaluate(() => (window as unknown as HarnessWindow).__harness.violations);
    assert.deepEqual(violations, [], 'nothing even tried what the CSP forbids');
  });

  it('keeps links only for http, https and mailto', async () => {
    const h = harness as Harness;
    const links = await h.page.evaluate(() =>
      Array.from(document.querySelectorAll('#app a')).map((a) => ({
        text: a.textContent,
        href: a.getAttribute('href'),
        target: a.getAttribute('target'),
      })),
    );
    for (const link of links) {
      if (link.href === null) continue;
      assert.match(link.href, /^(https?:\/\/|mailto:)/i, `${link.text}: ${link.href}`);
      assert.equal(link.target, null);
    }
    const hrefs = links.map((l) => l.href).filter((href): href is string => href !== null);
    assert.deepEqual(hrefs.sort(), [
      'http://www.example.org/',
      'https://example.com/auto',
      'https://example.com/docs',
      'mailto:someone@example.com',
    ]);
    // a refused link keeps its text, as text
    const text = await h.page.textContent('[data-row-id="hostile"] .markdown');
    assert.match(text ?? '', /md js link/);
    assert.match(text ?? '', /md command link/);
    assert.match(text ?? '', /md file link/);
  });

  it('posts openLink on a click and never navigates', async () => {
    const h = harness as Harness;
    let navigations = 0;
    h.page.on('framenavigated', () => navigations++);
    const popups: string[] = [];
    h.page.on('popup', (popup) => popups.push(popup.url()));
    await h.page.click('a[href="https://example.com/docs"]');
    await h.page.click('a[href="https://example.com/docs"]', { button: 'middle' });
    await h.page.click('a[href="https://example.com/docs"]', { modifiers: ['Control'] });
    await h.page.click('a[href="mailto:someone@example.com"]');
    await h.page.focus('a[href="https://example.com/auto"]');
    await h.page.keyboard.press('Enter');
    // the refused links are text: clicking their words does nothing
    await h.page.getByText('md js link').click();
    await h.page.waitForTimeout(200);
    const opened = (await h.posted()).filter((m) => m.type === 'openLink');
    assert.deepEqual(
      opened.map((m) => m.type === 'openLink' && m.url),
      [
        'https://example.com/docs',
        'https://example.com/docs',
        'https://example.com/docs',
        'mailto:someone@example.com',
        'https://example.com/auto',
      ],
    );
    assert.equal(h.page.url(), `${ORIGIN}/index.html`);
    assert.equal(navigations, 0);
    assert.deepEqual(popups, []);
  });

  it('renders a huge markdown text as plain text, and stays responsive', async () => {
    const h = harness as Harness;
    const huge = `<script>window.__pwned=99</script>\n${'word '.repeat(60_000)}`;
    await h.post({ type: 'rows', epoch: 1, rev: 2, at: 'end', rows: [hostileRow(huge)] });
    await h.page.waitForSelector('[data-row-id="hostile"] pre.plain-markdown');
    const box = await h.page.evaluate(() => {
      const pre = document.querySelector('[data-row-id="hostile"] pre.plain-markdown') as HTMLElement;
      return {
        height: pre.getBoundingClientRect().height,
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      };
    });
    assert.ok(box.height < 600, `the block keeps its max height (${box.height})`);
    assert.equal(box.pwned, undefined);
  });
});
