import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParityRepos } from './gitParity';
import { commitAll, git, gitText, write } from './scratchRepo';

// Where the reader once parted from git (each found by patchDifferential.test.ts): the project's Apply
// and plain `git apply` on the same patch, in two clones of one base, and the bytes git writes.

const patchOf = (...lines: string[]) => Buffer.from(lines.map((line) => `${line}\n`).join(''));
const newFile = (path: string, text: string) => [
  `diff --git a/${path} b/${path}`,
  'new file mode 100644',
  '--- /dev/null',
  `+++ b/${path}`,
  '@@ -0,0 +1 @@',
  `+${text}`,
];

describe('changes: the patch reader where it once parted from git', function () {
  this.timeout(60_000);
  let tmp: string;
  let repos: ParityRepos;
  /** A new binary file's section as git writes it, without its reverse hunk (it is optional). */
  let binaryForward: string;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-sections-'));
    const base = join(tmp, 'base');
    mkdirSync(base);
    git(base, ['init', '-q']);
    write(base, 'README', 'base\n');
    commitAll(base, 'base');
    repos = new ParityRepos(tmp, base, gitText(base, ['rev-parse', 'HEAD']).trim());
    write(base, 'logo.bin', Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256)));
    git(base, ['add', 'logo.bin']);
    const section = gitText(base, ['diff', '--cached', '--binary']);
    git(base, ['reset', '-q', '--hard']);
    binaryForward = section.slice(0, section.lastIndexOf('literal 0\n'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  /** Applies `patch` both ways, asserts they agree, and returns what the project wrote at `path`. */
  async function appliedBoth(patch: Buffer, path: string): Promise<string> {
    const verdict = await repos.compare(patch);
    if (!verdict.agrees) assert.fail(verdict.why);
    assert.equal(verdict.outcome, 'applied');
    return readFileSync(join(repos.ours, path), 'latin1');
  }

  describe('a short `\\ ` line after a hunk (git’s "No newline at end of file")', () => {
    it('counts when more than 12 bytes of the patch follow its start, however short it is (the issue’s case)', async () => {
      const patch = patchOf(...newFile('hello.txt', 'hello'), '\\ x', ...newFile('other.txt', 'other'));
      assert.equal(await appliedBoth(patch, 'hello.txt'), 'hello');
      assert.equal(readFileSync(join(repos.ours, 'other.txt'), 'latin1'), 'other\n');
    });
    it('counts when the text after it is what makes the 12 bytes, and it ends the last file git is given', async () => {
      const patch = patchOf(...newFile('hello.txt', 'hello'), '\\ x', 'trailing text');
      assert.equal(await appliedBoth(patch, 'hello.txt'), 'hello');
    });
    it('does not count with 12 bytes or fewer left, and counts with 13', async () => {
      const twelve = '\\ 456789012'; // 11 bytes and its newline
      assert.equal(
        await appliedBoth(patchOf(...newFile('hello.txt', 'hello'), twelve), 'hello.txt'),
        'hello\n',
      );
      assert.equal(
        await appliedBoth(patchOf(...newFile('hello.txt', 'hello'), `${twelve}3`), 'hello.txt'),
        'hello',
      );
      assert.equal(
        await appliedBoth(patchOf(...newFile('hello.txt', 'hello'), '\\ x'), 'hello.txt'),
        'hello\n',
      );
    });
  });

  it('reads any line starting `literal ` or `delta ` after a binary hunk as its reverse hunk, as git does', async () => {
    assert.match(binaryForward, /\nliteral 300\n[^]*\n\n$/, 'a forward hunk and its blank line');
    const text = patchOf(...newFile('hello.txt', 'hello')).toString('latin1');
    for (const start of ['literal x', 'delta 3']) {
      // git reads the next file's lines as binary data, calls them corrupt and applies nothing.
      const verdict = await repos.compare(Buffer.from(`${binaryForward}${start}\n${text}`, 'latin1'));
      if (!verdict.agrees) assert.fail(`${start}: ${verdict.why}`);
      assert.equal(verdict.outcome, 'refused', start);
    }
    // Without it, both apply the two files.
    assert.equal(await appliedBoth(Buffer.from(`${binaryForward}${text}`, 'latin1'), 'hello.txt'), 'hello\n');
  });

  it('skips an `@@ -` line between files that is no hunk header, as git does', async () => {
    const patch = patchOf('@@ -x +y @@', ...newFile('hello.txt', 'hello'));
    assert.equal(await appliedBoth(patch, 'hello.txt'), 'hello\n');
    // One git reads as a hunk header is still a hunk outside any file: both refuse the patch.
    const verdict = await repos.compare(patchOf('@@ -1 +1 @@', ...newFile('hello.txt', 'hello')));
    assert.deepEqual(verdict, { agrees: true, outcome: 'refused' });
  });
});
