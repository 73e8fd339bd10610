import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readLocalState } from '../../../src/changes/localState';
import { gitFile, RENAMED_STAGED, TICKED, UNTICKED, useScratchFixture } from './handoffFixture';
import { git, gitText, mergeInConflict, write } from './scratchRepo';

// Real git in temporary repositories: what the user has that the remote has not.

describe('changes: the local state of a repository', function () {
  const scratch = useScratchFixture('openhands-localstate-');

  it('a fresh clone is clean and pushed', async function () {
    const state = await readLocalState(scratch.clone());
    assert.ok(state);
    assert.equal(state.branch, 'main');
    assert.equal(state.detached, false);
    assert.deepEqual(state.upstream, {
      name: 'origin/main',
      remote: 'origin',
      branch: 'main',
      commit: gitText(scratch.fixture.remote, ['rev-parse', 'HEAD']).trim(),
    });
    assert.equal(state.ahead, 0);
    assert.equal(state.behind, 0);
    assert.deepEqual([state.staged, state.unstaged, state.untracked, state.unmerged], [[], [], [], []]);
    assert.deepEqual(state.submodules, [
      {
        path: 'lib',
        commit: gitText(scratch.fixture.remote, ['rev-parse', 'HEAD:lib']).trim(),
        changed: false,
      },
    ]);
    assert.equal(state.cleanAndPushed, true);
  });

  it('reads commits ahead and behind, staged and unstaged edits with renames, untracked names as git spells them', async function () {
    const state = await readLocalState(join(scratch.fixture.local, 'docs'));
    assert.ok(state);
    assert.equal(state.root, scratch.fixture.local, 'the repository root, from a folder inside it');
    assert.equal(state.head, gitText(scratch.fixture.local, ['rev-parse', 'HEAD']).trim());
    assert.equal(state.ahead, 2);
    assert.equal(state.behind, 1);
    assert.equal(state.upstream?.commit, gitText(scratch.fixture.local, ['rev-parse', 'origin/main']).trim());
    const byPath = <T extends { path: string }>(list: T[]) =>
      [...list].sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(byPath(state.staged), [
      { path: RENAMED_STAGED.to, kind: 'renamed', from: RENAMED_STAGED.from },
      { path: 'staged.txt', kind: 'modified' },
    ]);
    assert.deepEqual(byPath(state.unstaged), [
      { path: 'app.txt', kind: 'modified' },
      { path: 'image.bin', kind: 'modified' },
      { path: 'tool.sh', kind: 'modified' },
    ]);
    assert.deepEqual(
      [...state.untracked].sort(),
      [...TICKED, UNTICKED].sort(),
      'the ignored .env is not listed',
    );
    assert.deepEqual(
      state.submodules.map((submodule) => [submodule.path, submodule.changed]),
      [['lib', true]],
    );
    assert.equal(state.cleanAndPushed, false);
  });

  it('says which one thing makes a clone not clean and pushed', async function () {
    const cases: [string, (repo: string) => void][] = [
      ['a commit ahead', (repo) => git(repo, ['commit', '-q', '--allow-empty', '-m', 'ahead'])],
      ['a staged edit', (repo) => (write(repo, 'app.txt', 'staged\n'), git(repo, ['add', 'app.txt']))],
      ['an unstaged edit', (repo) => write(repo, 'app.txt', 'unstaged\n')],
      ['an untracked file', (repo) => write(repo, 'new file.txt', 'new\n')],
      ['a submodule changed', (repo) => write(join(repo, 'lib'), 'lib.txt', 'changed\n')],
    ];
    for (const [what, change] of cases) {
      const repo = scratch.clone();
      change(repo);
      assert.equal((await readLocalState(repo))?.cleanAndPushed, false, what);
    }
    const ignoredOnly = scratch.clone();
    write(ignoredOnly, '.env', 'ignored\n');
    assert.equal((await readLocalState(ignoredOnly))?.cleanAndPushed, true, 'an ignored file keeps it clean');
    const behindOnly = scratch.clone();
    git(behindOnly, ['reset', '-q', '--hard', 'HEAD~1']);
    gitFile(behindOnly, ['submodule', '--quiet', 'update']);
    const behind = await readLocalState(behindOnly);
    assert.deepEqual(
      [behind?.ahead, behind?.behind, behind?.cleanAndPushed],
      [0, 1, true],
      'behind is still pushed',
    );
  });

  it('a detached HEAD has no branch and no upstream', async function () {
    const repo = scratch.clone();
    git(repo, ['checkout', '-q', '--detach', 'HEAD~1']);
    const state = await readLocalState(repo);
    assert.ok(state);
    assert.equal(state.detached, true);
    assert.equal(state.branch, undefined);
    assert.equal(state.upstream, undefined);
    assert.equal(state.ahead, undefined);
    assert.equal(state.head, gitText(repo, ['rev-parse', 'HEAD']).trim());
    assert.equal(state.cleanAndPushed, false, 'a detached HEAD is on no branch the remote has');
  });

  it('a branch with no upstream, and one whose upstream is gone', async function () {
    const repo = scratch.clone();
    git(repo, ['checkout', '-q', '-b', 'topic']);
    const alone = await readLocalState(repo);
    assert.deepEqual(
      [alone?.branch, alone?.upstream, alone?.ahead, alone?.cleanAndPushed],
      ['topic', undefined, undefined, false],
    );
    git(repo, ['update-ref', 'refs/remotes/origin/topic', 'HEAD']);
    git(repo, ['branch', '-q', '--set-upstream-to=origin/topic']);
    git(repo, ['update-ref', '-d', 'refs/remotes/origin/topic']);
    const gone = await readLocalState(repo);
    assert.deepEqual(gone?.upstream, { name: 'origin/topic', remote: 'origin', branch: 'topic' });
    assert.equal(gone?.ahead, undefined);
    assert.equal(gone?.cleanAndPushed, false);
  });

  it('a merge in conflict is listed as unmerged, and a folder outside any repository has no state', async function () {
    const repo = scratch.clone();
    mergeInConflict(repo);
    assert.deepEqual((await readLocalState(repo))?.unmerged, ['app.txt']);
    const outside = join(scratch.tmp, 'not a repository');
    mkdirSync(outside);
    assert.equal(await readLocalState(outside), undefined);
  });
});
