// The base bytes of a binary file read back from a `git diff --binary` patch: the real agent server's
// patch (fixture; the base checked against the blob id git wrote), and patches real git writes for a
// replaced file (literal hunks), a small edit in a big file (delta hunks), a deletion and an addition;
// then hostile patches: a lying size, broken base85, a delta that reads past its source.
import { isolatedGit } from '../../../shared/sandboxWorkspace';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { binaryBase } from '../../../../src/api/agentServer/binaryBase';
import { FIXTURES } from '../../../shared/repository';

const MB = 1024 * 1024;

const git = isolatedGit;

function blobId(bytes: Buffer): string {
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
}

describe('binaryBase: a binary file’s base from the patch’s reverse hunk', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'binary-base-'));
    git(repo, 'init', '-q');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  /** Commits `before`, writes `after` (null deletes), and returns the agent server's kind of patch. */
  function patchOf(name: string, before: Buffer | null, after: Buffer | null): Buffer {
    const file = path.join(repo, name);
    mkdirSync(path.dirname(file), { recursive: true });
    if (before) writeFileSync(file, before);
    else writeFileSync(path.join(repo, 'keep.txt'), 'keep\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    if (after) writeFileSync(file, after);
    else unlinkSync(file);
    git(repo, 'add', '-A');
    return git(repo, 'diff', '--binary', '--cached', 'HEAD');
  }

  it('reads the real agent server’s patch: the base is the blob git named', () => {
    const patch = readFileSync(path.join(FIXTURES, 'agent-server', 'git', 'archive-origin.patch'));
    const base = binaryBase(patch, 'bin-committed.bin', Buffer.alloc(4), MB);
    assert.ok(base, 'decoded');
    assert.equal(blobId(base), 'b6d4481cdf806063848b00627068589be5ee787a');
  });

  it('a replaced image: literal hunks give the old bytes', () => {
    const before = readFileSync(path.join(FIXTURES, 'images', 'page.png'));
    const after = readFileSync(path.join(FIXTURES, 'images', 'small.webp'));
    const patch = patchOf('art/picture.png', before, after);
    assert.match(patch.toString('latin1'), /^literal \d+$/m);
    assert.deepEqual(binaryBase(patch, 'art/picture.png', after, MB), before);
  });

  it('a small edit in a big file: the reverse delta applied to the agent’s bytes gives the base', () => {
    const before = randomBytes(200_000);
    const after = Buffer.from(before);
    after.fill(7, 1000, 1010);
    const patch = patchOf('blob.bin', before, after);
    assert.match(patch.toString('latin1'), /^delta \d+$/m, 'git chose a delta');
    assert.deepEqual(binaryBase(patch, 'blob.bin', after, MB), before);
  });

  it('a deleted file gives its bytes; an added one an empty base', () => {
    const jpeg = readFileSync(path.join(FIXTURES, 'images', 'page.jpg'));
    assert.deepEqual(binaryBase(patchOf('gone.jpg', jpeg, null), 'gone.jpg', Buffer.alloc(0), MB), jpeg);
    rmSync(repo, { recursive: true, force: true });
    repo = mkdtempSync(path.join(tmpdir(), 'binary-base-'));
    git(repo, 'init', '-q');
    const added = patchOf('new.jpg', null, jpeg);
    assert.deepEqual(binaryBase(added, 'new.jpg', jpeg, MB), Buffer.alloc(0));
  });

  it('refuses what git would not write, and a base over the cap', () => {
    const before = readFileSync(path.join(FIXTURES, 'images', 'page.png'));
    const after = readFileSync(path.join(FIXTURES, 'images', 'page.jpg'));
    const patch = patchOf('p.png', before, after).toString('latin1');
    const reverseSize = /^literal (\d+)$/gm;
    const sizes = [...patch.matchAll(reverseSize)].map((match) => match[0]);
    const reverse = sizes[1] ?? '';
    const lying = patch.replace(new RegExp(`${reverse}$`, 'm'), 'literal 10');
    assert.equal(binaryBase(Buffer.from(lying, 'latin1'), 'p.png', after, MB), undefined, 'size lies');
    const broken = patch.replace(/\n(literal \d+\n)(.)/g, '\n$1$2\u007f');
    assert.equal(binaryBase(Buffer.from(broken, 'latin1'), 'p.png', after, MB), undefined, 'bad base85');
    assert.equal(binaryBase(Buffer.from(patch, 'latin1'), 'p.png', after, 100), undefined, 'over the cap');
    assert.equal(binaryBase(Buffer.from(patch, 'latin1'), 'other.png', after, MB), undefined, 'not in it');
    assert.deepEqual(binaryBase(Buffer.from(patch, 'latin1'), 'p.png', after, MB), before, 'the real one');
  });

  it('refuses a delta whose source is not the agent’s bytes', () => {
    const before = randomBytes(100_000);
    const after = Buffer.from(before);
    after.fill(1, 50, 60);
    const patch = patchOf('d.bin', before, after);
    assert.equal(binaryBase(patch, 'd.bin', after.subarray(0, 500), MB), undefined, 'a shorter source');
  });
});
