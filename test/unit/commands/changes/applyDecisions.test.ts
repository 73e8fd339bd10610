// Apply's decisions without VS Code: for realistic plans (the shape patchPlan gives: files with their
// outcomes and modes, dirty paths, HEAD against the agent's base), which question comes next, what
// each answer makes of the apply, and that answering every question always ends in a decision.
import assert from 'node:assert/strict';
import type { ApplyPlan, PlannedFile } from '../../../../src/changes';
import {
  nextApplyStep,
  repositoryMismatch,
  reportedSkips,
  selectedFiles,
  type ApplyAnswers,
  type ApplyStep,
} from '../../../../src/commands/changes/applyDecisions';

const HEAD = '1111111111111111111111111111111111111111';
const BASE = '2222222222222222222222222222222222222222';

function file(path: string, outcome: PlannedFile['outcome'], extra: Partial<PlannedFile> = {}): PlannedFile {
  return { path, status: 'modified', binary: false, oldMode: 0o100644, newMode: 0o100644, outcome, ...extra };
}

function plan(files: PlannedFile[], extra: Partial<ApplyPlan> = {}): ApplyPlan {
  return {
    root: '/home/dev/project',
    files,
    dirty: [],
    head: BASE,
    baseCommit: BASE,
    headMatchesBase: true,
    baseKnownLocally: true,
    ...extra,
  };
}

const APP = file('src/app.ts', 'clean');
const README = file('README.md', 'merge', { reason: 'applied by a three-way merge' });
const ESCAPE = file('../outside.txt', 'refused', { status: 'added', reason: 'outside the repository' });
const TASKS = file('.vscode/tasks.json', 'clean', { status: 'added', oldMode: undefined });
const MAKEFILE = file('Makefile', 'clean');
const MARKED_TASKS = {
  path: '.vscode/tasks.json',
  reason: 'VS Code runs its tasks, some as soon as the folder opens (runOn: folderOpen)',
};
const MARKED_MAKEFILE = { path: 'Makefile', reason: 'make runs its recipes' };
const CONFLICT = file('src/db.ts', 'conflict', { reason: 'patch does not apply' });

type Question = Extract<ApplyStep, { kind: `ask-${string}` }>['kind'];

/** The answer each question sets. */
const ANSWER_OF: Record<Question, keyof ApplyAnswers> = {
  'ask-skip-refused': 'skipRefused',
  'ask-code-running': 'codeRunning',
  'ask-head': 'anyHead',
  'ask-stash': 'stash',
  'ask-skip-conflicts': 'skipConflicts',
};

function isQuestion(kind: ApplyStep['kind']): kind is Question {
  return kind in ANSWER_OF;
}

/**
 * Every question a plan asks, answered from `answers` as it comes (as the flow does), and where it
 * ends. A question asked twice fails the test, so the walk ends after five questions at most.
 */
function walk(applyPlan: ApplyPlan, answers: ApplyAnswers): { asked: Question[]; end: ApplyStep } {
  const given: ApplyAnswers = {};
  const asked: Question[] = [];
  for (;;) {
    const step = nextApplyStep(applyPlan, applyPlan.files, given);
    if (!isQuestion(step.kind)) return { asked, end: step };
    assert.ok(!asked.includes(step.kind), `${step.kind} asked twice`);
    asked.push(step.kind);
    const key = ANSWER_OF[step.kind];
    assert.ok(answers[key] !== undefined, `${step.kind} asked, but the test gave no answer`);
    Object.assign(given, { [key]: answers[key] });
  }
}

describe('Apply’s decisions', () => {
  it('a clean plan on the agent’s base asks nothing and applies every file', () => {
    assert.deepEqual(walk(plan([APP, README]), {}), {
      asked: [],
      end: { kind: 'apply', skip: [], stash: false, leftOut: [], codeRunning: [] },
    });
  });

  it('asks in a fixed order: refused files, code-running files, HEAD, stash, conflicts', () => {
    const everything = plan([APP, ESCAPE, TASKS, CONFLICT, README], {
      head: HEAD,
      headMatchesBase: false,
      dirty: ['README.md'],
    });
    const { asked, end } = walk(everything, {
      skipRefused: true,
      codeRunning: 'without',
      anyHead: true,
      stash: true,
      skipConflicts: true,
    });
    assert.deepEqual(asked, [
      'ask-skip-refused',
      'ask-code-running',
      'ask-head',
      'ask-stash',
      'ask-skip-conflicts',
    ]);
    assert.deepEqual(end, {
      kind: 'apply',
      skip: ['../outside.txt', '.vscode/tasks.json', 'src/db.ts'],
      stash: true,
      leftOut: ['.vscode/tasks.json'],
      codeRunning: [],
    });
  });

  it('refused files: asks to apply the others; no refuses; when every file is refused, refuses without asking', () => {
    const mixed = plan([APP, ESCAPE]);
    assert.deepEqual(nextApplyStep(mixed, mixed.files, {}), {
      kind: 'ask-skip-refused',
      refused: [{ path: '../outside.txt', reason: 'outside the repository' }],
      selected: 2,
    });
    assert.deepEqual(walk(mixed, { skipRefused: false }).end, {
      kind: 'refuse',
      reason: 'unsafe',
      paths: ['../outside.txt'],
      every: false,
    });
    // a caller's yes does not apply a change whose every file is refused
    assert.deepEqual(walk(plan([ESCAPE]), { skipRefused: true }), {
      asked: [],
      end: { kind: 'refuse', reason: 'unsafe', paths: ['../outside.txt'], every: true },
    });
  });

  it('files that can run code: asked about with their reasons, refused files not counted', () => {
    const withTasks = plan([APP, ESCAPE, TASKS, MAKEFILE]);
    assert.deepEqual(nextApplyStep(withTasks, withTasks.files, { skipRefused: true }), {
      kind: 'ask-code-running',
      marked: [MARKED_TASKS, MARKED_MAKEFILE],
      applicable: 3,
    });
  });

  it('files that can run code: a dismissed question cancels, Review First reviews, Apply All names them', () => {
    const withTasks = plan([APP, TASKS]);
    assert.deepEqual(walk(withTasks, { codeRunning: 'dismissed' }).end, { kind: 'cancel' });
    assert.deepEqual(walk(withTasks, { codeRunning: 'review' }).end, {
      kind: 'review',
      files: [MARKED_TASKS],
    });
    assert.deepEqual(walk(withTasks, { codeRunning: 'all' }).end, {
      kind: 'apply',
      skip: [],
      stash: false,
      leftOut: [],
      codeRunning: [MARKED_TASKS],
    });
  });

  it('files that can run code: leaving out the only files left refuses', () => {
    // the refused file is not left to apply either
    assert.deepEqual(
      walk(plan([ESCAPE, TASKS, MAKEFILE]), { skipRefused: true, codeRunning: 'without' }).end,
      {
        kind: 'refuse',
        reason: 'runs-code',
        paths: ['.vscode/tasks.json', 'Makefile'],
        every: false,
      },
    );
  });

  it('HEAD not the agent’s base: asks with both commits; no cancels; no base given asks nothing', () => {
    const moved = plan([APP], { head: HEAD, headMatchesBase: false, baseKnownLocally: false });
    assert.deepEqual(nextApplyStep(moved, moved.files, {}), {
      kind: 'ask-head',
      head: HEAD,
      baseCommit: BASE,
      baseKnownLocally: false,
      handedOver: false,
    });
    assert.deepEqual(walk(moved, { anyHead: false }).end, { kind: 'cancel' });
    // a conversation started from local state: the question says it is about the files handed over
    const handed = plan([APP], {
      head: HEAD,
      headMatchesBase: false,
      baseKnownLocally: true,
      handedOver: true,
    });
    assert.equal(nextApplyStep(handed, handed.files, {}).kind, 'ask-head');
    assert.equal((nextApplyStep(handed, handed.files, {}) as { handedOver?: boolean }).handedOver, true);
    assert.equal(walk(moved, { anyHead: true }).end.kind, 'apply');
    const noBase = plan([APP], { head: HEAD, baseCommit: undefined, headMatchesBase: undefined });
    assert.deepEqual(walk(noBase, {}).asked, []);
  });

  it('local edits: asks to stash them; no refuses, naming them', () => {
    const dirty = plan([APP, README], { dirty: ['README.md'] });
    assert.deepEqual(nextApplyStep(dirty, dirty.files, {}), { kind: 'ask-stash', dirty: ['README.md'] });
    assert.deepEqual(walk(dirty, { stash: false }).end, {
      kind: 'refuse',
      reason: 'dirty',
      paths: ['README.md'],
      every: false,
    });
    assert.deepEqual(walk(dirty, { stash: true }).end, {
      kind: 'apply',
      skip: [],
      stash: true,
      leftOut: [],
      codeRunning: [],
    });
  });

  it('local edits to a file left out (a rename’s old path too) are not asked about', () => {
    const renamedHook = file('.husky/pre-commit', 'clean', {
      status: 'renamed',
      oldPath: 'hooks/pre-commit',
      oldMode: 0o100755,
      newMode: 0o100755,
    });
    const editedHook = plan([APP, renamedHook], { dirty: ['hooks/pre-commit'] });
    assert.deepEqual(walk(editedHook, { codeRunning: 'without' }), {
      asked: ['ask-code-running'],
      end: {
        kind: 'apply',
        skip: ['.husky/pre-commit'],
        stash: false,
        leftOut: ['.husky/pre-commit'],
        codeRunning: [],
      },
    });
  });

  it('conflicts: asks to skip them; no refuses; when every file conflicts, refuses without asking', () => {
    const some = plan([APP, CONFLICT]);
    assert.deepEqual(nextApplyStep(some, some.files, {}), {
      kind: 'ask-skip-conflicts',
      conflicted: ['src/db.ts'],
      applicable: 2,
    });
    assert.deepEqual(walk(some, { skipConflicts: false }).end, {
      kind: 'refuse',
      reason: 'conflict',
      paths: ['src/db.ts'],
      every: false,
    });
    assert.deepEqual(walk(plan([CONFLICT]), { skipConflicts: true }), {
      asked: [],
      end: { kind: 'refuse', reason: 'conflict', paths: ['src/db.ts'], every: true },
    });
  });

  it('a file that conflicts only with edits about to be stashed is not skipped: the apply judges it again', () => {
    const dirtyConflict = plan([APP, CONFLICT], { dirty: ['src/db.ts'] });
    assert.deepEqual(walk(dirtyConflict, { stash: true }), {
      asked: ['ask-stash'],
      end: { kind: 'apply', skip: [], stash: true, leftOut: [], codeRunning: [] },
    });
  });

  it('every combination of answers ends in a decision, each question asked at most once', () => {
    const everything = plan([APP, ESCAPE, TASKS, CONFLICT, README], {
      head: HEAD,
      headMatchesBase: false,
      dirty: ['README.md', 'src/db.ts'],
    });
    const ends = new Set<string>();
    for (const skipRefused of [true, false])
      for (const codeRunning of ['all', 'without', 'review', 'dismissed'] as const)
        for (const anyHead of [true, false])
          for (const stash of [true, false])
            for (const skipConflicts of [true, false]) {
              const { end } = walk(everything, { skipRefused, codeRunning, anyHead, stash, skipConflicts });
              ends.add(end.kind === 'refuse' ? `refuse:${end.reason}` : end.kind);
            }
    assert.deepEqual([...ends].sort(), ['apply', 'cancel', 'refuse:dirty', 'refuse:unsafe', 'review']);
  });

  it('Accept This File selects a file by its new or its old path', () => {
    const renamed = file('src/new.ts', 'clean', { status: 'renamed', oldPath: 'src/old.ts' });
    const accepted = plan([APP, renamed]);
    assert.deepEqual(selectedFiles(accepted, ['src/old.ts']), [renamed]);
    assert.deepEqual(selectedFiles(accepted, ['src/new.ts']), [renamed]);
    assert.deepEqual(selectedFiles(accepted, ['src/none.ts']), []);
    assert.equal(selectedFiles(accepted, undefined), accepted.files);
  });

  it('the report names the skips the user chose, not files outside a one-file accept nor those left out', () => {
    const decision = {
      kind: 'apply' as const,
      skip: ['../outside.txt', '.vscode/tasks.json', 'src/db.ts'],
      stash: false,
      leftOut: ['.vscode/tasks.json'],
      codeRunning: [],
    };
    assert.deepEqual(
      reportedSkips(['src/other.ts', '.vscode/tasks.json', 'src/db.ts', '../outside.txt'], decision),
      ['src/db.ts', '../outside.txt'],
    );
  });

  it('the repository is the conversation’s when a remote names it, in any case or form', () => {
    assert.equal(repositoryMismatch('Acme/Widgets', ['git@github.com:acme/widgets.git']), undefined);
    assert.equal(repositoryMismatch('acme/widgets', ['', 'https://github.com/Acme/Widgets']), undefined);
    assert.deepEqual(repositoryMismatch('acme/widgets', ['https://github.com/acme/gadgets.git']), {
      wanted: 'acme/widgets',
      found: 'acme/gadgets',
    });
    assert.deepEqual(repositoryMismatch('acme/widgets', []), { wanted: 'acme/widgets', found: undefined });
    // a conversation started on no repository matches none
    assert.deepEqual(repositoryMismatch(null, ['https://github.com/acme/widgets.git']), {
      wanted: undefined,
      found: 'acme/widgets',
    });
  });
});
