/**
 * The agent's change in the editor: one file in the native diff editor (a picture in VS Code's image
 * preview), or all of them in the multi-file diff. A file that has no diff to show says why and
 * offers Accept This File and Save as Patch.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeRunningReason, type AppConversation, type GitChange, type GitChangeStatus } from '../../api';
import type { ConversationChanges } from '../../state/conversationChanges';
import { conversationTitle } from '../../state/names';
import {
  CHANGE_IMAGE_SCHEME,
  CHANGE_SCHEME,
  changeUri,
  type ChangeDocuments,
  noDiffReason,
} from '../../views/changeDocuments';
import type { ChangedFileNode } from '../../views/nodes';

export interface OpenChangesDeps {
  changes: ConversationChanges;
  documents: ChangeDocuments;
}

/** One file of a conversation's change, by id (tests, links, other extensions). */
export interface ChangeFileArgs {
  conversationId: string;
  path: string;
  status?: GitChangeStatus;
}

export async function openChange(
  deps: OpenChangesDeps,
  arg?: ChangedFileNode | ChangeFileArgs,
): Promise<boolean> {
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

/** Every file of the change in the multi-file diff editor; how many it opened. */
export async function openAllChanges(deps: OpenChangesDeps, conversation: AppConversation): Promise<number> {
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
