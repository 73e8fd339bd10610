// The conversation page's sheets: one per view, next to its code, and `conversation.css` imports them
// all, in the order of the cascade. Built as `scripts/build/pages.mjs` builds the pages, they are one
// stylesheet, each sheet whole and in that order, with no @import left for the page to fetch (its CSP
// would refuse it).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { pageBuildOptions } from '../../../../../scripts/build/pages.mjs';
import { REPOSITORY_ROOT } from '../../../../shared/repository';

const ROOT = REPOSITORY_ROOT;
const PAGE = 'src/webviews/conversation/webview';
const INDEX = 'conversation.css';

/** The sheets `conversation.css` imports, in its order. */
function imported(): string[] {
  const text = readFileSync(path.join(ROOT, PAGE, INDEX), 'utf8');
  return [...text.matchAll(/^@import '\.\/([\w-]+\.css)';$/gm)].map((match) => match[1] ?? '');
}

describe('conversation page sheets', function () {
  this.timeout(60_000);

  it('conversation.css imports every sheet of the page once, and nothing else', () => {
    const sheets = readdirSync(path.join(ROOT, PAGE)).filter(
      (name) => name.endsWith('.css') && name !== INDEX,
    );
    const order = imported();
    assert.ok(sheets.length > 1, sheets.join(', '));
    assert.deepEqual([...order].sort(), [...sheets].sort());
    assert.equal(new Set(order).size, order.length, `imported twice: ${order.join(', ')}`);
    const rest = readFileSync(path.join(ROOT, PAGE, INDEX), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^@import '\.\/[\w-]+\.css';$/gm, '')
      .trim();
    assert.equal(rest, '', 'conversation.css holds only the imports');
  });

  it('the build makes them one stylesheet, in that order, with no @import left', async () => {
    const result = await esbuild.build({
      ...pageBuildOptions({ outdir: 'out/page-sheets-test' }),
      absWorkingDir: ROOT,
      write: false,
      logLevel: 'silent',
    });
    const outputs = result.outputFiles.filter((file) => file.path.endsWith('.css'));
    const built = outputs.find((file) => path.basename(file.path) === INDEX);
    assert.ok(built, outputs.map((file) => file.path).join(', '));
    // the unminified build heads each sheet's rules with its path
    const heads = [
      ...built.text.matchAll(/^\/\* (src\/webviews\/conversation\/webview\/[\w-]+\.css) \*\/$/gm),
    ].map((match) => path.basename(match[1] ?? ''));
    assert.deepEqual(heads, [...imported(), INDEX]);
    assert.doesNotMatch(built.text, /@import/);
    for (const sheet of imported()) {
      // each sheet's last rule made it into the bundle
      const source = readFileSync(path.join(ROOT, PAGE, sheet), 'utf8');
      const last = source.trim().split('\n\n').pop() ?? '';
      const selector = last.split('{')[0]?.trim() ?? '';
      assert.ok(selector && built.text.includes(selector), `${sheet}: ${selector}`);
    }
  });
});
