/**
 * Apply (and Accept This File): the agent's change into the local repository. It picks the folder,
 * checks the repository is the conversation's, plans the change under a cancellable progress, asks
 * what `applyDecisions.ts` says to ask until it says what to do, then applies all or nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError, messageOf, type AppConversation, type CodeRunningFile } from '../../api';
import type { ApplyPlan, ApplyProgress, ApplyResult, PlannedFile, RefusedPath } from '../../changes';
import type { Log } from '../../core/log';
import type { ConversationChanges, ConversationDelta } from '../../state/conversationChanges';
import type { HandoffRecord } from '../../state/handoffRecords';
import { conversationTitle } from '../../state/names';
import {
  nextApplyStep,
  repositoryMismatch,
  reportedSkips,
  selectedFiles,
  type ApplyAnswers,
  type ApplyDecision,
  type ApplyStep,
} from './applyDecisions';
import {
  askHead,
  askOtherRepository,
  askSkipConflicts,
  askSkipRefused,
  askStash,
  pickFolder,
} from './applyQuestions';
import type { LocalFolder } from '../localFolders';
import { listed, logRefused, refusal, reportApplied, reportConflicts, unsafeMessage } from './applyReport';
import type { CodeRunningAnswer } from './codeRunningChoice';
import { askCodeRunning, reviewCodeRunning } from './codeRunningStep';
import { localChanges } from './localChanges';

export interface ApplyDeps {
  changes: ConversationChanges;
  log: Log;
}

/** Answers to every question Apply may ask, so it can run without dialogs (tests, automation). */
export interface ApplyArgs {
  conversationId: string;
  /** The local folder to apply to; the workspace's (or a pick) when unset. */
  folder?: string;
  /** Only these paths (Accept this file). */
  only?: string[];
  /** Apply even when the folder's repository is not the conversation's. */
  anyRepository?: boolean;
  /** Apply even when the local HEAD is not the agent's base. */
  anyHead?: boolean;
  /** Stash local edits to the same files first (else Apply refuses). */
  stash?: boolean;
  /** Apply the files that apply and skip the conflicting ones (else Apply refuses). */
  skipConflicts?: boolean;
  /** Apply the other files when some are refused (outside the repository, in .git, through a link). */
  skipRefused?: boolean;
  /** The answer about files that can run code (tasks, hooks, build files, new executables), else asked. */
  codeRunning?: CodeRunningAnswer;
}

/** What Apply did, for the caller (tests read it; users get the message). */
export type ApplyOutcome =
  | {
      kind: 'applied';
      result: ApplyResult;
      plan: ApplyPlan;
      /** Applied files that can run code (the user chose Apply All). */
      codeRunning: CodeRunningFile[];
      /** Files that can run code the user chose to leave out. */
      leftOut: string[];
    }
  | { kind: 'refused'; reason: string; paths: string[]; message?: string }
  /** The user chose to review the files that can run code first: their diffs are open, nothing applied. */
  | { kind: 'reviewing'; paths: string[] }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

/** The questions Apply may ask: the loop below asks each at most once. */
const QUESTIONS = 5;

export async function applyChanges(
  deps: ApplyDeps,
  conversation: AppConversation,
  args: ApplyArgs,
): Promise<ApplyOutcome> {
  const {
    ApplyRefusedError,
    GitCommandError,
    applyPatch,
    holdsCommit,
    openLocalRepository,
    planApply,
    refusalsOf,
  } = localChanges();
  try {
    const picked: LocalFolder | undefined =
      args.folder === undefined ? await pickFolder() : { kind: 'local', path: args.folder };
    if (!picked) return { kind: 'cancelled' };
    // a remote or virtual folder is said as such, never taken for a path here: nothing is read or written
    if (picked.kind === 'refused') {
      void vscode.window.showErrorMessage(picked.message);
      return { kind: 'refused', reason: 'not-local', paths: [], message: picked.message };
    }
    const folder = picked.path;
    const repository = await openLocalRepository(folder);
    if (!repository) {
      const message = vscode.l10n.t(
        '{0} is not in a git repository: the agent’s changes are applied with git.',
        folder,
      );
      void vscode.window.showErrorMessage(message);
      return { kind: 'refused', reason: 'not-a-repository', paths: [] };
    }
    // a hand-off's commit was made in the user's repository alone: holding it, this is that repository
    const handoff = deps.changes.handoff(conversation.id);
    const handedFromHere =
      handoff !== undefined && (await holdsCommit(repository.root, handoff.handedOver.commit));
    const mismatch = handedFromHere
      ? undefined
      : repositoryMismatch(
          conversation.selected_repository,
          repository.remotes.map((remote) => remote.fetchUrl ?? remote.pushUrl ?? ''),
        );
    if (
      mismatch &&
      !args.anyRepository &&
      !(await askOtherRepository(conversation, repository.root, mismatch))
    )
      return { kind: 'cancelled' };
    // one notification, one Cancel, from reading the change to its plan
    const { delta, plan, baseEdits } = await withApplyProgress<{
      delta: ConversationDelta;
      plan: ApplyPlan | undefined;
      baseEdits?: string[];
    }>(
      vscode.l10n.t(
        'Checking the agent’s changes in “{0}” against {1}…',
        conversationTitle(conversation),
        path.basename(repository.root),
      ),
      async (onProgress, signal) => {
        onProgress(vscode.l10n.t('Reading the change…'));
        const read = await deps.changes.delta(conversation.id, signal);
        if (read.patch.length === 0) return { delta: read, plan: undefined };
        // started from the user's local state: the patch is against the tree handed over, whose commit
        // here (same files, same blob ids) is the base the three-way merges read
        const delta = read.handoff ? { ...read, baseCommit: read.handoff.handedOver.commit } : read;
        const options = { baseCommit: delta.baseCommit, only: args.only, onProgress, signal };
        const planned = await planApply(repository.root, read.patch, options);
        if (!read.handoff) return { delta, plan: planned };
        return { delta, ...(await sinceHandoff(planned, read.handoff, signal)) };
      },
    );
    if (!plan) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The agent has not changed any file yet.'));
      return { kind: 'refused', reason: 'empty', paths: [] };
    }
    const selected = selectedFiles(plan, args.only);
    if (selected.length === 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The agent’s change does not hold {0}.', (args.only ?? []).join(', ')),
      );
      return { kind: 'refused', reason: 'empty', paths: args.only ?? [] };
    }
    const refused = refusalsOf(selected);
    if (refused.length > 0) logRefused(deps.log, plan.root, refused);

    const decision = await askUntilDecided(plan, selected, presetAnswers(args));
    if (decision.kind !== 'apply')
      return await finishUnapplied(deps, conversation, plan, selected, refused, decision);
    const result = await withApplyProgress(
      vscode.l10n.t('Applying the agent’s changes to {0}…', path.basename(repository.root)),
      (onProgress, signal) =>
        applyPatch(repository.root, delta.patch, {
          baseCommit: delta.baseCommit,
          baseEdits,
          only: args.only,
          skip: decision.skip,
          stashFirst: decision.stash,
          stashMessage: vscode.l10n.t(
            'OpenHands: your edits before applying “{0}”',
            conversationTitle(conversation),
          ),
          onProgress,
          signal,
        }),
    );
    reportApplied(
      deps.log,
      conversation,
      repository.root,
      plan,
      { ...result, skipped: reportedSkips(result.skipped, decision) },
      { applied: decision.codeRunning, leftOut: decision.leftOut },
    );
    return {
      kind: 'applied',
      result,
      plan,
      codeRunning: decision.codeRunning,
      leftOut: decision.leftOut,
    };
  } catch (error) {
    if (error instanceof ApplyRefusedError) {
      if (error.reason === 'unsafe') deps.log.warn(`Apply refused: ${error.message}`);
      void vscode.window.showErrorMessage(refusal(error));
      return { kind: 'refused', reason: error.reason, paths: error.paths };
    }
    const cancelled =
      (error instanceof GitCommandError && error.kind === 'aborted') ||
      (error instanceof ApiError && error.kind === 'cancelled');
    if (cancelled) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Apply cancelled: nothing was changed.'));
      return { kind: 'cancelled' };
    }
    const message = vscode.l10n.t('The agent’s changes were not applied: {0}', messageOf(error));
    deps.log.warn(message);
    void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Log')).then((choice) => {
      if (choice) deps.log.show();
    });
    return { kind: 'failed', message };
  }
}

/**
 * The plan of a conversation started from local state, judged against what was handed over: the base
 * question only when the user's files moved since, and in the way only what changed since (a handed
 * edit is the patch's base, not in its way).
 */
async function sinceHandoff(
  plan: ApplyPlan,
  handoff: HandoffRecord,
  signal: AbortSignal,
): Promise<{ plan: ApplyPlan; baseEdits: string[] }> {
  const since = await localChanges().baseSinceHandoff(
    plan.root,
    handoff.handedOver,
    handoff.untrackedFiles,
    plan.dirty,
    { signal },
  );
  return {
    plan: {
      ...plan,
      dirty: since.inTheWay,
      headMatchesBase: !since.moved,
      baseKnownLocally: since.baseKnown,
      handedOver: true,
    },
    baseEdits: plan.dirty.filter((path) => !since.inTheWay.includes(path)),
  };
}

/** The caller's answers; a question it did not answer is asked. */
function presetAnswers(args: ApplyArgs): ApplyAnswers {
  return {
    skipRefused: args.skipRefused,
    codeRunning: args.codeRunning,
    // anyHead: false never answered the question: it is asked, as when unset
    anyHead: args.anyHead === true ? true : undefined,
    stash: args.stash,
    skipConflicts: args.skipConflicts,
  };
}

/** Asks each question the decisions call for, once, until they say what Apply does. */
async function askUntilDecided(
  plan: ApplyPlan,
  selected: readonly PlannedFile[],
  preset: ApplyAnswers,
): Promise<Exclude<ApplyStep, { kind: `ask-${string}` }>> {
  const answers = { ...preset };
  for (let asked = 0; asked <= QUESTIONS; asked++) {
    const step = nextApplyStep(plan, selected, answers);
    switch (step.kind) {
      case 'ask-skip-refused':
        answers.skipRefused = await askSkipRefused(step.refused, step.selected);
        break;
      case 'ask-code-running':
        answers.codeRunning = (await askCodeRunning(step.marked, step.applicable)) ?? 'dismissed';
        break;
      case 'ask-head':
        answers.anyHead = await askHead(step);
        break;
      case 'ask-stash':
        answers.stash = await askStash(step.dirty);
        break;
      case 'ask-skip-conflicts':
        answers.skipConflicts = await askSkipConflicts(step.conflicted, step.applicable);
        break;
      default:
        return step;
    }
  }
  // every question sets its answer, so the decisions never ask one twice
  throw new Error('Apply asked the same question twice.');
}

/** Apply refused, was cancelled, or opened the files that can run code for review: says so. */
async function finishUnapplied(
  deps: ApplyDeps,
  conversation: AppConversation,
  plan: ApplyPlan,
  selected: readonly PlannedFile[],
  refused: readonly RefusedPath[],
  step: Exclude<ApplyStep, ApplyDecision | { kind: `ask-${string}` }>,
): Promise<ApplyOutcome> {
  switch (step.kind) {
    case 'cancel':
      return { kind: 'cancelled' };
    case 'review': {
      const version = deps.changes.latest(conversation.id)?.version ?? 0;
      await reviewCodeRunning(
        conversation.id,
        conversationTitle(conversation),
        step.files,
        selected,
        version,
      );
      return { kind: 'reviewing', paths: step.files.map((file) => file.path) };
    }
    case 'refuse':
      if (step.reason === 'unsafe' && step.every) void vscode.window.showErrorMessage(unsafeMessage(refused));
      if (step.reason === 'runs-code')
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'Nothing was applied: every file of the change can run code ({0}).',
            listed(step.paths),
          ),
        );
      if (step.reason === 'conflict' && step.every) await reportConflicts(deps.log, plan, step.paths);
      return { kind: 'refused', reason: step.reason, paths: step.paths };
  }
}

/** A plan or an apply under a cancellable progress notification; a cancel aborts its git calls. */
async function withApplyProgress<T>(
  title: string,
  work: (onProgress: ApplyProgress, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return work((step) => progress.report({ message: step }), controller.signal);
    },
  );
}
