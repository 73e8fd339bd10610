/** The rows of an agent's change in the trees: "Changes" under a conversation, and its files. */
import * as vscode from 'vscode';
import { codeRunningReason, type GitChangeStatus } from '../api';
import { lastRead, type ChangesState } from '../state/conversationChanges';
import { changeUri } from './changeDocuments';
import type { ChangedFileNode, ChangesNode, NoticeNode } from './nodes';

export const STATUS_LABEL: Record<GitChangeStatus, () => string> = {
  ADDED: () => vscode.l10n.t('added'),
  UPDATED: () => vscode.l10n.t('updated'),
  DELETED: () => vscode.l10n.t('deleted'),
  MOVED: () => vscode.l10n.t('moved'),
};

function parentId(node: ChangesNode | ChangedFileNode): string {
  return node.underSandbox
    ? `sandbox/${node.underSandbox}/conversation/${node.conversation.id}`
    : `conversation/${node.conversation.id}`;
}

export function changesTreeItem(node: ChangesNode, state: ChangesState): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Changes'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${parentId(node)}/changes`;
  item.iconPath = new vscode.ThemeIcon('diff-multiple');
  const files = lastRead(state)?.files;
  const count =
    files === undefined
      ? undefined
      : files.length === 1
        ? vscode.l10n.t('1 file')
        : vscode.l10n.t('{0} files', files.length);
  // a re-read shows what it has until the new list comes: "reading…" only while there is nothing yet
  item.description =
    state.kind === 'loading' && !state.previous
      ? vscode.l10n.t('reading…')
      : state.kind === 'failed'
        ? state.offline
          ? vscode.l10n.t('sandbox not running')
          : vscode.l10n.t('could not be read')
        : count;
  item.contextValue = files && files.length > 0 ? 'changes.some' : 'changes.none';
  item.tooltip =
    state.kind === 'failed'
      ? state.message
      : vscode.l10n.t(
          'The files the agent changed in its workspace. Open one to review it in the diff editor.',
        );
  return item;
}

/**
 * What a conversation's Changes node and its rows show for a state, as one string: two states with the
 * same key draw the same rows, so the tree is not redrawn for a re-read that found the same files (a
 * redraw replaces each row's command, and a click landing in between finds none).
 */
export function changesShownKey(state: ChangesState): string {
  const files = lastRead(state)?.files.map((change) => `${change.status} ${change.path}`) ?? [];
  // a re-read with a list in hand shows it as a read list does (`changesTreeItem`)
  const shows =
    state.kind === 'failed'
      ? `failed ${state.offline} ${state.message}`
      : state.kind === 'loading' && !state.previous
        ? 'reading'
        : state.kind === 'unread'
          ? 'unread'
          : 'shown';
  return [shows, ...files].join('\n');
}

export function changedFileTreeItem(node: ChangedFileNode): vscode.TreeItem {
  const { change } = node;
  const slash = change.path.lastIndexOf('/');
  const name = change.path.slice(slash + 1);
  const folder = slash > 0 ? change.path.slice(0, slash) : '';
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `${parentId(node)}/changes/${change.status}/${change.path}`;
  // the file's icon and the decoration (A, M, D) come from this URI
  item.resourceUri = changeUri({
    conversationId: node.conversation.id,
    change,
    side: 'modified',
    version: node.version,
  });
  // the list knows paths only: a new executable bit or link is known, and marked, at Apply
  const runsCode = codeRunningReason(change);
  item.iconPath = runsCode
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
    : vscode.ThemeIcon.File;
  const status = STATUS_LABEL[change.status]();
  const mark = runsCode ? vscode.l10n.t('can run code') : undefined;
  item.description = [folder, status, mark].filter(Boolean).join(' · ');
  item.tooltip = runsCode
    ? `${change.path} — ${status}\n${vscode.l10n.t('Can run code on your machine: {0}.', runsCode)}`
    : `${change.path} — ${status}`;
  item.contextValue = `changedFile.${change.status.toLowerCase()}`;
  item.command = { command: 'openhands.openChange', title: vscode.l10n.t('Open Change'), arguments: [node] };
  item.accessibilityInformation = {
    label: [change.path, status, runsCode ? vscode.l10n.t('can run code: {0}', runsCode) : undefined]
      .filter(Boolean)
      .join(', '),
  };
  return item;
}

export function noticeTreeItem(node: NoticeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon(node.icon ?? 'info');
  item.contextValue = 'notice';
  item.tooltip = node.text;
  return item;
}
