/**
 * The commands on an agent's change: each resolves what was clicked (a row, a diff editor, or an id)
 * and hands it to its flow: `openChanges.ts` (review), `savePatch.ts`, `applyFlow.ts`. Apply and
 * Accept This File refuse in Restricted Mode before asking anything.
 */
import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../../api';
import type { Connection } from '../../state/connection';
import type { OpenHandsStore } from '../../state/store';
import { parseChangeUri } from '../../views/changeDocuments';
import type { ChangedFileNode } from '../../views/nodes';
import { resolveConversation, type CommandTarget } from '../targets';
import { applyChanges, type ApplyArgs, type ApplyDeps, type ApplyOutcome } from './applyFlow';
import { openAllChanges, openChange, type ChangeFileArgs, type OpenChangesDeps } from './openChanges';
import { saveAsPatch, type SavePatchDeps } from './savePatch';

export interface ChangeCommandDeps extends OpenChangesDeps, SavePatchDeps, ApplyDeps {
  store: OpenHandsStore;
  connection: Connection;
}

export function registerChangeCommands(deps: ChangeCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('openhands.openChange', (arg?: ChangedFileNode | ChangeFileArgs) =>
      openChange(deps, arg),
    ),
    vscode.commands.registerCommand('openhands.openAllChanges', async (arg?: CommandTarget) => {
      const conversation = await pick(deps, arg, vscode.l10n.t('Open All Changes'));
      return conversation ? openAllChanges(deps, conversation) : 0;
    }),
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
