// Apply's question about files that can run code: the answers it offers and what each makes of the
// apply (the logic behind the dialog), then a real patch git wrote, planned and applied in a scratch
// repository: the plan's files carry the modes that mark a new executable and a new link, and
// "Apply Without Them" leaves every such file out and applies the rest.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeRunningFiles, EXECUTABLE_REASON, LINK_REASON, type CodeRunningFile } from '../../../src/api';
import { applyPatch, planApply } from '../../../src/changes/patchApply';
import { codeRunningAnswers, codeRunningStep } from '../../../src/commands/changes/codeRunningChoice';
import { commitAll, git, gitText, statusPaths, write } from './scratchRepo';

const TASKS: CodeRunningFile = { path: '.vscode/tasks.json', reason: 'VS Code runs its tasks' };
const MAKEFILE: CodeRunningFile = { path: 'Makefile', reason: 'make runs its recipes' };

describe('Apply’s question about files that can run code: the answers', () => {
  it('asks nothing when no file can run code', () => {
    assert.deepEqual(codeRunningStep(undefined, [], 3), { kind: 'apply', leftOut: [], codeRunning: [] });
  });

  it('offers Review First as the default, Apply Without Them only when other files are left to apply', () => {
    assert.deepEqual(codeRunningAnswers([TASKS], 2), ['review', 'without', 'all']);
    assert.deepEqual(codeRunningAnswers([TASKS, MAKEFILE], 2), ['review', 'all']);
  });

  it('Apply All applies every file and names those that can run code', () => {
    assert.deepEqual(codeRunningStep('all', [TASKS, MAKEFILE], 5), {
      kind: 'apply',
      leftOut: [],
      codeRunning: [TASKS, MAKEFILE],
    });
  });

  it('Apply Without Them leaves them out; with nothing else to apply, nothing is', () => {
    assert.deepEqual(codeRunningStep('without', [TASKS, MAKEFILE], 5), {
      kind: 'apply',
      leftOut: ['.vscode/tasks.json', 'Makefile'],
      codeRunning: [],
    });
    assert.deepEqual(codeRunningStep('without', [TASKS], 1), { kind: 'nothing-left', files: [TASKS] });
  });

  it('Review First reviews them; a dismissed question cancels', () => {
    assert.deepEqual(codeRunningStep('review', [TASKS], 4), { kind: 'review', files: [TASKS] });
    assert.deepEqual(codeRunningStep(undefined, [TASKS], 4), { kind: 'cancel' });
  });
});

describe('Apply’s question about files that can run code: a real patch', function () {
  this.timeout(30_000);
  let tmp: string;
  let base: string;
  let patch: Buffer;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-code-running-'));
    base = join(tmp, 'base');
    mkdirSync(base);
    git(base, ['init', '-q']);
    write(base, 'src/app.ts', 'export const a = 1;\n');
    write(base, 'scripts/build.sh', 'echo build\n');
    write(base, 'Makefile', 'all:\n\techo all\n');
    write(base, 'tools/old.mk', 'old:\n');
    commitAll(base, 'base');
    const start = gitText(base, ['rev-parse', 'HEAD']).trim();
    // the agent's change: source, a task, a build file, a new hook, an old script made executable, a link
    write(base, 'src/app.ts', 'export const a = 2;\n');
    write(base, 'docs/notes.md', '# notes\n');
    write(
      base,
      '.vscode/tasks.json',
      '{"version":"2.0.0","tasks":[{"label":"x","command":"x","runOptions":{"runOn":"folderOpen"}}]}\n',
    );
    write(base, 'Makefile', 'all:\n\techo changed\n');
    rmSync(join(base, 'tools/old.mk')); // deleted: runs nothing
    write(base, '.husky/pre-commit', 'echo hook\n');
    chmodSync(join(base, '.husky/pre-commit'), 0o755);
    chmodSync(join(base, 'scripts/build.sh'), 0o755);
    mkdirSync(join(base, 'bin'));
    symlinkSync('../scripts/build.sh', join(base, 'bin/build'));
    git(base, ['add', '-A']);
    patch = git(base, ['diff', '--binary', '--cached', start]);
    git(base, ['reset', '-q', '--hard', start]);
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('marks the files by path and by the modes the patch gives, in the patch’s order', async () => {
    const plan = await planApply(base, patch);
    assert.deepEqual(
      codeRunningFiles(plan.files).map((file) => [file.path, file.reason]),
      [
        ['.husky/pre-commit', 'husky has git run these hooks on commit and push'],
        [
          '.vscode/tasks.json',
          'VS Code runs its tasks, some as soon as the folder opens (runOn: folderOpen)',
        ],
        ['Makefile', 'make runs its recipes'],
        ['bin/build', LINK_REASON],
        ['scripts/build.sh', EXECUTABLE_REASON],
      ],
    );
  });

  it('Apply Without Them applies the rest and none of them', async () => {
    const local = join(tmp, 'local');
    git(tmp, ['clone', '-q', base, local]);
    const plan = await planApply(local, patch);
    const step = codeRunningStep('without', codeRunningFiles(plan.files), plan.files.length);
    assert.equal(step.kind, 'apply');
    const result = await applyPatch(local, patch, { skip: step.kind === 'apply' ? step.leftOut : [] });
    assert.deepEqual(result.applied.sort(), ['docs/notes.md', 'src/app.ts', 'tools/old.mk']);
    assert.deepEqual(statusPaths(local).sort(), ['docs/notes.md', 'src/app.ts', 'tools/old.mk']);
    assert.equal(readFileSync(join(local, 'Makefile'), 'utf8'), 'all:\n\techo all\n');
    for (const absent of ['.vscode/tasks.json', '.husky/pre-commit', 'bin/build'])
      assert.ok(!existsSync(join(local, absent)), `${absent} was left out`);
    assert.equal(gitText(local, ['ls-files', '-s', 'scripts/build.sh']).slice(0, 6), '100644');
  });
});
