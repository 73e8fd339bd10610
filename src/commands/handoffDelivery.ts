/**
 * Once a conversation started without its task: the hand-off delivered to its sandbox (uploaded,
 * replayed, checked), then the task sent, prefixed with what the agent was given. A failure says which
 * step failed; the task is not sent (the caller keeps it as the draft).
 */
import * as vscode from 'vscode';
import { messageOf } from '../api';
import type { Delivered, DeliveryStep, HandoffManifest } from '../changes';
import type { ConversationSteering } from '../state/conversationSteering';
import type { Log } from '../core/log';
import type { HandoffRecordInput, HandoffRecords } from '../state/handoffRecords';
import { localChanges } from './changes/localChanges';
import type { HandoffPlan } from './handoffStep';

export async function handOver(
  deps: {
    steering: Pick<ConversationSteering, 'locateJustStarted' | 'send'>;
    log: Log;
    handoffRecords: Pick<HandoffRecords, 'save'>;
  },
  conversationId: string,
  plan: HandoffPlan,
  task: string,
): Promise<boolean> {
  const changes = localChanges();
  let step: DeliveryStep | 'message' = 'reach';
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('New OpenHands conversation'),
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const cancelled = token.onCancellationRequested(() => abort.abort());
        const signal = abort.signal;
        try {
          progress.report({ message: stepText('reach') });
          // the sandbox's agent server may miss one health check just after the start: asked again, bounded
          const agent = await deps.steering.locateJustStarted(conversationId, signal);
          const delivered = await changes.deliverHandoff(agent, plan.handoff, {
            workingCopyName: plan.workingCopyName,
            signal,
            onStep: (next) => {
              step = next;
              progress.report({ message: stepText(next) });
            },
          });
          // kept before the task goes: Apply and the header know the base even if the send fails
          await deps.handoffRecords
            .save(conversationId, handoffRecordOf(plan.handoff.manifest, delivered))
            .catch((error: unknown) =>
              deps.log.warn(`The hand-off of ${conversationId} was not kept: ${messageOf(error)}`),
            );
          step = 'message';
          progress.report({ message: vscode.l10n.t('Sending the first message…') });
          const given = changes.handoffMessage(plan.handoff.manifest, delivered.workingCopy);
          await deps.steering.send(conversationId, task.trim() ? `${given}\n\n${task}` : given, { signal });
        } finally {
          cancelled.dispose();
        }
      },
    );
    deps.log.info(
      `New conversation ${conversationId}: handed over ${plan.handoff.manifest.totalBytes} bytes (${plan.kind}).`,
    );
    return true;
  } catch (error) {
    const reason = messageOf(error);
    deps.log.error(`New conversation ${conversationId}: the hand-off stopped at ${step}: ${reason}`);
    const open = vscode.l10n.t('Open Conversation');
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t(
          'The conversation started, but your local work did not reach it ({0}): {1} Your task was not sent; it is kept for the next New Conversation.',
          stepText(step),
          reason,
        ),
        open,
      )
      .then((choice) => {
        if (choice === open)
          void vscode.commands.executeCommand('openhands.openConversation', conversationId);
      });
    return false;
  }
}

/** What the workspace keeps of a delivered hand-off: ids, names and counts (the store bounds the lists). */
export function handoffRecordOf(manifest: HandoffManifest, delivered: Delivered): HandoffRecordInput {
  return {
    kind: manifest.kind,
    head: manifest.head,
    ...(manifest.branch === undefined ? {} : { branch: manifest.branch }),
    handedOver: { ...manifest.handedOver },
    sandboxBase: delivered.baseCommit,
    workingCopy: delivered.workingCopy,
    commitCount: manifest.commitCount,
    commits: manifest.commits.map((commit) => commit.subject),
    editedCount: manifest.editedFiles.length,
    editedFiles: manifest.editedFiles,
    untrackedCount: manifest.untracked.length,
    untrackedFiles: manifest.untracked.map((file) => file.path),
  };
}

function stepText(step: DeliveryStep | 'message'): string {
  switch (step) {
    case 'reach':
      return vscode.l10n.t('Reaching the sandbox…');
    case 'upload':
      return vscode.l10n.t('Uploading your local work…');
    case 'replay':
      return vscode.l10n.t('Rebuilding your work in the sandbox…');
    case 'verify':
      return vscode.l10n.t('Checking the sandbox holds exactly your work…');
    case 'message':
      return vscode.l10n.t('Sending the first message…');
  }
}
