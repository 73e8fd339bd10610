/**
 * The agent's change in the editor: one file in the native diff editor, all of them in the multi-file
 * diff, the whole change (or one file) applied to the local repository, or saved as a patch. Applying
 * asks before it does anything a user would not expect: another repository, a HEAD that is not the
 * agent's base, local edits to stash, files that conflict.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ApiError,
  codeRunningReason,
  messageOf,
  type AppConversation,
  type CodeRunningFile,
  type GitChange,
  type GitChangeStatus,
} from '../api';
import type {
  ApplyPlan,
  ApplyProgress,
  ApplyRefusedError,
  ApplyResult,
  LocalRepository,
  RefusedPath,
} from '../changes';
import { parseGitRemote } from '../conversations/gitRemote';
import type { Log } from '../core/log';
import type { Connection } from '../state/connection';
import type { ConversationChanges, ConversationDelta } from '../state/conversationChanges';
import { conversationTitle } from '../state/names';
import type { OpenHandsStore } from '../state/store';
import {
  CHANGE_IMAGE_SCHEME,
  CHANGE_SCHEME,
  changeUri,
  parseChangeUri,
  type ChangeDocuments,
  noDiffReason,
} from '../views/changeDocuments';
import type { ChangedFileNode } from '../views/nodes';
import { askCodeRunning, reviewCodeRunning } from './changes/codeRunningStep';
import type { CodeRunningAnswer } from './changes/codeRunningChoice';
import { resolveConversation, type CommandTarget } from './targets';

/**
 * git and the patch checks (`src/changes`): a bundle of their own (dist/changes.js), loaded the first
 * time a change is applied or saved, not with the tree.
 */
function localChanges(): typeof import('../changes') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own, loaded on first need
  return require('../changes') as typeof import('../changes');
}

export interface ChangeCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  changes: ConversationChanges;
  documents: ChangeDocuments;
  log: Log;
}

/** One file of a conversation's change, by id (tests, links, other extensions). */
export interface ChangeFileArgs {
  conversationId: string;
  path: string;
  status?: GitChangeStatus;
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

export function registerChangeCommands(deps: ChangeCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('openhands.openChange', (arg?: ChangedFileNode | ChangeFileArgs) =>
      openChange(deps, arg),
    ),
    vscode.commands.registerCommand('openhands.openAllChanges', (arg?: CommandTarget) =>
      openAllChanges(deps, arg),
    ),
    vscode.commands.registerCommand('openhands.refreshChanges', async (arg?: CommandTarget) => {
      const conversation = await pick(deps, arg, vscode.l10n.t('Refresh Changes'));
      if (conversation) await deps.changes.refresh(conversation.id);
    }),
    vscode.commands.registerCommand('openhands.applyChanges', async (arg?: CommandTarget | ApplyArgs) => {
      const untrusted = refuseUntrusted(vscode.l10n.t('Apply Changes'));
      if (untrusted) return untrusted;
      const args = isApplyArgs(arg) ? arg : undefined;
      const conversation = await pick(
        deps,
        args?.conversationId ?? (arg as CommandTarget),
        vscode.l10n.t('Apply Changes'),
      );
      if (!conversation) return { kind: 'cancelled' } satisfies ApplyOutcome;
      return applyChanges(deps, conversation, args ?? { conversationId: conversation.id });
    }),
    vscode.commands.registerCommand(
      'openhands.acceptChangeFile',
      async (arg?: vscode.Uri | ChangedFileNode | ApplyArgs) => {
        const untrusted = refuseUntrusted(vscode.l10n.t('Accept This File'));
        if (untrusted) return untrusted;
        const target = acceptTarget(arg);
        if (!target) {
          void vscode.window.showInformationMessage(
            vscode.l10n.t('Open one of the agent’s changed files in the diff editor first.'),
          );
          return { kind: 'cancelled' } satisfies ApplyOutcome;
        }
        const conversation = await pick(deps, target.conversationId, vscode.l10n.t('Accept This File'));
        if (!conversation) return { kind: 'cancelled' } satisfies ApplyOutcome;
        return applyChanges(deps, conversation, target);
      },
    ),
    vscode.commands.registerCommand(
      'openhands.saveChangesAsPatch',
      async (arg?: CommandTarget | { conversationId: string; file?: string }) => {
        const byId = typeof arg === 'object' && arg !== null && 'conversationId' in arg ? arg : undefined;
        const conversation = await pick(
          deps,
          byId?.conversationId ?? (arg as CommandTarget),
          vscode.l10n.t('Save Changes as Patch'),
        );
        if (!conversation) return undefined;
        return saveAsPatch(deps, conversation, byId?.file);
      },
    ),
  ];
}

async function pick(
  deps: ChangeCommandDeps,
  target: CommandTarget,
  title: string,
): Promise<AppConversation | undefined> {
  try {
    return await resolveConversation(target, deps.store, deps.connection, title);
  } catch (error) {
    void vscode.window.showErrorMessage(messageOf(error));
    return undefined;
  }
}

/**
 * Apply and Accept This File write to the workspace: in Restricted Mode they refuse before asking
 * anything, say why, and offer to manage the folder's trust. Reviewing and Save as Patch still work.
 */
function refuseUntrusted(action: string): ApplyOutcome | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const message = vscode.l10n.t(
    '{0} is not available in Restricted Mode: it writes the agent’s changes into this folder, which you have not trusted. You can still review the changes and save them as a patch.',
    action,
  );
  const manage = vscode.l10n.t('Manage Workspace Trust');
  void vscode.window.showWarningMessage(message, manage).then((choice) => {
    if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return { kind: 'refused', reason: 'untrusted', paths: [], message };
}

function isApplyArgs(arg: unknown): arg is ApplyArgs {
  return typeof arg === 'object' && arg !== null && typeof (arg as ApplyArgs).conversationId === 'string';
}

function acceptTarget(arg: vscode.Uri | ChangedFileNode | ApplyArgs | undefined): ApplyArgs | undefined {
  if (isApplyArgs(arg)) return arg;
  if (arg && !(arg instanceof vscode.Uri) && arg.kind === 'changedFile')
    return { conversationId: arg.conversation.id, only: [arg.change.path] };
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const ref = uri ? parseChangeUri(uri) : undefined;
  return ref ? { conversationId: ref.conversationId, only: [ref.change.path] } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Review

async function openChange(deps: ChangeCommandDeps, arg?: ChangedFileNode | ChangeFileArgs): Promise<boolean> {
  let conversationId: string;
  let change: GitChange | undefined;
  if (arg && 'kind' in arg) {
    conversationId = arg.conversation.id;
    change = arg.change;
  } else if (arg) {
    conversationId = arg.conversationId;
    change = arg.status ? { path: arg.path, status: arg.status } : undefined;
  } else {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Choose a changed file under a conversation’s Changes.'),
    );
    return false;
  }
  if (!change) {
    await deps.changes.ensure(conversationId);
    change = deps.changes
      .latest(conversationId)
      ?.files.find((file) => file.path === (arg as ChangeFileArgs).path);
    if (!change) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The agent’s change does not hold {0}.', (arg as ChangeFileArgs).path),
      );
      return false;
    }
  }
  const version = deps.changes.latest(conversationId)?.version ?? 0;
  const sides = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0}…', change.path) },
    () => deps.documents.sidesOf(conversationId, change, version),
  );
  const name = path.posix.basename(change.path);
  if (sides.kind === 'image') {
    await openImages(conversationId, change, version, sides);
    return true;
  }
  if (sides.kind !== 'text') {
    // the message waits for the user's choice; the command has done its part
    void explainNoDiff(conversationId, change.path, sides);
    return false;
  }
  const asText = sides.notImage !== undefined;
  const left = changeUri({ conversationId, change, side: 'original', version }, CHANGE_SCHEME, asText);
  const right = changeUri({ conversationId, change, side: 'modified', version }, CHANGE_SCHEME, asText);
  const runsCode = codeRunningReason(change);
  const title = sides.notImage
    ? vscode.l10n.t('{0} (agent’s change; not shown as a picture: {1})', name, sides.notImage)
    : runsCode
      ? vscode.l10n.t('{0} (agent’s change; can run code: {1})', name, runsCode)
      : vscode.l10n.t('{0} (agent’s change)', name);
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  return true;
}

/**
 * A picture in VS Code's image preview: both sides in the diff editor, or, as the Source Control
 * view does for an added or deleted file, the one side there is.
 */
async function openImages(
  conversationId: string,
  change: GitChange,
  version: number,
  sides: { original?: Buffer; modified?: Buffer },
): Promise<void> {
  const uri = (side: 'original' | 'modified') =>
    changeUri({ conversationId, change, side, version }, CHANGE_IMAGE_SCHEME);
  const name = path.posix.basename(change.path);
  if (sides.original && sides.modified) {
    const title = vscode.l10n.t('{0} (agent’s change)', name);
    await vscode.commands.executeCommand('vscode.diff', uri('original'), uri('modified'), title, {
      preview: true,
    });
    return;
  }
  // the image preview names its tab by the file: the row it was opened from says added or deleted
  const side = sides.modified ? 'modified' : 'original';
  await vscode.commands.executeCommand('vscode.open', uri(side), { preview: true });
}

async function explainNoDiff(
  conversationId: string,
  file: string,
  sides: Exclude<Awaited<ReturnType<ChangeDocuments['sidesOf']>>, { kind: 'text' }>,
): Promise<void> {
  const reason = noDiffReason(sides, file);
  if (sides.kind === 'unavailable') {
    void vscode.window.showErrorMessage(reason);
    return;
  }
  const accept = vscode.l10n.t('Accept This File…');
  const save = vscode.l10n.t('Save as Patch…');
  const choice = await vscode.window.showInformationMessage(
    `${reason} ${vscode.l10n.t('Accept it into your repository, or save the change as a patch.')}`,
    accept,
    save,
  );
  if (choice === accept)
    await vscode.commands.executeCommand('openhands.acceptChangeFile', { conversationId, only: [file] });
  if (choice === save)
    await vscode.commands.executeCommand('openhands.saveChangesAsPatch', { conversationId });
}

async function openAllChanges(deps: ChangeCommandDeps, arg?: CommandTarget): Promise<number> {
  const conversation = await pick(deps, arg, vscode.l10n.t('Open All Changes'));
  if (!conversation) return 0;
  const state = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the agent’s changes…') },
    () => deps.changes.refresh(conversation.id),
  );
  if (state.kind === 'failed') {
    void vscode.window.showErrorMessage(state.message);
    return 0;
  }
  const set = state.kind === 'ready' ? state.set : undefined;
  if (!set || set.files.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The agent has not changed any file in “{0}” yet.', conversationTitle(conversation)),
    );
    return 0;
  }
  const resources = set.files.map((change) => {
    const left = changeUri({
      conversationId: conversation.id,
      change,
      side: 'original',
      version: set.version,
    });
    const right = changeUri({
      conversationId: conversation.id,
      change,
      side: 'modified',
      version: set.version,
    });
    return [right, left, right] as const;
  });
  await vscode.commands.executeCommand(
    'vscode.changes',
    vscode.l10n.t('Agent’s changes: {0}', conversationTitle(conversation)),
    resources,
  );
  return resources.length;
}

// ---------------------------------------------------------------------------------------------
// Save as patch

async function saveAsPatch(
  deps: ChangeCommandDeps,
  conversation: AppConversation,
  file?: string,
): Promise<string | undefined> {
  let delta: ConversationDelta;
  try {
    delta = await fetchDelta(deps, conversation);
  } catch (error) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The agent’s changes could not be read: {0}', messageOf(error)),
    );
    return undefined;
  }
  if (delta.patch.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The agent has not changed any file yet.'));
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${slug(conversationTitle(conversation))}.patch`;
  const target = file
    ? vscode.Uri.file(file)
    : await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Save the Agent’s Changes as a Patch'),
        defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
        filters: { [vscode.l10n.t('Patch')]: ['patch', 'diff'] },
      });
  if (!target) return undefined;
  // git apply skips text before the first file: a warning there travels with the patch.
  const { auditPatch, patchWarningLines } = localChanges();
  const warning = await auditPatch(delta.patch);
  if (warning) deps.log.warn(`Saved patch holds what Apply refuses: ${warning}`);
  try {
    await vscode.workspace.fs.writeFile(
      target,
      warning ? Buffer.concat([Buffer.from(patchWarningLines(warning)), delta.patch]) : delta.patch,
    );
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The patch could not be saved: {0}', messageOf(error)));
    return undefined;
  }
  const base = delta.baseCommit
    ? vscode.l10n.t(' It applies to commit {0}.', delta.baseCommit.slice(0, 12))
    : '';
  const saved = vscode.l10n.t('Saved {0} changed files to {1}.', delta.files.length, target.fsPath) + base;
  if (warning) {
    void vscode.window.showWarningMessage(
      saved +
        ' ' +
        vscode.l10n.t('It holds changes Apply refuses, named in a warning at its top: {0}', warning),
    );
  } else {
    void vscode.window.showInformationMessage(saved);
  }
  return target.fsPath;
}

function slug(title: string): string {
  const cleaned = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return cleaned || 'openhands-changes';
}

async function fetchDelta(
  deps: ChangeCommandDeps,
  conversation: AppConversation,
): Promise<ConversationDelta> {
  return await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Reading the agent’s changes in “{0}”…', conversationTitle(conversation)),
      cancellable: true,
    },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return deps.changes.delta(conversation.id, controller.signal);
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Apply

async function applyChanges(
  deps: ChangeCommandDeps,
  conversation: AppConversation,
  args: ApplyArgs,
): Promise<ApplyOutcome> {
  const { ApplyRefusedError, GitCommandError, applyPatch, openLocalRepository, planApply, refusalsOf } =
    localChanges();
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
      if (refused.length === selected.length || !(await askSkipRefused(refused, selected.length, args))) {
        if (refused.length === selected.length) void vscode.window.showErrorMessage(unsafeMessage(refused));
        return { kind: 'refused', reason: 'unsafe', paths: refused.map((file) => file.path) };
      }
    }
    const codeRunning = await askCodeRunning(
      selected.filter((file) => file.outcome !== 'refused'),
      args.codeRunning,
    );
    if (codeRunning.kind === 'cancel') return { kind: 'cancelled' };
    if (codeRunning.kind === 'review') {
      const version = deps.changes.latest(conversation.id)?.version ?? 0;
      const title = conversationTitle(conversation);
      await reviewCodeRunning(conversation.id, title, codeRunning.files, selected, version);
      return { kind: 'reviewing', paths: codeRunning.files.map((file) => file.path) };
    }
    if (codeRunning.kind === 'nothing-left') {
      const paths = codeRunning.files.map((file) => file.path);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Nothing was applied: every file of the change can run code ({0}).', listed(paths)),
      );
      return { kind: 'refused', reason: 'runs-code', paths };
    }
    const leftOut = new Set(codeRunning.leftOut);
    const applicable = selected.filter((file) => file.outcome !== 'refused' && !leftOut.has(file.path));
    if (!(await acceptHead(plan, args))) return { kind: 'cancelled' };
    // edits to a file left out stay where they are: nothing of it is applied (a rename's source neither)
    const leftOutPaths = new Set(
      selected
        .filter((file) => leftOut.has(file.path))
        .flatMap((file) => (file.oldPath === undefined ? [file.path] : [file.path, file.oldPath])),
    );
    const dirty = plan.dirty.filter((file) => !leftOutPaths.has(file));
    const stash = dirty.length > 0 ? await askStash(dirty, args) : false;
    if (stash === undefined) return { kind: 'refused', reason: 'dirty', paths: dirty };
    // a file that conflicts only with the edits about to be stashed is judged again after the stash
    // (applyPatch plans again, and puts the edits back if it still conflicts)
    const stashed = new Set(stash ? dirty : []);
    const conflicted = applicable
      .filter((file) => file.outcome === 'conflict' && !stashed.has(file.path))
      .map((file) => file.path);
    let skip: string[] = [...refused.map((file) => file.path), ...leftOut];
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
    // files left out by a one-file accept are not news; the conflicting ones the user chose to skip are,
    // and those that can run code are said apart
    report(
      deps,
      conversation,
      repository,
      plan,
      { ...result, skipped: result.skipped.filter((file) => skip.includes(file) && !leftOut.has(file)) },
      { applied: codeRunning.codeRunning, leftOut: [...leftOut] },
    );
    return { kind: 'applied', result, plan, codeRunning: codeRunning.codeRunning, leftOut: [...leftOut] };
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
async function askStash(dirty: readonly string[], args: ApplyArgs): Promise<boolean | undefined> {
  if (args.stash) return true;
  if (args.stash === false) return undefined;
  const stash = vscode.l10n.t('Stash and Apply');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('You have uncommitted changes to files the agent changed: {0}', listed(dirty)),
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
  codeRunning: { applied: readonly CodeRunningFile[]; leftOut: readonly string[] },
): void {
  const reasons = new Map(plan.files.map((file) => [file.path, file.reason]));
  deps.log.info(`Applied the agent's changes of “${conversationTitle(conversation)}” to ${repository.root}:`);
  for (const file of result.applied) deps.log.info(`  applied     ${file}`);
  for (const file of result.merged) deps.log.info(`  merged      ${file}`);
  for (const file of result.conflicted)
    deps.log.info(`  conflicted  ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  for (const file of result.skipped)
    deps.log.info(`  skipped     ${file}${reasons.get(file) ? ` — ${reasons.get(file)}` : ''}`);
  for (const file of codeRunning.leftOut) deps.log.info(`  left out    ${file} — it can run code`);
  for (const file of codeRunning.applied) deps.log.info(`  can run code: ${file.path} — ${file.reason}`);
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
  if (codeRunning.applied.length > 0)
    parts.push(
      vscode.l10n.t('These can run code: {0}.', listed(codeRunning.applied.map((file) => file.path))),
    );
  if (codeRunning.leftOut.length > 0)
    parts.push(vscode.l10n.t('Left out, as they can run code: {0}.', listed(codeRunning.leftOut)));
  if (result.skipped.length > 0) parts.push(vscode.l10n.t('Skipped: {0}.', listed(result.skipped)));
  if (result.stashed) parts.push(vscode.l10n.t('Your edits are in the stash.'));
  const show = vscode.l10n.t('Show Report');
  void vscode.window.showInformationMessage(parts.join(' '), show).then((choice) => {
    if (choice === show) deps.log.show();
  });
}

function refusal(error: ApplyRefusedError): string {
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
      return unsafeMessage(error.refusals);
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

function unsafeMessage(refusals: readonly RefusedPath[]): string {
  return vscode.l10n.t(
    'Not applied: the agent’s change reaches outside your repository, into .git or through a link ({0}). Nothing was changed.',
    localChanges().describeRefusals(refusals),
  );
}

async function askSkipRefused(
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
        localChanges().describeRefusals(refused) +
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
