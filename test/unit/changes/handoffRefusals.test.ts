import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHandoff, DEFAULT_MAX_HANDOFF_BYTES } from '../../../src/changes/handoffBundle';
import { HandoffRefusedError, type HandoffRefusal } from '../../../src/changes/handoffManifest';
import { CANARY, useScratchFixture } from './handoffFixture';
import { commitAll, git, mergeInConflict, write } from './scratchRepo';

// What a hand-off refuses, and that it says which file and why; nothing is left behind when it does.

describe('changes: what a hand-off refuses', function () {
  const scratch = useScratchFixture('openhands-handoff-refusals-');
  let partsRoot: string;

  before(function () {
    partsRoot = join(scratch.tmp, 'parts');
    mkdirSync(partsRoot);
  });

  /** The refusal of a build into `partsRoot`, which must be left empty. */
  const refusal = async (
    repo: string,
    options: { kind?: 'commits' | 'archive'; untracked?: string[]; maxBytes?: number } = {},
  ): Promise<HandoffRefusedError> => {
    try {
      await buildHandoff(repo, { kind: 'commits', tmpRoot: partsRoot, ...options });
    } catch (error) {
      assert.ok(error instanceof HandoffRefusedError, `a refusal, not ${String(error)}`);
      assert.deepEqual(readdirSync(partsRoot), [], 'no parts folder is left behind');
      return error;
    }
    assert.fail('the hand-off should have been refused');
  };
  const assertRefused = (error: HandoffRefusedError, reason: HandoffRefusal, path: string | undefined) => {
    assert.equal(error.reason, reason, error.message);
    assert.equal(error.path, path, error.message);
    if (path !== undefined)
      assert.ok(error.message.includes(path), `the message names ${path}: ${error.message}`);
    assert.ok(!error.message.includes(CANARY));
  };

  it('a ticked file over 50 MB, by its name and size', async function () {
    const repo = scratch.clone();
    writeFileSync(join(repo, 'big data.bin'), Buffer.alloc(DEFAULT_MAX_HANDOFF_BYTES + 1));
    write(repo, 'small.txt', 'small\n');
    const error = await refusal(repo, { untracked: ['small.txt', 'big data.bin'] });
    assertRefused(error, 'too-big', 'big data.bin');
    assert.match(
      error.message,
      /big data\.bin is 50\.0 MB: a hand-off holds at most 50\.0 MB and the files before it take 6 bytes/,
    );
    rmSync(join(repo, 'big data.bin'));
  });

  it('edits or commits past the limit, naming the largest edited file', async function () {
    const repo = scratch.clone();
    write(repo, 'noise.bin', randomBytes(20_000));
    write(repo, 'app.txt', 'a small edit\n');
    git(repo, ['add', 'noise.bin']);
    const staged = await refusal(repo, { maxBytes: 8_000 });
    assertRefused(staged, 'too-big', 'noise.bin');
    assert.match(
      staged.message,
      /^There is no room for the staged edits: a hand-off holds at most 8 KB, .*the largest, noise\.bin, is 20 KB/,
    );
    commitAll(repo, 'noise');
    const commits = await refusal(repo, { maxBytes: 8_000 });
    assert.equal(commits.reason, 'too-big');
    assert.match(commits.message, /^There is no room for 1 commit ahead of [0-9a-f]{12}/);
  });

  it('only files git lists as untracked: never an ignored one, one outside, in .git, in a submodule, or through a link', async function () {
    const repo = scratch.clone();
    write(repo, '.env', `API_KEY=${CANARY}\n`);
    const outside = join(scratch.tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    write(outside, 'secret.txt', 'outside\n');
    symlinkSync(outside, join(repo, 'linked folder'));
    symlinkSync(join(outside, 'secret.txt'), join(repo, 'escaping link'));
    symlinkSync('../../outside/secret.txt', join(repo, 'relative escape'));
    write(join(repo, 'lib'), 'new in submodule.txt', 'inside the submodule\n');
    const cases: [string, HandoffRefusal][] = [
      ['.env', 'not-untracked'],
      ['missing.txt', 'not-untracked'],
      ['linked folder/secret.txt', 'not-untracked'],
      ['lib/new in submodule.txt', 'not-untracked'],
      ['../outside/secret.txt', 'unsafe-path'],
      ['.git/config', 'unsafe-path'],
      ['/etc/hostname', 'unsafe-path'],
      ['escaping link', 'unsafe-path'],
      ['relative escape', 'unsafe-path'],
      ['line\nbreak.txt', 'unsafe-path'],
    ];
    for (const [path, reason] of cases)
      assertRefused(await refusal(repo, { untracked: [path] }), reason, path);
  });

  it('a repository it cannot hand over, with the reason', async function () {
    const noUpstream = scratch.clone();
    git(noUpstream, ['checkout', '-q', '-b', 'topic']);
    const alone = await refusal(noUpstream);
    assertRefused(alone, 'no-upstream', undefined);
    assert.match(alone.message, /^topic follows no branch on a remote/);

    const conflicted = scratch.clone();
    mergeInConflict(conflicted);
    assertRefused(await refusal(conflicted, { kind: 'archive' }), 'conflict', 'app.txt');

    const unborn = join(scratch.tmp, 'unborn');
    mkdirSync(unborn);
    git(unborn, ['init', '-q']);
    write(unborn, 'first.txt', 'first\n');
    assertRefused(await refusal(unborn, { kind: 'archive' }), 'no-commit', undefined);

    const plain = join(scratch.tmp, 'plain folder');
    mkdirSync(plain);
    assertRefused(await refusal(plain, { kind: 'archive' }), 'not-a-repository', undefined);
  });
});
