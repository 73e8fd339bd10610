import assert from 'node:assert/strict';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit, type GitRunner } from '../../../src/changes/git';
import { openLocalRepository } from '../../../src/changes/localRepository';
import { applyPatch, filesInPatch, GitCommandError, planApply } from '../../../src/changes/patchApply';
import {
  assertUnchanged,
  commitAll,
  differingPaths,
  git,
  gitText,
  isWritingApply,
  refusal,
  repoState,
  statusPaths,
  treeBytes,
  write,
} from './scratchRepo';

// Real git in real temporary repositories: a base, the agent's clone of it, and a fresh local clone per test.

// The modes git writes: a plain file, an executable one, a symlink.
const FILE = 0o100644;
const EXECUTABLE = 0o100755;
const LINK = 0o120000;
const SPECIAL = 'docs/naïve "quoted" [1].md';
const TOUCHED = [
  'app.txt',
  'new/dir/added.txt',
  'obsolete.txt',
  'long.txt',
  'moved/long.txt',
  'logo.bin',
  SPECIAL,
];

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const BINARY = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7) % 256));

describe('changes: an agent patch into a local repository', function () {
  let tmp: string;
  let base: string;
  let agent: string;
  let baseSha: string;
  let patch: Buffer;
  let clones = 0;

  const cloneBase = (): string => {
    const local = join(tmp, `local-${++clones}`);
    git(tmp, ['clone', '-q', base, local]);
    return local;
  };
  /** A local commit on line 12 of app.txt: next to the agent's line 10, so the file needs a 3-way merge. */
  const commitNearby = (local: string): void => {
    write(local, 'app.txt', numbered('line', 40).replace('line 12\n', 'line 12 (local)\n'));
    commitAll(local, 'local edit near the agent');
  };

  before(function () {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-changes-'));
    base = join(tmp, 'base');
    mkdirSync(base);
    git(base, ['init', '-q']);
    write(base, 'app.txt', numbered('line', 40));
    write(base, 'obsolete.txt', 'to be deleted\n');
    write(base, 'long.txt', numbered('long', 30));
    write(base, 'logo.bin', BINARY);
    write(base, SPECIAL, 'first\nsecond\n');
    commitAll(base, 'base');
    baseSha = gitText(base, ['rev-parse', 'HEAD']).trim();

    // The agent's change, built the way the agent server builds it: a throwaway index over the base.
    agent = join(tmp, 'agent');
    git(tmp, ['clone', '-q', base, agent]);
    write(agent, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (agent)\n'));
    write(agent, 'new/dir/added.txt', 'added by the agent\n');
    rmSync(join(agent, 'obsolete.txt'));
    write(agent, 'moved/long.txt', readFileSync(join(agent, 'long.txt')));
    rmSync(join(agent, 'long.txt'));
    const changedBinary = Buffer.from(BINARY);
    changedBinary[100] = 0;
    changedBinary[300] = 255;
    write(agent, 'logo.bin', changedBinary);
    write(agent, SPECIAL, 'first\nsecond\nthird\n');
    const index = { GIT_INDEX_FILE: join(tmp, 'agent-index') };
    git(agent, ['read-tree', baseSha], index);
    git(agent, ['add', '-A', '--', '.'], index);
    patch = git(agent, ['diff', '--binary', '--cached', baseSha, '--', '.'], index);
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('lists the files of the patch: statuses, the rename, the binary file, a name with a space and quotes', async () => {
    const files = await filesInPatch(base, patch);
    const byPath = new Map(files.map((file) => [file.path, file]));
    assert.equal(files.length, 6, `six files, got ${JSON.stringify(files)}`);
    assert.deepEqual(
      byPath.get('app.txt'),
      { path: 'app.txt', status: 'modified', binary: false, oldMode: FILE, newMode: FILE },
      'app.txt',
    );
    assert.equal(byPath.get('new/dir/added.txt')?.status, 'added', 'the new file');
    assert.equal(byPath.get('obsolete.txt')?.status, 'deleted', 'the deleted file');
    assert.deepEqual(
      byPath.get('moved/long.txt'),
      { path: 'moved/long.txt', oldPath: 'long.txt', status: 'renamed', binary: false },
      'the rename names both paths (no mode line: an unchanged rename has no index line)',
    );
    assert.deepEqual(
      byPath.get('logo.bin'),
      { path: 'logo.bin', status: 'modified', binary: true, oldMode: FILE, newMode: FILE },
      'binary',
    );
    assert.equal(byPath.get(SPECIAL)?.status, 'modified', 'the special name is read as it is');
  });

  it('reads a rename inside a folder, a mode change and a file turned symlink, with their modes; a failed apply puts them back', async () => {
    const repo = join(tmp, 'kinds');
    mkdirSync(repo);
    git(repo, ['init', '-q']);
    write(repo, 'd/e/old => x.txt', numbered('moved', 20));
    write(repo, 'script.sh', 'echo hi\n');
    write(repo, 'link', 'a file for now\n');
    commitAll(repo, 'kinds');
    const start = gitText(repo, ['rev-parse', 'HEAD']).trim();
    git(repo, ['mv', 'd/e/old => x.txt', 'd/e/new {x}.txt']);
    chmodSync(join(repo, 'script.sh'), 0o755);
    rmSync(join(repo, 'link'));
    symlinkSync('script.sh', join(repo, 'link'));
    git(repo, ['add', '-A']);
    const kinds = git(repo, ['diff', '--binary', '--cached', start]);
    git(repo, ['reset', '-q', '--hard', start]);

    assert.deepEqual(
      await filesInPatch(repo, kinds),
      [
        { path: 'd/e/new {x}.txt', oldPath: 'd/e/old => x.txt', status: 'renamed', binary: false },
        { path: 'link', status: 'deleted', binary: false, oldMode: FILE },
        { path: 'link', status: 'added', binary: false, newMode: LINK },
        { path: 'script.sh', status: 'modified', binary: false, oldMode: FILE, newMode: EXECUTABLE },
      ],
      'each file read as it is',
    );
    const before = repoState(repo);
    const failAfterWriting: GitRunner = async (cwd, args, options) => {
      const output = await runGit(cwd, args, options);
      const writes = isWritingApply(args);
      return writes ? { exitCode: 1, stdout: Buffer.alloc(0), stderr: 'error: simulated\n' } : output;
    };
    await assert.rejects(applyPatch(repo, kinds, { runGit: failAfterWriting }), GitCommandError, 'it fails');
    assertUnchanged(repo, before, 'after the failed apply');
    assert.equal(lstatSync(join(repo, 'link')).isFile(), true, 'link is a file again');
    await applyPatch(repo, kinds);
    assert.equal(readlinkSync(join(repo, 'link')), 'script.sh', 'applied, link is a symlink');
  });

  it('tells what a local clone is: root, HEAD, branch, remotes', async () => {
    const local = cloneBase();
    mkdirSync(join(local, 'sub'));
    const repository = await openLocalRepository(join(local, 'sub'));
    assert.equal(repository?.root, local, 'the root, from a subfolder');
    assert.equal(repository?.head, baseSha, 'HEAD');
    assert.equal(repository?.branch, 'main', 'the branch');
    assert.deepEqual(repository?.remotes, [{ name: 'origin', fetchUrl: base }], 'the remote');
    assert.equal(await openLocalRepository(tmp), undefined, 'no repository outside a work tree');
  });

  it('(1) applies a clean patch: every byte as in the agent clone, status lists exactly the touched files', async () => {
    const local = cloneBase();
    const result = await applyPatch(local, patch, { baseCommit: baseSha });
    assert.deepEqual(
      [...result.applied].sort(),
      ['app.txt', 'new/dir/added.txt', 'obsolete.txt', 'moved/long.txt', 'logo.bin', SPECIAL].sort(),
      'every file applied directly',
    );
    assert.deepEqual([result.merged, result.skipped, result.conflicted], [[], [], []], 'nothing else');
    assert.deepEqual(differingPaths(treeBytes(local), treeBytes(agent)), [], 'the tree is the agent tree');
    assert.deepEqual(statusPaths(local), [...TOUCHED].sort(), 'status lists the touched files');
    assert.equal(gitText(local, ['diff', '--cached']), '', 'nothing staged');
  });

  it('(2) refuses a conflict with a local commit and changes nothing; with skip applies the rest', async () => {
    const local = cloneBase();
    write(local, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (local)\n'));
    commitAll(local, 'local edit on the same line');

    const plan = await planApply(local, patch, { baseCommit: baseSha });
    const outcomes = Object.fromEntries(plan.files.map((file) => [file.path, file.outcome]));
    assert.equal(outcomes['app.txt'], 'conflict', 'app.txt conflicts');
    assert.ok(plan.files.find((file) => file.path === 'app.txt')?.reason, 'with a reason');
    for (const path of ['new/dir/added.txt', 'obsolete.txt', 'moved/long.txt', 'logo.bin', SPECIAL]) {
      assert.equal(outcomes[path], 'clean', `${path} is clean`);
    }
    assert.deepEqual(plan.dirty, [], 'nothing uncommitted');

    const before = repoState(local);
    const refused = await refusal(applyPatch(local, patch, { baseCommit: baseSha }));
    assert.equal(refused.reason, 'conflict', 'refused for the conflict');
    assert.deepEqual(refused.paths, ['app.txt'], 'naming the file');
    assertUnchanged(local, before, 'after the refusal');

    const result = await applyPatch(local, patch, { skip: ['app.txt'] });
    assert.deepEqual(result.skipped, ['app.txt'], 'app.txt skipped');
    assert.equal(result.applied.length, 5, 'the other five applied');
    assert.match(
      readFileSync(join(local, 'app.txt'), 'utf8'),
      /line 10 \(local\)/,
      'the local app.txt stays',
    );
    assert.deepEqual(
      differingPaths(treeBytes(local), treeBytes(agent)),
      ['app.txt'],
      'the rest is the agent tree',
    );
  });

  it('(3) refuses an uncommitted edit on a touched file; with stashFirst sets it aside and applies', async () => {
    const local = cloneBase();
    write(local, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (draft)\n'));

    const plan = await planApply(local, patch);
    assert.deepEqual(plan.dirty, ['app.txt'], 'app.txt is dirty');
    const before = repoState(local);
    const refused = await refusal(applyPatch(local, patch));
    assert.equal(refused.reason, 'dirty', 'refused for the edit');
    assert.deepEqual(refused.paths, ['app.txt'], 'naming the file');
    assertUnchanged(local, before, 'after the refusal');

    const message = 'set aside before the agent change';
    const result = await applyPatch(local, patch, { stashFirst: true, stashMessage: message });
    assert.deepEqual(result.stashed, { message, paths: ['app.txt'] }, 'the stash is reported');
    assert.equal(result.applied.length, 6, 'everything applied');
    assert.deepEqual(differingPaths(treeBytes(local), treeBytes(agent)), [], 'the tree is the agent tree');
    assert.match(gitText(local, ['stash', 'list']), new RegExp(message), 'the stash holds the message');
    assert.match(gitText(local, ['stash', 'show', '-p', 'stash@{0}']), /line 10 \(draft\)/, 'and the edit');
  });

  it('(3b) undoes its stash when the file still conflicts once the edit is set aside', async () => {
    const local = cloneBase();
    write(local, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (local)\n'));
    commitAll(local, 'local edit on the same line');
    write(local, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (draft)\n'));
    const before = repoState(local);

    const refused = await refusal(applyPatch(local, patch, { stashFirst: true }));
    assert.equal(refused.reason, 'conflict', 'refused for the conflict under the edit');
    assertUnchanged(local, before, 'after the refusal');
    assert.equal(gitText(local, ['stash', 'list']), '', 'no stash left behind');
  });

  it('(4) reports a HEAD that is not the base, and still applies', async () => {
    const local = cloneBase();
    write(local, 'local-only.txt', 'unrelated\n');
    commitAll(local, 'unrelated local commit');

    const plan = await planApply(local, patch, { baseCommit: baseSha });
    assert.equal(plan.headMatchesBase, false, 'HEAD is not the base');
    assert.equal(plan.baseKnownLocally, true, 'the base is known');
    assert.equal(plan.head, gitText(local, ['rev-parse', 'HEAD']).trim(), 'local HEAD');
    assert.ok(
      plan.files.every((file) => file.outcome === 'clean'),
      'all clean',
    );
    const unknown = await planApply(local, patch, { baseCommit: 'f'.repeat(40) });
    assert.deepEqual([unknown.headMatchesBase, unknown.baseKnownLocally], [false, false], 'an unknown base');
    assert.equal((await planApply(local, patch)).headMatchesBase, undefined, 'no base, no comparison');

    const result = await applyPatch(local, patch, { baseCommit: baseSha });
    assert.equal(result.applied.length, 6, 'everything applied');
    const expected = treeBytes(agent);
    expected.set('local-only.txt', Buffer.from('unrelated\n'));
    assert.deepEqual(differingPaths(treeBytes(local), expected), [], 'the agent tree plus the local file');
  });

  it('(4b) merges in three ways a file the local branch changed next to the agent lines, nothing staged', async () => {
    const local = cloneBase();
    commitNearby(local);

    const plan = await planApply(local, patch, { baseCommit: baseSha });
    assert.equal(plan.files.find((file) => file.path === 'app.txt')?.outcome, 'merge', 'app.txt merges');
    const result = await applyPatch(local, patch, { baseCommit: baseSha });
    assert.deepEqual(result.merged, ['app.txt'], 'merged');
    assert.equal(result.applied.length, 5, 'the others applied directly');
    const app = readFileSync(join(local, 'app.txt'), 'utf8');
    assert.ok(app.includes('line 10 (agent)') && app.includes('line 12 (local)'), 'both edits in app.txt');
    assert.equal(gitText(local, ['diff', '--cached']), '', 'the merge left nothing staged');
    assert.deepEqual(statusPaths(local), [...TOUCHED].sort(), 'status lists the touched files');
  });

  it('(5) applies only the chosen file, a rename by its old name too', async () => {
    const local = cloneBase();
    const result = await applyPatch(local, patch, { only: [SPECIAL] });
    assert.deepEqual(result.applied, [SPECIAL], 'just the one file');
    assert.equal(result.skipped.length, 5, 'the others skipped');
    assert.deepEqual(statusPaths(local), [SPECIAL], 'status shows only it');
    assert.equal(readFileSync(join(local, SPECIAL), 'utf8'), 'first\nsecond\nthird\n', 'its new content');

    const renamed = await applyPatch(local, patch, { only: ['long.txt'] });
    assert.deepEqual(renamed.applied, ['moved/long.txt'], 'the rename, named by its old path');
    assert.deepEqual(statusPaths(local), ['long.txt', 'moved/long.txt', SPECIAL].sort(), 'both sides of it');
  });

  for (const failing of ['the direct apply', 'the 3-way merge before the direct apply'] as const) {
    it(`(6) puts back every byte, the index and the status when ${failing} fails after writing`, async () => {
      const local = cloneBase();
      const merge = failing !== 'the direct apply';
      if (merge) commitNearby(local);
      // Some state of the user's own, outside the change and inside the index.
      write(local, 'notes.txt', 'untracked\n');
      write(local, 'README.local', 'staged\n');
      git(local, ['add', 'README.local']);
      const before = repoState(local);

      // git really writes, then says it failed.
      const writeThenFail: GitRunner = async (cwd, args, options) => {
        const output = await runGit(cwd, args, options);
        const writes = isWritingApply(args);
        return writes && args.includes('--3way') === merge
          ? { exitCode: 1, stdout: Buffer.alloc(0), stderr: 'error: simulated failure\n' }
          : output;
      };
      await assert.rejects(
        applyPatch(local, patch, { baseCommit: baseSha, runGit: writeThenFail }),
        (error: unknown) =>
          error instanceof GitCommandError &&
          error.message.includes('git apply') &&
          error.message.includes('simulated failure') &&
          !error.message.includes('line 10 (agent)'),
        'the failure comes back as a git error without the patch',
      );
      assertUnchanged(local, before, 'after the failed apply');
      assert.equal(gitText(local, ['ls-files', '-u']), '', 'no unmerged entry left');
      assert.deepEqual(readdirSync(local).includes('new'), false, 'the folder the apply created is gone');
      assert.deepEqual(
        differingPaths(treeBytes(local), treeBytes(agent)).length > 0,
        true,
        'and the change is not there',
      );
    });
  }

  it('(7) plans without changing the working tree, the index or its file', async () => {
    const local = cloneBase();
    commitNearby(local);
    write(local, SPECIAL, 'an uncommitted edit\n');
    write(local, 'new/dir/added.txt', 'an untracked file in the way\n');
    const before = repoState(local);
    const indexFile = readFileSync(join(local, '.git', 'index'));

    const plan = await planApply(local, patch, { baseCommit: baseSha });
    assert.deepEqual(
      Object.fromEntries(plan.files.map((file) => [file.path, file.outcome])),
      {
        'app.txt': 'merge',
        'new/dir/added.txt': 'conflict',
        'obsolete.txt': 'clean',
        'moved/long.txt': 'clean',
        'logo.bin': 'clean',
        [SPECIAL]: 'conflict',
      },
      'the outcomes',
    );
    assert.deepEqual([...plan.dirty].sort(), ['new/dir/added.txt', SPECIAL].sort(), 'the dirty paths');
    assert.ok(
      readFileSync(join(local, '.git', 'index')).equals(indexFile),
      'the index file is byte for byte the same',
    );
    assertUnchanged(local, before, 'after the plan');
  });

  it('runs git with a clear error when it is missing, too slow, cancelled or too talkative', async () => {
    const missing = runGit(tmp, ['--version'], { env: { PATH: join(tmp, 'no-such-folder') } });
    await assert.rejects(
      missing,
      (error: unknown) =>
        error instanceof GitCommandError && error.kind === 'missing' && /installed/.test(error.message),
      'git missing',
    );
    const started = Date.now();
    // An alias runs a shell whose child keeps git's pipes open: the deadline must still end the call.
    const slow = runGit(tmp, ['-c', 'alias.wait=!sleep 5', 'wait'], { timeoutMs: 200 });
    await assert.rejects(
      slow,
      (error: unknown) => error instanceof GitCommandError && error.kind === 'timeout',
      'slow',
    );
    assert.ok(Date.now() - started < 4000, `stopped at the deadline, took ${Date.now() - started} ms`);
    await assert.rejects(
      runGit(tmp, ['--version'], { signal: AbortSignal.abort() }),
      (error: unknown) => error instanceof GitCommandError && error.kind === 'aborted',
      'cancelled',
    );
    const talkative = runGit(base, ['cat-file', '-p', `${baseSha}:app.txt`], { maxOutputBytes: 10 });
    await assert.rejects(
      talkative,
      (error: unknown) => error instanceof GitCommandError && error.kind === 'too-much-output',
      'output capped',
    );
  });

  it('refuses a folder outside any repository, and an empty selection', async () => {
    const outside = mkdtempSync(join(tmp, 'plain-'));
    assert.equal(
      (await refusal(planApply(outside, patch))).reason,
      'not-a-repository',
      'plan: not a repository',
    );
    assert.equal((await refusal(applyPatch(outside, patch))).reason, 'not-a-repository', 'apply: the same');
    const local = cloneBase();
    assert.equal(
      (await refusal(applyPatch(local, patch, { only: ['nowhere.txt'] }))).reason,
      'empty',
      'empty',
    );
  });
});
