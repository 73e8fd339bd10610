// The build's codicon subset (scripts/build/codicons.mjs): the icons a page names are in the font and
// the stylesheet, read back from the font's own character map; the others are not.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codiconsNamedIn, writeCodicons } from '../../../scripts/build/codicons.mjs';

/** The code point codicon.css gives an icon. */
function codePointOf(css: string, name: string): number | undefined {
  const match = new RegExp(`^\\.codicon-${name}:before \\{ content: "\\\\([0-9a-f]+)" \\}$`, 'm').exec(css);
  return match?.[1] ? parseInt(match[1], 16) : undefined;
}

describe('codicon subset (build)', () => {
  it('finds names after codicon- and whole strings, not words of code or prose', () => {
    const names = ['vm', 'debug-start', 'add', 'pass', 'account', 'git-merge', 'target', 'json', 'map'];
    const found = codiconsNamedIn(
      `html\`<span class="codicon codicon-vm"></span><vscode-button icon="debug-start">\`; const x = 'add';
       const y = \`pass\`; const accounts = 1; // git-merged
       items.map((e) => e.target); /* read as JSON */ const z = "json text";`,
      names,
    );
    assert.deepEqual([...found].sort(), ['add', 'debug-start', 'pass', 'vm']);
  });

  it('keeps exactly the named glyphs in the font and the stylesheet', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codicons-'));
    try {
      const page = path.join(dir, 'page.js');
      fs.writeFileSync(page, `icon("codicon-vm"); button.icon = 'debug-start'; '.codicon-modifier-spin'`);
      const result = await writeCodicons({ pages: [page, path.join(dir, 'missing.css')], outDir: dir });
      assert.equal(result.icons, 2);
      assert.ok(result.of > 400, `only ${result.of} icons in codicon.css`);

      const css = fs.readFileSync(path.join(dir, 'codicon.css'), 'utf8');
      const whole = fs.readFileSync('node_modules/@vscode/codicons/dist/codicon.css', 'utf8');
      assert.ok(codePointOf(css, 'vm') && codePointOf(css, 'debug-start'));
      assert.equal(codePointOf(css, 'account'), undefined);
      // what is not a glyph stays: the font face and the spinning modifier
      assert.match(css, /@font-face/);
      assert.match(css, /\.codicon-modifier-spin/);

      // the stylesheet names the WOFF2 font it sits next to, and nothing else
      assert.match(css, /src: url\("\.\/codicon\.woff2"\) format\("woff2"\);/);
      assert.doesNotMatch(css, /codicon\.ttf/);
      const woff2 = fs.readFileSync(path.join(dir, 'codicon.woff2'));
      assert.equal(woff2.subarray(0, 4).toString('latin1'), 'wOF2');
      assert.ok(!fs.existsSync(path.join(dir, 'codicon.ttf')));
      // read back through subset-font's own converter (Brotli undone), then HarfBuzz's character map;
      // harfbuzzjs is an ES module with top-level await: imported, not required
      const { convert } = await import('fontverter');
      const font = await convert(woff2, 'truetype');
      const { Blob, Face } = await import('harfbuzzjs');
      const mapped = new Set(new Face(new Blob(font), 0).collectUnicodes());
      assert.deepEqual(
        [...mapped].sort(),
        [codePointOf(whole, 'vm'), codePointOf(whole, 'debug-start')].sort(),
      );
      assert.ok(woff2.length < 3_000, `the two-icon font is ${woff2.length} bytes`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
