/**
 * New Conversation's hand-off step: the workspace repository's state read, one question when it holds
 * work the remote lacks, the untracked files to bring, then the hand-off built (`src/changes`, loaded
 * on first use). What to offer is `conversations/handoffChoice.ts`; the delivery happens once started.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { messageOf, type OpenHandsClient } from '../api';
import type { Handoff, HandoffKind } from '../changes';
import { handoffChoices, serverHasProvider, type HandoffChoice } from '../conversations/handoffChoice';
import type { WorkspaceRepository } from '../conversations/workspaceGit';
import type { Log } from '../core/log';
import { localChanges } from './changes/localChanges';

export interface HandoffPlan {
  handoff: Handoff;
  /** The working copy's folder in the sandbox (the clone's name, or the local folder's). */
  workingCopyName: string;
  /** `archive`: the start request must not ask the server to clone anything. */
  kind: HandoffKind;
  /** `commits`: the branch the server clones (the upstream's), where the commits ahead start. */
  upstreamBranch?: string;
}

/** `start`: nothing to hand over (start as before); `cancelled`: the user stopped, or a refusal was said. */
export type HandoffStep =
  /**
   * Start as before. `withoutRepository`: the start must not name the repository either (OpenHands 1.11
   * clones only through a provider it holds a token for, and fails the start when none answers).
   */
  | { kind: 'start'; withoutRepository?: boolean }
  | { kind: 'cancelled' }
  | { kind: 'handoff'; plan: HandoffPlan };

interface ChoiceItem extends vscode.QuickPickItem {
  choice: HandoffChoice;
}

export async function askForHandoff(
  deps: { client: Pick<OpenHandsClient, 'getSettings'>; log: Log },
  repository: WorkspaceRepository | undefined,
  /** The repository the start request names (what the server would clone). */
  requested: string | undefined,
): Promise<HandoffStep> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder || folder.scheme !== 'file') return { kind: 'start' };
  const changes = localChanges();
  let state;
  try {
    if (await changes.isIgnoredFolder(folder.fsPath)) return { kind: 'start' };
    state = await changes.readLocalState(folder.fsPath);
  } catch (error) {
    deps.log.warn(`New conversation: could not read the repository's state: ${messageOf(error)}`);
    return { kind: 'start' };
  }
  if (!state?.head) return { kind: 'start' };
  let tokens: Record<string, string | null> | null = null;
  try {
    tokens = (await deps.client.getSettings()).provider_tokens_set;
  } catch (error) {
    deps.log.warn(`New conversation: could not read the git providers: ${messageOf(error)}`);
  }
  // a repository the user typed that is not this one: the local work is not what the agent gets
  const sameRepository = !requested || requested === repository?.repository;
  if (!sameRepository) return { kind: 'start' };
  const choices = handoffChoices(state, requested ? serverHasProvider(repository, tokens) : false);
  if (choices.length === 0) return { kind: 'start' };

  const items: ChoiceItem[] = choices.map((choice) => itemOf(choice, state));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('New Conversation: your local work'),
    // a placeholder is one line: said short enough to read whole at the quick pick's width
    placeHolder: state.cleanAndPushed
      ? vscode.l10n.t(
          'The server may not be able to clone {0}. What should the agent start from?',
          basename(state.root),
        )
      : choices.some((choice) => choice.kind === 'without-local-work')
        ? vscode.l10n.t(
            'The server has no git token to clone {0}. What should the agent start from?',
            basename(state.root),
          )
        : vscode.l10n.t(
            '{0} has work that is not on its remote. What should the agent start from?',
            basename(state.root),
          ),
    ignoreFocusOut: true,
  });
  if (!picked) return { kind: 'cancelled' };
  const choice = picked.choice;
  if (choice.kind === 'without-local-work') return { kind: 'start', withoutRepository: true };
  if (choice.kind === 'remote-only') return { kind: 'start' };
  if (choice.kind === 'push') {
    const upstream = state.upstream;
    if (!upstream?.remote || !upstream.branch) return { kind: 'start' };
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Pushing {0} to {1}…', choice.branch, choice.upstream),
        },
        () =>
          changes.pushToUpstream(state.root, choice.branch, {
            remote: upstream.remote ?? '',
            branch: upstream.branch ?? '',
          }),
      );
    } catch (error) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '{0} was not pushed to {1}, so nothing started: {2}',
          choice.branch,
          choice.upstream,
          messageOf(error),
        ),
      );
      return { kind: 'cancelled' };
    }
    return { kind: 'start' };
  }

  let untracked: string[] = [];
  if (state.untracked.length > 0) {
    const ticked = await vscode.window.showQuickPick(
      state.untracked.map((path) => ({ label: path, picked: false })),
      {
        title: vscode.l10n.t('New Conversation: new files to bring'),
        placeHolder: vscode.l10n.t(
          'Tick the untracked files the agent should get. Ignored files are never sent.',
        ),
        canPickMany: true,
        ignoreFocusOut: true,
      },
    );
    if (!ticked) return { kind: 'cancelled' };
    untracked = ticked.map((item) => item.label);
  }
  try {
    const handoff = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Packing your local work…') },
      () => changes.buildHandoff(state.root, { kind: choice.kind, untracked }),
    );
    const cloneName = repository?.repository.split('/').pop();
    const workingCopyName = choice.kind === 'commits' && cloneName ? cloneName : basename(state.root);
    const upstreamBranch = choice.kind === 'commits' ? state.upstream?.branch : undefined;
    return { kind: 'handoff', plan: { handoff, workingCopyName, kind: choice.kind, upstreamBranch } };
  } catch (error) {
    const refused = error instanceof changes.HandoffRefusedError;
    if (!refused) deps.log.error(`New conversation: the hand-off was not built: ${messageOf(error)}`);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Your local work was not handed over, so nothing started: {0}', messageOf(error)),
    );
    return { kind: 'cancelled' };
  }
}

function itemOf(
  choice: HandoffChoice,
  state: {
    ahead?: number;
    upstream?: { name: string };
    staged: { path: string }[];
    unstaged: { path: string }[];
    untracked: unknown[];
  },
): ChoiceItem {
  const edits = new Set([...state.staged, ...state.unstaged].map((change) => change.path)).size;
  const ahead = state.ahead ?? 0;
  const local = [
    ahead === 1 ? vscode.l10n.t('1 commit ahead') : vscode.l10n.t('{0} commits ahead', ahead),
    edits === 1 ? vscode.l10n.t('1 edited file') : vscode.l10n.t('{0} edited files', edits),
    state.untracked.length === 1
      ? vscode.l10n.t('1 new file')
      : vscode.l10n.t('{0} new files', state.untracked.length),
  ].join(', ');
  switch (choice.kind) {
    case 'push':
      return {
        choice,
        label: vscode.l10n.t('Push {0}, then start', choice.branch),
        detail: vscode.l10n.t('git push to {0} (never forced); the agent clones it', choice.upstream),
      };
    case 'commits':
      return {
        choice,
        label: vscode.l10n.t('Bring my changes'),
        // said whole at the quick pick's width (the longer wording lost the new files)
        detail: vscode.l10n.t(
          'Clones {0}, then adds {1}',
          state.upstream?.name ?? vscode.l10n.t('the upstream'),
          local,
        ),
      };
    case 'archive':
      return {
        choice,
        label: vscode.l10n.t('Bring my repository'),
        // said whole at the quick pick's width; why the server cannot clone it is the question's
        detail: vscode.l10n.t('The files at HEAD and your edits: {0}', local),
      };
    case 'without-local-work':
      return {
        choice,
        label: vscode.l10n.t('Start without my local work'),
        // with no token for the host, a start that names the repository fails on the server
        detail: vscode.l10n.t('Nothing from this folder goes: the agent starts without the repository'),
      };
    case 'remote-only':
      return choice.upstream
        ? {
            choice,
            label: vscode.l10n.t('Start from {0} only', choice.upstream),
            detail: vscode.l10n.t('Your local work stays here'),
          }
        : {
            choice,
            label: vscode.l10n.t('Start from the remote only'),
            detail: vscode.l10n.t('Your local work stays here'),
          };
  }
}
