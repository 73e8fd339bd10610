/**
 * The header's line for a conversation started from the user's local state: "Started from your local
 * state: 3 commits, 5 files", and the lists it expands to (the commits' subjects, the edited and the new
 * files). Words only: the page draws them as text, whatever a subject or a path holds.
 */
import * as vscode from 'vscode';
import type { HandoffRecord } from '../../../state/handoffRecords';
import type { HandedOver } from '../shared/protocol';

/** An entry past this is cut for the header (the record keeps up to 300 characters). */
const MAX_ITEM_CHARS = 300;

export function handedOverHeader(record: HandoffRecord | undefined): HandedOver | null {
  if (!record) return null;
  const fileCount = record.editedCount + record.untrackedCount;
  const parts: string[] = [];
  if (record.kind === 'archive')
    parts.push(vscode.l10n.t('your repository at {0}', record.branch ?? record.head.slice(0, 12)));
  if (record.commitCount > 0)
    parts.push(
      record.commitCount === 1 ? vscode.l10n.t('1 commit') : vscode.l10n.t('{0} commits', record.commitCount),
    );
  if (fileCount > 0)
    parts.push(fileCount === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', fileCount));
  const summary =
    parts.length > 0
      ? vscode.l10n.t('Started from your local state: {0}', parts.join(', '))
      : vscode.l10n.t('Started from your local state');
  const lists: HandedOver['lists'] = [];
  const list = (heading: string, items: readonly string[], total: number) => {
    if (total === 0) return;
    const shown = items.map((item) =>
      item.length > MAX_ITEM_CHARS ? `${item.slice(0, MAX_ITEM_CHARS - 1)}…` : item,
    );
    const hidden = total - shown.length;
    lists.push({ heading, items: shown, more: hidden > 0 ? vscode.l10n.t('and {0} more', hidden) : null });
  };
  list(vscode.l10n.t('Commits not on the remote'), record.commits, record.commitCount);
  list(vscode.l10n.t('Edited files'), record.editedFiles, record.editedCount);
  list(vscode.l10n.t('New files you ticked'), record.untrackedFiles, record.untrackedCount);
  return { summary, lists };
}
