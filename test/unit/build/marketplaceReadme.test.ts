// The README the VSIX carries (scripts/build/marketplaceReadme.mjs): the repository README's part for
// people using the extension, whole, and none of the contributors' part.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { marketplaceReadme, writeMarketplaceReadme } from '../../../scripts/build/marketplaceReadme.mjs';

const README = fs.readFileSync('README.md', 'utf8');

/** The `#` and `##` headings of a Markdown text, outside code blocks. */
function headings(markdown: string): string[] {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').match(/^#{1,2} .+$/gm) ?? [];
}

describe('Marketplace README (build)', () => {
  it("keeps every user section of README.md word for word and drops the contributors' part", () => {
    const cut = marketplaceReadme(README);
    const contributors = README.indexOf('# For contributors');
    assert.ok(contributors > 0);
    const userPart = README.slice(0, README.lastIndexOf('---', contributors));
    assert.ok(cut.startsWith(userPart), 'the user part is not kept as it is');
    assert.deepEqual(headings(cut), headings(userPart));
    for (const heading of headings(README.slice(contributors)))
      assert.ok(!cut.includes(heading), `"${heading}" is in the Marketplace README`);
    assert.doesNotMatch(cut, /npm run test|test:real/);
    // one line points to the rest, by a link vsce makes absolute
    assert.match(cut, /\[For contributors\]\(README\.md#for-contributors\)\.\n$/);
  });

  it('refuses a README without the contributors heading, rather than ship all of it', () => {
    assert.throws(() => marketplaceReadme('# Title\n\n## Use\n\nText.\n'), /For contributors/);
    // the heading alone, without the rule before it, is not the mark either
    assert.throws(() => marketplaceReadme('# Title\n\n# For contributors\n'), /For contributors/);
  });

  it('writes the file npm run package hands to vsce, making its folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
    try {
      const out = path.join(dir, 'package', 'README.md');
      writeMarketplaceReadme('README.md', out);
      assert.equal(fs.readFileSync(out, 'utf8'), marketplaceReadme(README));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
