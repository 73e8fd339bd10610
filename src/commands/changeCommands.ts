/**
 * The agent's change in the editor: one file in the native diff editor, all of them in the multi-file
 * diff, the whole change (or one file) applied to the local repository (`applyChanges.ts`), or saved
 * as a patch.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { messageOf, type AppConversation, type GitChange, type GitChangeStatus } from '../api';
import type { ApplyPlan, ApplyResult } from '../changes';
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
import { resolveConversation, type CommandTarget } from './targets';

/**
 * Apply, and git's side of a change (`src/changes`): chunks of their own, imported the first time a
 * change is applied or saved, not with the tree.
 */
const localChanges = (): Promise<typeof import('../changes')> => import('../changes');
const applyChanges = async (...args: Parameters<typeof import('./applyChanges').applyChanges>) =>
  (await import('./applyChanges')).applyChanges(...args);

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
}

/** What Apply did, for the caller (tests read it; users get the message). */
export type ApplyOutcome =
  | { kind: 'applied'; result: ApplyResult; plan: ApplyPlan }
  | { kind: 'refused'; reason: string; paths: string[]; message?: string }
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
  const title = sides.notImage
    ? vscode.l10n.t('{0} (agent’s change; not shown as a picture: {1})', name, sides.notImage)
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
  const { auditPatch, patchWarningLines } = await localChanges();
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
