// The codicon font and stylesheet the webview pages ship, cut down to the icons the pages name: the
// whole font is 126 KB for about 540 icons, and it was the VSIX's third largest file. The cut font is
// WOFF2 (Brotli inside: 8.5 KB where the TrueType one took 10 KB in the zip).
import * as fs from 'node:fs';
import * as path from 'node:path';
import subsetFont from 'subset-font';

const CODICONS = 'node_modules/@vscode/codicons/dist';
/** One glyph rule of codicon.css: `.codicon-add:before { content: "\ea60" }`. */
const GLYPH_RULE = /^\.codicon-([a-z0-9-]+):before \{ content: "\\([0-9a-f]+)" \}\n/gm;
/** The font face's source: `src: url("./codicon.ttf?<hash>") format("truetype");`. */
const FONT_SOURCE = /src: url\("\.\/codicon\.ttf(\?[0-9a-f]*)?"\) format\("truetype"\)/;

/**
 * Which icons a page's code and styles may name: every codicon whose name follows `codicon-`, or is a
 * whole string (`icon="add"`, `'warning'`, a template's attribute). A name that is only a word of
 * code or prose (`.map(`, `event.target`, "JSON") is not an icon; an icon whose name is put together
 * at run time would be lost, and no page does that: their names are written out whole.
 */
export function codiconsNamedIn(text, names) {
  const named = new Set();
  for (const [, afterPrefix, quoted] of text.matchAll(NAMED_ICON)) named.add(afterPrefix ?? quoted);
  return new Set(names.filter((name) => named.has(name)));
}

/** `codicon-<name>`, or `<name>` (or `codicon-<name>`) as a whole string in any of JavaScript's quotes. */
const NAMED_ICON = /codicon-([a-z0-9]+(?:-[a-z0-9]+)*)|["'`](?:codicon-)?([a-z0-9]+(?:-[a-z0-9]+)*)["'`]/g;

/**
 * Writes `codicon.css` and `codicon.woff2` into `outDir` with the glyphs the pages (`pages`: their
 * built .js and .css files) name, and the stylesheet's other rules (the font face, the modifiers).
 */
export async function writeCodicons({ pages, outDir }) {
  const css = fs.readFileSync(path.join(CODICONS, 'codicon.css'), 'utf8');
  const rules = [...css.matchAll(GLYPH_RULE)].map(([, name, hex]) => ({
    name,
    codePoint: parseInt(hex, 16),
  }));
  if (rules.length < 100) throw new Error(`codicon.css changed its form: ${rules.length} glyph rules found`);
  if (!FONT_SOURCE.test(css)) throw new Error('codicon.css changed its form: no codicon.ttf font source');
  const text = pages
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
  const kept = codiconsNamedIn(
    text,
    rules.map((rule) => rule.name),
  );
  const codePoints = [...new Set(rules.filter((rule) => kept.has(rule.name)).map((rule) => rule.codePoint))];
  const font = await subsetFont(
    fs.readFileSync(path.join(CODICONS, 'codicon.ttf')),
    String.fromCodePoint(...codePoints),
    { targetFormat: 'woff2' },
  );
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'codicon.woff2'), font);
  fs.writeFileSync(
    path.join(outDir, 'codicon.css'),
    css
      .replace(GLYPH_RULE, (rule, name) => (kept.has(name) ? rule : ''))
      .replace(FONT_SOURCE, 'src: url("./codicon.woff2") format("woff2")'),
  );
  return { icons: kept.size, of: rules.length, fontBytes: font.length };
}
