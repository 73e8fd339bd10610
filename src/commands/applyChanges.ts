/**
 * Apply: the agent's change (or some of its files) applied to the local repository with git, all or
 * nothing. It asks before it does anything a user would not expect: another repository, a HEAD that
 * is not the agent's base, local edits to stash, files that conflict. `changeCommands.ts` imports it
 * (and git's side, `src/changes`) when a change is first applied.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError, messageOf, type AppConversation } from '../api';
import {
  ApplyRefusedError,
  applyPatch,
  describeRefusals,
  GitCommandError,
  openLocalRepository,
  planApply,
  refusalsOf,
  type ApplyPlan,
  type ApplyProgress,
  type ApplyResult,
  type LocalRepository,
  type RefusedPath,
} from '../changes';
import { parseGitRemote } from '../conversations/gitRemote';
import { conversationTitle } from '../state/names';
import type { ApplyArgs, ApplyOutcome, ChangeCommandDeps } from './changeCommands';

export async function applyChanges(
  deps: ChangeCommandDeps,
  conversation: AppConversation,
  args: ApplyArgs,
): Promise<ApplyOutcome> {
  try {
    const folder = args.folder ?? (await pickFolder());
    if (!folder) return { kind: 'cancelled' };
    const repository = await openLocalRepository(folder);
    if (!repository) {
      const message = vscode.l10n.t(
        '{0} is not in a git repository: the agent’s changes are applied with git.',
        folder,
      );
      void vscode.window.showErrorMessage(message);
      return { kind: 'refused', reason: 'not-a-repository', paths: [] };
    }
    if (!(await sameRepository(conversation, repository, args))) return { kind: 'cancelled' };
    // one notification, one Cancel, from reading the change to its plan
    const { delta, plan } = await withApplyProgress(
      vscode.l10n.t(
        'Checking the agent’s changes in “{0}” against {1}…',
        conversationTitle(conversation),
        path.basename(repository.root),
      ),
      async (onProgress, signal) => {
        onProgress(vscode.l10n.t('Reading the change…'));
        const read = await deps.changes.delta(conversation.id, signal);
        if (read.patch.length === 0) return { delta: read, plan: undefined };
        const options = { baseCommit: read.baseCommit, only: args.only, onProgress, signal };
        return { delta: read, plan: await planApply(repository.root, read.patch, options) };
      },
    );
    if (!plan) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The agent has not changed any file yet.'));
      return { kind: 'refused', reason: 'empty', paths: [] };
    }
    const options = { baseCommit: delta.baseCommit, only: args.only };
    const selected = args.only ? plan.files.filter((file) => selectedBy(file, args.only ?? [])) : plan.files;
    if (selected.length === 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The agent’s change does not hold {0}.', (args.only ?? []).join(', ')),
      );
      return { kind: 'refused', reason: 'empty', paths: args.only ?? [] };
    }
    const refused = refusalsOf(selected);
    if (refused.length > 0) {
      logRefused(deps, plan.root, refused);
      const described = describeRefusals(refused);
      if (
        refused.length === selected.length ||
        !(await askSkipRefused(described, refused, selected.length, args))
      ) {
        if (refused.length === selected.length) void vscode.window.showErrorMessage(unsafeMessage(described));
        return { kind: 'refused', reason: 'unsafe', paths: refused.map((file) => file.path) };
      }
    }
    const applicable = selected.filter((file) => file.outcome !== 'refused');
    if (!(await acceptHead(plan, args))) return { kind: 'cancelled' };
    const stash = plan.dirty.length > 0 ? await askStash(plan, args) : false;
    if (stash === undefined) return { kind: 'refused', reason: 'dirty', paths: plan.dirty };
    // a file that conflicts only with the edits about to be stashed is judged again after the stash
    // (applyPatch plans again, and puts the edits back if it still conflicts)
    const stashed = new Set(stash ? plan.dirty : []);
    const conflicted = applicable
      .filter((file) => file.outcome === 'conflict' && !stashed.has(file.path))
      .map((file) => file.path);
    let skip: string[] = refused.map((file) => file.path);
    if (conflicted.length > 0) {
      if (conflicted.length === applicable.length) {
        await reportConflicts(deps, plan, conflicted);
        return { kind: 'refused', reason: 'conflict', paths: conflicted };
      }
      if (!(await askSkip(conflicted, applicable.length, args)))
        return { kind: 'refused', reason: 'conflict', paths: conflicted };
      skip = [...skip, ...conflicted];
    }
    const result = await withApplyProgress(
      vscode.l10n.t('Applying the agent’s changes to {0}…', path.basename(repository.root)),
      (onProgress, signal) =>
        applyPatch(repository.root, delta.patch, {
          ...options,
          skip,
          stashFirst: stash,
          stashMessage: vscode.l10n.t(
            'OpenHands: your edits before applying “{0}”',
            conversationTitle(conversation),
          ),
          onProgress,
          signal,
        }),
    );
    // files left out by a one-file accept are not news; the conflicting ones the user chose to skip are
    report(deps, conversation, repository, plan, {
      ...result,
      skipped: result.skipped.filter((file) => skip.includes(file)),
    });
    return { kind: 'applied', result, plan };
  } catch (error) {
    if (error instanceof ApplyRefusedError) {
      if (error.reason === 'unsafe') deps.log.warn(`Apply refused: ${error.message}`);
      void vscode.window.showErrorMessage(refusal(error, describeRefusals(error.refusals)));
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

function selectedBy(file: { path: string; oldPath?: string }, only: readonly string[]): boolean {
  return only.includes(file.path) || (file.oldPath !== undefined && only.includes(file.oldPath));
}

async function pickFolder(): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) return folders[0]?.uri.fsPath;
  if (folders.length === 0) {
    const chosen = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      title: vscode.l10n.t('The Local Repository to Apply the Agent’s Changes To'),
      openLabel: vscode.l10n.t('Apply Here'),
    });
    return chosen?.[0]?.fsPath;
  }
  const chosen = await vscode.window.showWorkspaceFolderPick({
    placeHolder: vscode.l10n.t('The local repository to apply the agent’s changes to'),
    ignoreFocusOut: true,
  });
  return chosen?.uri.fsPath;
}

/** The folder's repository is the conversation's (a remote names it), or the user says it is. */
async function sameRepository(
  conversation: AppConversation,
  repository: LocalRepository,
  args: ApplyArgs,
): Promise<boolean> {
  const wanted = conversation.selected_repository?.toLowerCase();
  const remotes = repository.remotes
    .map((remote) => parseGitRemote(remote.fetchUrl ?? remote.pushUrl ?? '')?.repository.toLowerCase())
    .filter((name): name is string => Boolean(name));
  if (wanted && remotes.includes(wanted)) return true;
  if (args.anyRepository) return true;
  const folder = path.basename(repository.root);
  const question = wanted
    ? vscode.l10n.t(
        'The conversation works on {0}, but {1} is {2}. Apply the agent’s changes here anyway?',
        wanted,
        folder,
        remotes[0] ?? vscode.l10n.t('a repository without a matching remote'),
      )
    : vscode.l10n.t(
        '“{0}” was not started on a repository, so it cannot be matched with {1}. Apply the agent’s changes to {1}?',
        conversationTitle(conversation),
        folder,
      );
  const apply = vscode.l10n.t('Apply to {0}', folder);
  return (await vscode.window.showWarningMessage(question, { modal: true }, apply)) === apply;
}

async function acceptHead(plan: ApplyPlan, args: ApplyArgs): Promise<boolean> {
  if (plan.headMatchesBase !== false || args.anyHead) return true;
  const head = plan.head ? plan.head.slice(0, 8) : vscode.l10n.t('no commit');
  const base = plan.baseCommit?.slice(0, 8) ?? '';
  const detail = plan.baseKnownLocally
    ? vscode.l10n.t('Files you changed since can conflict.')
    : vscode.l10n.t('That commit is not in this repository (fetch it for three-way merges).');
  const apply = vscode.l10n.t('Apply Anyway');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Your HEAD ({0}) is not the commit the agent started from ({1}).', head, base),
    { modal: true, detail },
    apply,
  );
  return choice === apply;
}

/** true: stash first; false: nothing to stash; undefined: the user said no (Apply refuses). */
async function askStash(plan: ApplyPlan, args: ApplyArgs): Promise<boolean | undefined> {
  if (args.stash) return true;
  if (args.stash === false) return undefined;
  const stash = vscode.l10n.t('Stash and Apply');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('You have uncommitted changes to files the agent changed: {0}', listed(plan.dirty)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Stash them first (git stash; get them back with git stash pop), or commit them and apply again.',
      ),
    },
    stash,
  );
  return choice === stash ? true : undefined;
}

async function askSkip(conflicted: string[], selected: number, args: ApplyArgs): Promise<boolean> {
  if (args.skipConflicts !== undefined) return args.skipConflicts;
  const others = selected - conflicted.length;
  const apply =
    others === 1 ? vscode.l10n.t('Apply the Other File') : vscode.l10n.t('Apply the Other {0} Files', others);
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('These files conflict with your repository: {0}', listed(conflicted)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Nothing has been changed yet. The other files apply cleanly; the conflicting ones would be skipped.',
      ),
    },
    apply,
  );
  return choice === apply;
}

async function reportConflicts(
  deps: ChangeCommandDeps,
  plan: ApplyPlan,
  conflicted: string[],
): Promise<void> {
  deps.log.info(`Apply refused, nothing changed in ${plan.root}: every file conflicts.`);
  for (const file of plan.files)
    if (file.outcome === 'conflict')
      deps.log.info(`  conflict  ${file.path}${file.reason ? ` — ${file.reason}` : ''}`);
  const show = vscode.l10n.t('Show Report');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Nothing was applied: every file conflicts with your repository ({0}).',
      listed(conflicted),
    ),
    show,
  );
  if (choice === show) deps.log.show();
}

function report(
  deps: ChangeCommandDeps,
  conversation: AppConversation,
  repository: LocalRepository,
  plan: ApplyPlan,
  result: ApplyResult,
): void {
  const reasons = new Map(plan.files.map((file) => [file.path, file.reason]));
  deps.log.info(`Applied the agent's changes of “${conversationTitle(conversation)}” to ${repository.root}:`);
  for (const file of result.applied) deps.log.info(`  applied     ${file}`);
  for (const file of result.merged) deps.log.info(`  merged      ${file}`);
  for (const file of result.conflicted)
    deps.log.info(`  conflicted  ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  for (const file of result.skipped)
    deps.log.info(`  skipped     ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  if (result.stashed)
    deps.log.info(
      `  stashed your edits to ${result.stashed.paths.join(', ')} as “${result.stashed.message}”`,
    );
  const applied = result.applied.length + result.merged.length;
  const parts = [
    applied === 1
      ? vscode.l10n.t('Applied 1 file to {0}.', path.basename(repository.root))
      : vscode.l10n.t('Applied {0} files to {1}.', applied, path.basename(repository.root)),
  ];
  if (result.merged.length > 0) parts.push(vscode.l10n.t('{0} merged three-way.', result.merged.length));
  if (result.skipped.length > 0) parts.push(vscode.l10n.t('Skipped: {0}.', listed(result.skipped)));
  if (result.stashed) parts.push(vscode.l10n.t('Your edits are in the stash.'));
  const show = vscode.l10n.t('Show Report');
  void vscode.window.showInformationMessage(parts.join(' '), show).then((choice) => {
    if (choice === show) deps.log.show();
  });
}

/** `described`: the refused paths, as `describeRefusals` words them. */
function refusal(error: ApplyRefusedError, described: string): string {
  switch (error.reason) {
    case 'dirty':
      return vscode.l10n.t('Not applied: you have uncommitted changes to {0}.', listed(error.paths));
    case 'conflict':
      return vscode.l10n.t(
        'Not applied: {0} conflict with your repository. Nothing was changed.',
        listed(error.paths),
      );
    case 'empty':
      return vscode.l10n.t('Nothing to apply.');
    case 'not-a-repository':
      return vscode.l10n.t('Not applied: the folder is not in a git repository.');
    case 'unsafe':
      return unsafeMessage(described);
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

function logRefused(deps: ChangeCommandDeps, root: string, refused: readonly RefusedPath[]): void {
  deps.log.warn(`The agent's change holds files that are never applied to ${root}:`);
  for (const file of refused) deps.log.warn(`  refused  ${file.path} — ${file.reason}`);
}

function unsafeMessage(described: string): string {
  return vscode.l10n.t(
    'Not applied: the agent’s change reaches outside your repository, into .git or through a link ({0}). Nothing was changed.',
    described,
  );
}

async function askSkipRefused(
  described: string,
  refused: readonly RefusedPath[],
  selected: number,
  args: ApplyArgs,
): Promise<boolean> {
  if (args.skipRefused !== undefined) return args.skipRefused;
  const others = selected - refused.length;
  const apply =
    others === 1 ? vscode.l10n.t('Apply the Other File') : vscode.l10n.t('Apply the Other {0} Files', others);
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Some of the agent’s files would reach outside your repository and are never applied.'),
    {
      modal: true,
      detail:
        described +
        '\n\n' +
        vscode.l10n.t('Nothing has been changed yet. The other files can be applied without them.'),
    },
    apply,
  );
  return choice === apply;
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? vscode.l10n.t('{0} and {1} more', shown, paths.length - 5) : shown;
}
