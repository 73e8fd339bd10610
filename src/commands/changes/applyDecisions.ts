/**
 * Apply's decisions, without VS Code (so they are unit tested): given the plan and the answers so
 * far, which question comes next, or what Apply does. The dialogs that ask are `applyQuestions.ts`;
 * `applyFlow.ts` asks until this says apply, refuse, review or cancel.
 */
import { codeRunningFiles, type CodeRunningFile } from '../../api';
import type { ApplyPlan, PlannedFile, RefusedPath } from '../../changes';
import { parseGitRemote } from '../../conversations/gitRemote';
import { codeRunningStep, type CodeRunningAnswer } from './codeRunningChoice';

/**
 * The answers Apply has, each given by its caller (tests, automation) or by the user in one dialog.
 * Unset: not answered yet. false: the user said no (or dismissed the dialog).
 */
export interface ApplyAnswers {
  /** Apply the other files when some are refused. */
  skipRefused?: boolean;
  /** The answer about files that can run code; `dismissed`: the dialog was closed unanswered. */
  codeRunning?: CodeRunningAnswer | 'dismissed';
  /** Apply although the local HEAD is not the agent's base. */
  anyHead?: boolean;
  /** Stash local edits to the same files first. */
  stash?: boolean;
  /** Apply the other files and skip the conflicting ones. */
  skipConflicts?: boolean;
}

/** Why Apply refuses, having changed nothing. */
export type ApplyRefusal = 'unsafe' | 'runs-code' | 'dirty' | 'conflict';

/** What Apply does next: ask one question, or finish. */
export type ApplyStep =
  | { kind: 'ask-skip-refused'; refused: RefusedPath[]; selected: number }
  | { kind: 'ask-code-running'; marked: CodeRunningFile[]; applicable: number }
  | { kind: 'ask-head'; head?: string; baseCommit?: string; baseKnownLocally: boolean; handedOver: boolean }
  | { kind: 'ask-stash'; dirty: string[] }
  | { kind: 'ask-skip-conflicts'; conflicted: string[]; applicable: number }
  /** `every`: no file was left to ask about (every one refused or conflicting), so nothing was asked. */
  | { kind: 'refuse'; reason: ApplyRefusal; paths: string[]; every: boolean }
  /** Open the diffs of the files that can run code, apply nothing. */
  | { kind: 'review'; files: CodeRunningFile[] }
  | { kind: 'cancel' }
  | ApplyDecision;

/** Apply, skipping `skip` (refused, left out, conflicting), stashing first when `stash`. */
export interface ApplyDecision {
  kind: 'apply';
  skip: string[];
  stash: boolean;
  /** Files that can run code, left out at the user's word. */
  leftOut: string[];
  /** Files applied that can run code (the user chose Apply All). */
  codeRunning: CodeRunningFile[];
}

/** The plan's files Apply is about: all of them, or those `only` names (by new or old path). */
export function selectedFiles(plan: ApplyPlan, only: readonly string[] | undefined): PlannedFile[] {
  if (!only) return plan.files;
  return plan.files.filter(
    (file) => only.includes(file.path) || (file.oldPath !== undefined && only.includes(file.oldPath)),
  );
}

/**
 * The next step of an apply of `selected` (the plan's files Apply is about), given `answers`. The
 * questions come in a fixed order: refused files, files that can run code, a HEAD that is not the
 * agent's base, local edits to stash, conflicting files; each is asked only when it matters.
 */
export function nextApplyStep(
  plan: ApplyPlan,
  selected: readonly PlannedFile[],
  answers: ApplyAnswers,
): ApplyStep {
  const refused = selected
    .filter((file) => file.outcome === 'refused')
    .map((file) => ({ path: file.path, reason: file.reason ?? '' }));
  if (refused.length > 0) {
    const paths = refused.map((file) => file.path);
    if (refused.length === selected.length) return { kind: 'refuse', reason: 'unsafe', paths, every: true };
    if (answers.skipRefused === undefined)
      return { kind: 'ask-skip-refused', refused, selected: selected.length };
    if (!answers.skipRefused) return { kind: 'refuse', reason: 'unsafe', paths, every: false };
  }

  const allowed = selected.filter((file) => file.outcome !== 'refused');
  const marked = codeRunningFiles(allowed);
  if (marked.length > 0 && answers.codeRunning === undefined)
    return { kind: 'ask-code-running', marked, applicable: allowed.length };
  const answer = answers.codeRunning === 'dismissed' ? undefined : answers.codeRunning;
  const codeRunning = codeRunningStep(answer, marked, allowed.length);
  if (codeRunning.kind === 'cancel') return { kind: 'cancel' };
  if (codeRunning.kind === 'review') return { kind: 'review', files: codeRunning.files };
  if (codeRunning.kind === 'nothing-left')
    return {
      kind: 'refuse',
      reason: 'runs-code',
      paths: codeRunning.files.map((file) => file.path),
      every: false,
    };
  const leftOut = new Set(codeRunning.leftOut);
  const applicable = allowed.filter((file) => !leftOut.has(file.path));

  if (plan.headMatchesBase === false && !answers.anyHead) {
    if (answers.anyHead === undefined)
      return {
        kind: 'ask-head',
        head: plan.head,
        baseCommit: plan.baseCommit,
        baseKnownLocally: plan.baseKnownLocally,
        handedOver: plan.handedOver === true,
      };
    return { kind: 'cancel' };
  }

  // edits to a file left out stay where they are: nothing of it is applied (a rename's source neither)
  const leftOutPaths = new Set(
    selected
      .filter((file) => leftOut.has(file.path))
      .flatMap((file) => (file.oldPath === undefined ? [file.path] : [file.path, file.oldPath])),
  );
  const dirty = plan.dirty.filter((file) => !leftOutPaths.has(file));
  if (dirty.length > 0 && answers.stash === undefined) return { kind: 'ask-stash', dirty };
  if (dirty.length > 0 && !answers.stash)
    return { kind: 'refuse', reason: 'dirty', paths: dirty, every: false };
  const stash = dirty.length > 0;

  // a file that conflicts only with the edits about to be stashed is judged again after the stash
  // (applyPatch plans again, and puts the edits back if it still conflicts)
  const stashed = new Set(stash ? dirty : []);
  const conflicted = applicable
    .filter((file) => file.outcome === 'conflict' && !stashed.has(file.path))
    .map((file) => file.path);
  const skip = [...refused.map((file) => file.path), ...leftOut];
  if (conflicted.length > 0) {
    if (conflicted.length === applicable.length)
      return { kind: 'refuse', reason: 'conflict', paths: conflicted, every: true };
    if (answers.skipConflicts === undefined)
      return { kind: 'ask-skip-conflicts', conflicted, applicable: applicable.length };
    if (!answers.skipConflicts)
      return { kind: 'refuse', reason: 'conflict', paths: conflicted, every: false };
    skip.push(...conflicted);
  }
  return { kind: 'apply', skip, stash, leftOut: [...leftOut], codeRunning: codeRunning.codeRunning };
}

/**
 * The files an apply skipped that the report names: those the user chose to skip (refused or
 * conflicting). Files outside a one-file accept are not news, and those left out because they can
 * run code are said apart.
 */
export function reportedSkips(skipped: readonly string[], decision: ApplyDecision): string[] {
  return skipped.filter((file) => decision.skip.includes(file) && !decision.leftOut.includes(file));
}

/**
 * Whether the local repository is the conversation's: undefined when a remote names
 * `conversationRepository` (`owner/name`); else what the question about it says: the repository
 * wanted (none when the conversation was not started on one) and the one a remote names, if any.
 */
export function repositoryMismatch(
  conversationRepository: string | null | undefined,
  remoteUrls: readonly string[],
): { wanted?: string; found?: string } | undefined {
  const wanted = conversationRepository?.toLowerCase() || undefined;
  const remotes = remoteUrls
    .map((url) => parseGitRemote(url)?.repository.toLowerCase())
    .filter((name): name is string => Boolean(name));
  if (wanted && remotes.includes(wanted)) return undefined;
  return { wanted, found: remotes[0] };
}
