/**
 * Save Changes as Patch…: the agent's whole change as one patch file, with a warning at its top
 * when it holds what Apply refuses.
 */
import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../../api';
import type { Log } from '../../core/log';
import type { ConversationChanges, ConversationDelta } from '../../state/conversationChanges';
import { conversationTitle } from '../../state/names';
import { localChanges } from './localChanges';

export interface SavePatchDeps {
  changes: ConversationChanges;
  log: Log;
}

export async function saveAsPatch(
  deps: SavePatchDeps,
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
  // a hand-off's patch is against the user's own state, whose commit is in their repository (the sandbox's is not)
  const base = delta.handoff
    ? vscode.l10n.t(
        ' It applies to your files as you handed them to the agent (commit {0}).',
        delta.handoff.handedOver.commit.slice(0, 12),
      )
    : delta.baseCommit
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

async function fetchDelta(deps: SavePatchDeps, conversation: AppConversation): Promise<ConversationDelta> {
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
