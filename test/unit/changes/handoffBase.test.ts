// Whether the user's files are still what a hand-off gave the agent, with real git: the tree compared,
// not HEAD; which of the files a patch touches are in its way (changed since, or untracked and never
// handed) and which are its base (a handed edit as it was); nothing of the repository moved by asking.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHandoff, removeHandoff } from '../../../src/changes/handoffBundle';
import { baseSinceHandoff, holdsCommit } from '../../../src/changes/handoffBase';
import { assertUnchanged, commitAll, git, repoState, write } from './scratchRepo';

describe('changes: the base since a hand-off', function () {
  let tmp: string;
  let repo: string;
  let handedOver: { tree: string; commit: string };

  beforeEach(async function () {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-handoff-base-'));
    repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q']);
    write(repo, 'app.txt', 'one\n');
    write(repo, 'lib.txt', 'lib\n');
    commitAll(repo, 'base');
    write(repo, 'app.txt', 'one, edited\n');
    write(repo, 'new.txt', 'new\n');
    write(repo, 'mine.txt', 'not handed\n');
    const handoff = await buildHandoff(repo, { kind: 'archive', untracked: ['new.txt'] });
    handedOver = handoff.manifest.handedOver;
    await removeHandoff(handoff);
  });
  afterEach(function () {
    rmSync(tmp, { recursive: true, force: true });
  });

  const since = (dirty: string[]) => baseSinceHandoff(repo, handedOver, ['new.txt'], dirty);

  it('unmoved: the handed edit and file are the base, an untracked file never handed is in the way; nothing moves', async function () {
    const before = repoState(repo);
    const unmoved = await since(['app.txt', 'new.txt', 'mine.txt']);
    assert.deepEqual(unmoved, {
      moved: false,
      tree: handedOver.tree,
      baseKnown: true,
      inTheWay: ['mine.txt'],
    });
    assertUnchanged(repo, before, 'asking');
    assert.equal(await holdsCommit(repo, handedOver.commit), true);
    assert.equal(await holdsCommit(repo, 'f'.repeat(40)), false);
  });

  it('HEAD moved with the same files (the handed edits committed): not moved', async function () {
    git(repo, ['add', 'app.txt', 'new.txt']);
    git(repo, ['commit', '-q', '-m', 'mine']);
    assert.equal((await since(['app.txt'])).moved, false);
  });

  it('a file changed since: moved, and only that file is in the way', async function () {
    write(repo, 'app.txt', 'one, edited again\n');
    const moved = await since(['app.txt', 'new.txt']);
    assert.equal(moved.moved, true);
    assert.deepEqual(moved.inTheWay, ['app.txt']);
    write(repo, 'app.txt', 'one, edited\n');
    write(repo, 'lib.txt', 'lib, committed since\n');
    commitAll(repo, 'elsewhere');
    const elsewhere = await since(['app.txt', 'new.txt']);
    assert.equal(elsewhere.moved, true, 'a commit of another file moves the tree');
    assert.deepEqual(elsewhere.inTheWay, [], 'the handed edit is still the base');
  });

  it('a handed file deleted since is moved and in the way; a name that leaves the repository is never read', async function () {
    rmSync(join(repo, 'new.txt'));
    const gone = await since(['new.txt']);
    assert.equal(gone.moved, true);
    assert.deepEqual(gone.inTheWay, ['new.txt']);
    write(repo, 'new.txt', 'new\n');
    const hostile = await baseSinceHandoff(
      repo,
      handedOver,
      ['new.txt', '../outside.txt', '.git/config'],
      [],
    );
    assert.equal(hostile.moved, false);
  });
});
