import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitIn, runGit, withoutSafetyOptions, type GitRunner } from '../../../src/changes/git';
import { auditPatch, patchWarningLines } from '../../../src/changes/patchAudit';
import { applyPatch, GitCommandError, planApply } from '../../../src/changes/patchApply';
import { restoreSnapshot, takeSnapshot } from '../../../src/changes/pathSnapshot';
import {
  assertUnchanged,
  commitAll,
  git,
  isWritingApply,
  refusal,
  repoState,
  treeBytes,
  write,
} from './scratchRepo';

// An attacker who controls the patch's bytes and the sandbox's files, against a real repository with
// real git. After every case: nothing outside the repository or under .git/hooks and .git/config was
// created, changed or deleted, and no program the patch brought ran.

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const patchOf = (...lines: string[]) => Buffer.from(lines.map((line) => `${line}\n`).join(''));
/** A new file `path` holding `text` (one line), as git writes it. */
const newFile = (path: string, text: string, mode = '100644') => [
  `diff --git a/${path} b/${path}`,
  `new file mode ${mode}`,
  '--- /dev/null',
  `+++ b/${path}`,
  '@@ -0,0 +1 @@',
  `+${text}`,
];
/** A new symlink `path` to `target`. */
const newLink = (path: string, target: string) => [
  ...newFile(path, target, '120000'),
  '\\ No newline at end of file',
];
const copyTo = (source: string, target: string) => [
  `diff --git a/${source} b/${target}`,
  'similarity index 100%',
  `copy from ${source}`,
  `copy to ${target}`,
];

describe('changes: a hostile patch stays inside the repository', function () {
  this.timeout(120_000);
  let tmp: string;
  let outside: string;
  let repo: string;
  let outsideBefore: Map<string, Buffer>;
  let gitFolderBefore: { hooks: string[]; config: Buffer };

  const canaries = () => readdirSync(tmp).filter((name) => name.startsWith('RAN-'));
  const canary = (name: string) => join(tmp, `RAN-${name}`);

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-hostile-'));
    outside = join(tmp, 'outside');
    write(outside, 'secret', 'the user’s secret\n');
    write(outside, 'sub/keep.txt', 'kept\n');
    repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q']);
    write(repo, 'app.txt', numbered('line', 40));
    write(repo, 'a.txt', numbered('a', 10));
    write(repo, 'sub/inside.txt', 'inside\n');
    commitAll(repo, 'base');
    outsideBefore = treeBytes(outside);
    gitFolderBefore = gitFolder();
  });

  const gitFolder = () => ({
    hooks: readdirSync(join(repo, '.git', 'hooks')).sort(),
    config: readFileSync(join(repo, '.git', 'config')),
  });

  afterEach(function () {
    // The canary check, after every case.
    if (this.currentTest?.state !== 'failed') {
      assert.deepEqual(treeBytes(outside), outsideBefore, 'nothing outside the repository changed');
      assert.deepEqual(gitFolder(), gitFolderBefore, '.git/hooks and .git/config are as they were');
      assert.deepEqual(canaries(), [], 'nothing the patch brought ran');
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Refused before anything is written, for the reason `why`, naming `path`. */
  async function assertRefused(patch: Buffer, path: string, why: RegExp): Promise<void> {
    const before = repoState(repo);
    const refused = await refusal(applyPatch(repo, patch));
    assert.equal(refused.reason, 'unsafe', `refused as unsafe, not ${refused.reason}: ${refused.message}`);
    const named = refused.refusals.find((entry) => entry.path === path);
    assert.ok(named, `${path} is named: ${JSON.stringify(refused.refusals)}`);
    assert.match(named.reason, why, 'the reason, in words');
    assert.doesNotMatch(refused.message, /^(error|fatal):/m, 'not git’s own error text');
    assertUnchanged(repo, before, 'after the refusal');
    assert.equal(existsSync(join(repo, 'stolen.txt')), false, 'nothing copied in');
  }

  describe('reading from outside: rename and copy sources obey the same rules', () => {
    it('a copy from beside the repository (the issue’s example)', async () => {
      await assertRefused(patchOf(...copyTo('../outside/secret', 'stolen.txt')), 'stolen.txt', /climbs out/);
    });
    it('a copy from an absolute path', async () => {
      await assertRefused(
        patchOf(...copyTo(join(outside, 'secret'), 'stolen.txt')),
        'stolen.txt',
        /absolute/,
      );
    });
    it('a rename of .git/config (the token in its remote URL)', async () => {
      const patch = patchOf(
        'diff --git a/.git/config b/stolen.txt',
        'similarity index 100%',
        'rename from .git/config',
        'rename to stolen.txt',
      );
      await assertRefused(patch, 'stolen.txt', /inside \.git/);
    });
    for (const spelling of [
      '.GIT',
      '.Git',
      '.git.',
      '.git. .',
      'git~1',
      'GIT~1',
      '.git::$INDEX_ALLOCATION',
    ]) {
      it(`a copy from ${spelling}/config (git’s own spellings of .git)`, async () => {
        await assertRefused(
          patchOf(...copyTo(`${spelling}/config`, 'stolen.txt')),
          'stolen.txt',
          /inside \.git/,
        );
      });
    }
    it('a copy from .g\\u200cit/config (an HFS+ ignored code point), quoted the way git quotes it', async () => {
      const patch = patchOf(
        'diff --git "a/.g\\342\\200\\214it/config" b/stolen.txt',
        'similarity index 100%',
        'copy from ".g\\342\\200\\214it/config"',
        'copy to stolen.txt',
      );
      await assertRefused(patch, 'stolen.txt', /inside \.git/);
    });
    it('a rename from a folder under a link the repository already holds', async () => {
      symlinkSync('../outside', join(repo, 'lnk'));
      commitAll(repo, 'a link of the user’s own');
      const patch = patchOf(
        'diff --git a/lnk/secret b/stolen.txt',
        'similarity index 100%',
        'rename from lnk/secret',
        'rename to stolen.txt',
      );
      await assertRefused(patch, 'stolen.txt', /under lnk, a link in your repository/);
    });
  });

  describe('writing outside: every name is relative, normalised, outside .git', () => {
    it('“..” spelled in octal inside a quoted name', async () => {
      const patch = patchOf(
        'diff --git "a/\\056\\056/outside/new" "b/\\056\\056/outside/new"',
        'new file mode 100644',
        '--- /dev/null',
        '+++ "b/\\056\\056/outside/new"',
        '@@ -0,0 +1 @@',
        '+planted',
      );
      await assertRefused(patch, '../outside/new', /climbs out/);
    });
    it('an absolute path after the a/ folder', async () => {
      await assertRefused(patchOf(...newFile(`/${outside}/new`, 'planted')), `/${outside}/new`, /absolute/);
    });
    it('a hook planted in .git/hooks, and one in a submodule’s .git', async () => {
      await assertRefused(
        patchOf(...newFile('.git/hooks/post-checkout', '#!/bin/sh', '100755')),
        '.git/hooks/post-checkout',
        /inside \.git/,
      );
      await assertRefused(
        patchOf(...newFile('vendor/.GIT/config', 'x')),
        'vendor/.GIT/config',
        /inside \.git/,
      );
    });
    it('a backslash, a control character and an empty folder in a name', async () => {
      await assertRefused(patchOf(...newFile('..\\outside\\x', 'x')), '..\\outside\\x', /backslash/);
      const tab = patchOf(
        'diff --git "a/x\\001y" "b/x\\001y"',
        'new file mode 100644',
        '--- /dev/null',
        '+++ "b/x\\001y"',
        '@@ -0,0 +1 @@',
        '+x',
      );
      await assertRefused(tab, 'x\u0001y', /control character/);
      await assertRefused(patchOf(...newFile('a//b.txt', 'x')), 'a//b.txt', /not a plain relative path/);
    });
  });

  describe('links: none leaves the repository, none is written through', () => {
    it('the issue’s example: a link to ../outside, then a rename into it with a hunk', async () => {
      const patch = patchOf(
        ...newLink('d', '../outside'),
        'diff --git a/a.txt b/d/a.txt',
        'similarity index 90%',
        'rename from a.txt',
        'rename to d/a.txt',
        'index 0000001..0000002 100644',
        '--- a/a.txt',
        '+++ b/d/a.txt',
        '@@ -1,3 +1,3 @@',
        ' a 1',
        '-a 2',
        '+a 2 (written through the link)',
        ' a 3',
      );
      await assertRefused(patch, 'd', /a link to “\.\.\/outside”, outside the repository/);
      await assertRefused(patch, 'd/a.txt', /under d, a link the same change makes/);
    });
    it('a link that stays inside, and a file written through it', async () => {
      await assertRefused(
        patchOf(...newLink('d', 'sub'), ...newFile('d/x.txt', 'through')),
        'd/x.txt',
        /under d, a link the same change makes/,
      );
    });
    it('a link named D, and d/x on a case-insensitive file system', async () => {
      await assertRefused(
        patchOf(...newLink('D', 'sub'), ...newFile('d/x.txt', 'through')),
        'd/x.txt',
        /under D, a link the same change makes/,
      );
    });
    it('a new file under a link already in the tree', async () => {
      symlinkSync('../outside', join(repo, 'lnk'));
      await assertRefused(
        patchOf(...newFile('lnk/planted.txt', 'x')),
        'lnk/planted.txt',
        /under lnk, a link/,
      );
    });
    it('a new file under a link that is only in the index', async () => {
      symlinkSync('../outside', join(repo, 'ilink'));
      commitAll(repo, 'a link');
      rmSync(join(repo, 'ilink'));
      mkdirSync(join(repo, 'ilink'));
      await assertRefused(
        patchOf(...newFile('ilink/planted.txt', 'x')),
        'ilink/planted.txt',
        /under ilink, a link/,
      );
    });
    it('links into .git, through another link, with a binary target, or named .gitattributes', async () => {
      await assertRefused(patchOf(...newLink('g', './.GIT/hooks')), 'g', /inside \.git/);
      symlinkSync('../outside', join(repo, 'out'));
      commitAll(repo, 'a link');
      await assertRefused(patchOf(...newLink('via', 'out/secret')), 'via', /under out, a link/);
      const binaryLink = patchOf(
        'diff --git a/b b/b',
        'new file mode 120000',
        'index 0000000..1111111',
        'GIT binary patch',
        'literal 10',
        'Rcmb7GNlYxv&&~vG00Vvj0IDTzr',
        '',
        'literal 0',
        'HcmV?d00001',
        '',
      );
      await assertRefused(binaryLink, 'b', /binary data/);
      await assertRefused(
        patchOf(...newLink('.gitattributes', 'sub/inside.txt')),
        '.gitattributes',
        /may not be a link/,
      );
    });
    it('a file turned into a link by a mode change alone, its bytes the target', async () => {
      write(repo, 't', '../outside/secret');
      commitAll(repo, 'a file that names the outside');
      await assertRefused(
        patchOf('diff --git a/t b/t', 'old mode 100644', 'new mode 120000'),
        't',
        /outside the repository/,
      );
    });
    it('applies a link that stays inside, as a link', async () => {
      const result = await applyPatch(repo, patchOf(...newLink('docs', 'sub')));
      assert.deepEqual(result.applied, ['docs']);
      assert.equal(
        readFileSync(join(repo, 'docs', 'inside.txt'), 'utf8'),
        'inside\n',
        'the link leads inside',
      );
    });
  });

  describe('the patch as a whole', () => {
    it('refuses a part that is not in git’s format, and a hunk outside any file', async () => {
      await assertRefused(
        patchOf('--- a/x', '+++ b/x', '@@ -0,0 +1 @@', '+x'),
        '',
        /not in git's own patch format/,
      );
      await assertRefused(
        patchOf('notes', '@@ -1 +1 @@', '-a', '+b', ...newFile('ok.txt', 'ok')),
        '',
        /hunk outside any file/,
      );
    });
    it('reads a patch file the agent edited (its lines look like headers) as one file, and applies it', async () => {
      const inner = ['diff --git a/../outside/secret b/x', 'copy from ../outside/secret', 'copy to x'];
      const patch = patchOf(
        'diff --git a/docs/example.patch b/docs/example.patch',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/docs/example.patch',
        `@@ -0,0 +1,${inner.length} @@`,
        ...inner.map((line) => `+${line}`),
      );
      const result = await applyPatch(repo, patch);
      assert.deepEqual(result.applied, ['docs/example.patch']);
      assert.equal(readFileSync(join(repo, 'docs/example.patch'), 'utf8'), inner.join('\n') + '\n');
    });
    it('reads a hunk of 300,000 lines (no limit of the call stack), and applies it', async () => {
      const lines = Array.from({ length: 300_000 }, (_, i) => `line ${i}`);
      const header = patchOf(
        'diff --git a/big.txt b/big.txt',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/big.txt',
        `@@ -0,0 +1,${lines.length} @@`,
      );
      const patch = Buffer.concat([header, Buffer.from(lines.map((line) => `+${line}\n`).join(''))]);
      const result = await applyPatch(repo, patch);
      assert.deepEqual(result.applied, ['big.txt']);
      assert.equal(readFileSync(join(repo, 'big.txt'), 'utf8'), lines.join('\n') + '\n');
    });
    it('gives git only the sections it checked: text between them never reaches git', async () => {
      const seen: Buffer[] = [];
      const recording: GitRunner = (cwd, args, options) => {
        if (withoutSafetyOptions(args)[0] === 'apply' && options?.input) seen.push(options.input);
        return runGit(cwd, args, options);
      };
      const patch = Buffer.concat([
        Buffer.from('From the agent: a preamble git would skip\n'),
        patchOf(...newFile('ok.txt', 'ok')),
      ]);
      await applyPatch(repo, patch, { runGit: recording });
      assert.ok(seen.length > 0);
      for (const input of seen) assert.ok(!input.includes('preamble'), 'the preamble was dropped');
    });
  });

  describe('nothing runs', () => {
    /** A change that runs every index-writing step of Apply: a clean file, a 3-way merge, a stash. */
    function mergingChange(extra: string[]): Buffer {
      const agent = numbered('line', 40).replace('line 10\n', 'line 10 (agent)\n');
      write(repo, 'app.txt', agent);
      write(repo, 'a.txt', numbered('a', 10).replace('a 5\n', 'a 5 (agent)\n'));
      const patch = git(repo, ['diff']);
      git(repo, ['checkout', '--', '.']);
      write(repo, 'app.txt', numbered('line', 40).replace('line 12\n', 'line 12 (local)\n'));
      commitAll(repo, 'local, next to the agent’s line');
      write(repo, 'a.txt', numbered('a', 10).replace('a 9\n', 'a 9 (uncommitted)\n'));
      return Buffer.concat([patchOf(...extra), patch]);
    }
    const script = (name: string) => `touch ${canary(name)}`;

    it('hooks in a repository whose hooks folder is in the tree (core.hooksPath)', async () => {
      git(repo, ['config', 'core.hooksPath', '.githooks']);
      gitFolderBefore = gitFolder();
      const hooks = ['post-index-change', 'reference-transaction', 'post-checkout', 'pre-commit'];
      const patch = mergingChange(
        hooks.flatMap((hook) => newFile(`.githooks/${hook}`, script(hook), '100755')),
      );
      const result = await applyPatch(repo, patch, { stashFirst: true, baseCommit: 'HEAD' });
      assert.deepEqual(result.merged, ['app.txt'], 'the 3-way phase ran');
      assert.ok(result.stashed, 'the stash ran');
      assert.deepEqual(canaries(), [], 'no hook ran during Apply');
      // The hooks were live: git itself runs them.
      git(repo, ['add', 'a.txt']);
      assert.ok(existsSync(canary('post-index-change')), 'the planted hook runs outside Apply');
      rmSync(canary('post-index-change'));
      for (const name of canaries()) rmSync(join(tmp, name));
    });

    it('filters and merge drivers the user configured, named by the patch’s own .gitattributes', async () => {
      git(repo, ['config', 'filter.evil.smudge', `${script('smudge')}; cat`]);
      git(repo, ['config', 'filter.evil.clean', `${script('clean')}; cat`]);
      git(repo, ['config', 'merge.evil.driver', script('merge')]);
      gitFolderBefore = gitFolder();
      const patch = mergingChange(newFile('.gitattributes', '* filter=evil merge=evil'));
      await applyPatch(repo, patch, { stashFirst: true });
      assert.deepEqual(canaries(), [], 'no filter or merge driver ran during Apply');
      assert.match(
        readFileSync(join(repo, 'app.txt'), 'utf8'),
        /line 10 \(agent\)/,
        'the agent’s line is in',
      );
      // The filter was live: git itself runs it.
      git(repo, ['add', 'app.txt']);
      assert.ok(canaries().length > 0, 'the configured filter runs outside Apply');
      for (const name of canaries()) rmSync(join(tmp, name));
    });
  });

  describe('rollback never follows a link', () => {
    it('a path under a link the failed apply made is not cleared through the link', async () => {
      const repoGit = gitIn(repo);
      const snapshot = await takeSnapshot(repoGit, ['d', 'd/secret']);
      // What a failed apply could leave: d made a link to the outside, so d/secret is the user's file.
      symlinkSync('../outside', join(repo, 'd'));
      await restoreSnapshot(repoGit, snapshot, new Error('the apply failed'));
      assert.equal(existsSync(join(repo, 'd')), false, 'the link is gone');
      assert.equal(
        readFileSync(join(outside, 'secret'), 'utf8'),
        'the user’s secret\n',
        'its target is untouched',
      );
    });
    it('a snapshot refuses to read a path under a link', async () => {
      symlinkSync('../outside', join(repo, 'lnk'));
      await assert.rejects(takeSnapshot(gitIn(repo), ['lnk/secret']), /under a link/);
    });
  });

  describe('the same checks guard Accept This File and Save as Patch', () => {
    const hostile = () => patchOf(...copyTo('../outside/secret', 'stolen.txt'), ...newFile('ok.txt', 'fine'));

    it('accepts the safe file of a hostile change; the hostile part never reaches git', async () => {
      const inputs: Buffer[] = [];
      const recording: GitRunner = (cwd, args, options) => {
        if (options?.input) inputs.push(options.input);
        return runGit(cwd, args, options);
      };
      const result = await applyPatch(repo, hostile(), { only: ['ok.txt'], runGit: recording });
      assert.deepEqual(result.applied, ['ok.txt']);
      const writes = inputs.filter((input) => input.includes('ok.txt') && !input.includes('outside'));
      assert.ok(writes.length > 0, 'git got the safe section');
      const plan = await planApply(repo, hostile());
      assert.deepEqual(
        plan.files.map((file) => [file.path, file.outcome]),
        [
          ['stolen.txt', 'refused'],
          ['ok.txt', 'conflict'],
        ],
        'the plan says which is refused (ok.txt now exists)',
      );
      rmSync(join(repo, 'ok.txt'));
      await assertRefused(hostile(), 'stolen.txt', /climbs out/);
    });

    it('a saved patch carries a warning at its top, escaped, and still applies by hand', async () => {
      assert.equal(await auditPatch(patchOf(...newFile('ok.txt', 'fine'))), undefined, 'a safe patch: none');
      const warning = await auditPatch(hostile());
      assert.match(warning ?? '', /stolen\.txt: \.\.\/outside\/secret: it climbs out/);
      const lines = patchWarningLines('x\ndiff --git a/../y b/../y');
      assert.equal(lines.split('\n').filter((line) => line !== '' && !line.startsWith('# ')).length, 0);
      assert.match(lines, /x\\x0adiff/, 'the newline is escaped');
      const saved = Buffer.concat([
        Buffer.from(patchWarningLines(warning ?? '')),
        patchOf(...newFile('ok.txt', 'fine')),
      ]);
      const result = await applyPatch(repo, saved);
      assert.deepEqual(result.applied, ['ok.txt'], 'git skips the warning');
    });
  });

  describe('cost: a bounded number of git calls, progress, cancel', () => {
    /** `count` files, each changed by the agent and, differently, on the local branch: all conflict. */
    function conflicting(count: number): Buffer {
      for (let i = 0; i < count; i++) write(repo, `many/f${i}.txt`, 'one\ntwo\nthree\n');
      commitAll(repo, 'many');
      for (let i = 0; i < count; i++) write(repo, `many/f${i}.txt`, 'one\ntwo (agent)\nthree\n');
      const patch = git(repo, ['diff']);
      for (let i = 0; i < count; i++) write(repo, `many/f${i}.txt`, 'one\ntwo (local)\nthree\n');
      commitAll(repo, 'local');
      return patch;
    }
    const counting =
      (calls: string[][]): GitRunner =>
      (cwd, args, options) => {
        calls.push([...withoutSafetyOptions(args)]);
        return runGit(cwd, args, options);
      };

    it('plans 2,000 conflicting files in as many git calls as 20', async () => {
      const small: string[][] = [];
      const smallPlan = await planApply(repo, conflicting(20), { runGit: counting(small) });
      assert.equal(smallPlan.files.filter((file) => file.outcome === 'conflict').length, 20);
      rmSync(join(repo, 'many'), { recursive: true });
      commitAll(repo, 'none');
      const large: string[][] = [];
      const steps: string[] = [];
      const started = Date.now();
      const largePlan = await planApply(repo, conflicting(2000), {
        runGit: counting(large),
        onProgress: (step) => steps.push(step),
      });
      const took = Date.now() - started;
      assert.equal(largePlan.files.filter((file) => file.outcome === 'conflict').length, 2000);
      assert.equal(large.length, small.length, `as many calls: ${large.map((call) => call[0]).join(' ')}`);
      assert.ok(large.length <= 12, `${large.length} git calls`);
      assert.ok(
        steps.some((step) => /2000 files/.test(step)),
        `progress: ${steps.join(' | ')}`,
      );
      console.log(`      2,000 conflicting files planned in ${large.length} git calls, ${took} ms`);
    });

    it('a cancel while planning or while writing leaves everything as it was', async () => {
      const patch = patchOf(...newFile('new.txt', 'new'));
      write(repo, 'app.txt', numbered('line', 40).replace('line 10\n', 'line 10 (agent)\n'));
      const both = Buffer.concat([patch, git(repo, ['diff'])]);
      git(repo, ['checkout', '--', '.']);
      write(repo, 'app.txt', numbered('line', 40).replace('line 12\n', 'line 12 (local)\n'));
      commitAll(repo, 'local');
      const before = repoState(repo);
      for (const when of ['planning', 'writing'] as const) {
        const controller = new AbortController();
        const cancelling: GitRunner = async (cwd, args, options) => {
          const output = await runGit(cwd, args, options);
          const command = withoutSafetyOptions(args);
          // Planning: once the first check ran. Writing: once the clean files are written.
          if (when === 'planning' ? command.includes('--check') : isWritingApply(args)) controller.abort();
          return output;
        };
        await assert.rejects(
          applyPatch(repo, both, { runGit: cancelling, signal: controller.signal }),
          (error: unknown) => error instanceof GitCommandError && error.kind === 'aborted',
          `cancelled while ${when}`,
        );
        assertUnchanged(repo, before, `after a cancel while ${when}`);
      }
    });
  });
});
