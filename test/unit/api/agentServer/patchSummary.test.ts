// The files of a git-delta patch read from its headers: against the real agent server's patch
// (fixture) and against patches real git writes for names with spaces, quotes and non-ASCII bytes,
// renames, deletions and binaries, each compared with what git itself says the patch touches.
import { ISOLATED_GIT_ENV, isolatedGit } from '../../../shared/sandboxWorkspace';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { changesInPatch } from '../../../../src/api';
import { unquote } from '../../../../src/api/agentServer/patchSummary';
import { FIXTURES as TEST_FIXTURES } from '../../../shared/repository';

const FIXTURES = path.join(TEST_FIXTURES, 'agent-server', 'git');

const git = isolatedGit;

describe('changesInPatch: the files of a patch from its headers', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'patch-summary-'));
    git(repo, 'init', '-q');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('reads the real agent server’s patch: added, binary updated, deleted, updated', () => {
    const patch = readFileSync(path.join(FIXTURES, 'archive-origin.patch'));
    assert.deepEqual(changesInPatch(patch), [
      { status: 'ADDED', path: 'added.txt' },
      { status: 'UPDATED', path: 'bin-committed.bin' },
      { status: 'DELETED', path: 'gone.txt' },
      { status: 'UPDATED', path: 'scripted-notes.md' },
    ]);
  });

  it('reads what git writes the way the agent server does: spaces, quotes, non-ASCII, renames, binaries', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    writeFileSync(path.join(repo, 'with space.txt'), 'before\n');
    writeFileSync(path.join(repo, 'moved from.txt'), lines);
    writeFileSync(path.join(repo, 'gone "quoted".txt'), 'bye\n');
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    writeFileSync(path.join(repo, 'with space.txt'), 'after\n');
    renameSync(path.join(repo, 'moved from.txt'), path.join(repo, 'moved to.txt'));
    unlinkSync(path.join(repo, 'gone "quoted".txt'));
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x02, 0xff]));
    writeFileSync(path.join(repo, 'café ü.md'), '# new\n');
    writeFileSync(path.join(repo, 'blob two.bin'), Buffer.from([0, 1, 2, 3]));
    // as the agent server builds it: a throwaway index seeded from the base, the tree staged on top
    const env = { ...ISOLATED_GIT_ENV, GIT_INDEX_FILE: path.join(repo, '.git', 'scratch-index') };
    execFileSync('git', ['read-tree', 'HEAD'], { cwd: repo, env });
    execFileSync('git', ['add', '-A', '--', '.'], { cwd: repo, env });
    const patch = execFileSync('git', ['diff', '--binary', '--cached', 'HEAD', '--', '.'], {
      cwd: repo,
      env,
    });
    const read = changesInPatch(patch).map((change) => `${change.status} ${change.path}`);
    assert.deepEqual(read.sort(), [
      'ADDED blob two.bin',
      'ADDED café ü.md',
      'ADDED moved to.txt',
      'DELETED gone "quoted".txt',
      'DELETED moved from.txt',
      'UPDATED logo.png',
      'UPDATED with space.txt',
    ]);
    // git's own reading of the same patch names the same files
    const numstat = execFileSync('git', ['apply', '--numstat', '-z', '-'], { cwd: repo, input: patch })
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.split('\t').pop() ?? '')
      .filter(Boolean);
    for (const name of numstat)
      assert.ok(
        read.some((entry) => entry.endsWith(` ${name}`)),
        `git names ${name}; the summary misses it`,
      );
  });

  it('unquotes git’s C-style names, octal bytes included', () => {
    assert.equal(unquote('"caf\\303\\251 \\"x\\"\\tz.md"'), 'café "x"\tz.md');
    assert.equal(unquote('plain name.txt'), 'plain name.txt');
  });

  it('reads nothing from text that is not a patch', () => {
    assert.deepEqual(changesInPatch('hello\nworld\n'), []);
    assert.deepEqual(changesInPatch(''), []);
  });
});
