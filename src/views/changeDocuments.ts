/**
 * The sandbox's files as read-only documents for VS Code's diff editor: `openhands-change:/<path>`
 * with the conversation, the side (the agent's base or its version), the change's status and the
 * list's version in the query. The text comes from the agent server through `ConversationChanges`;
 * the two sides of one file share one request.
 */
import * as vscode from 'vscode';
import { GIT_CHANGE_STATUSES, type GitChange, type GitChangeStatus } from '../api';
import type { ConversationChanges, FileSides } from '../state/conversationChanges';

export const CHANGE_SCHEME = 'openhands-change';

export type ChangeSide = 'original' | 'modified';

export interface ChangeRef {
  conversationId: string;
  change: GitChange;
  side: ChangeSide;
  version: number;
}

export function changeUri(ref: ChangeRef): vscode.Uri {
  const query = new URLSearchParams({
    conversation: ref.conversationId,
    side: ref.side,
    status: ref.change.status,
    v: String(ref.version),
  });
  return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${ref.change.path}`, query: query.toString() });
}

export function parseChangeUri(uri: vscode.Uri): ChangeRef | undefined {
  if (uri.scheme !== CHANGE_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const conversationId = query.get('conversation');
  const side = query.get('side');
  const status = query.get('status');
  const path = uri.path.replace(/^\//, '');
  if (!conversationId || !path || (side !== 'original' && side !== 'modified')) return undefined;
  if (!status || !(GIT_CHANGE_STATUSES as readonly string[]).includes(status)) return undefined;
  return {
    conversationId,
    change: { path, status: status as GitChangeStatus },
    side,
    version: Number(query.get('v')) || 0,
  };
}

/** Sides fetched for the diffs shown lately: both documents of a diff, and a reopen, ask once. */
const REMEMBERED_SIDES = 64;

export class ChangeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly sides = new Map<string, Promise<FileSides>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly changes: ConversationChanges) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, this);
  }

  /** Both sides of a change, read once per list version. */
  sidesOf(conversationId: string, change: GitChange, version: number): Promise<FileSides> {
    const key = `${conversationId}\u0000${version}\u0000${change.status}\u0000${change.path}`;
    let sides = this.sides.get(key);
    if (!sides) {
      sides = this.changes.sides(conversationId, change);
      this.sides.set(key, sides);
      // a failed read is asked again next time
      sides.then(
        (read) => {
          if (read.kind === 'unavailable') this.sides.delete(key);
        },
        () => this.sides.delete(key),
      );
      while (this.sides.size > REMEMBERED_SIDES) {
        const oldest = this.sides.keys().next().value;
        if (oldest === undefined) break;
        this.sides.delete(oldest);
      }
    }
    return sides;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseChangeUri(uri);
    if (!ref) return '';
    const sides = await this.sidesOf(ref.conversationId, ref.change, ref.version);
    if (sides.kind === 'text')
      return withFinalNewline(ref.side === 'original' ? sides.original : sides.modified);
    // the multi-file diff shows every file: say why this one has no text instead of failing
    return ref.side === 'modified' || sides.kind === 'deleted' ? placeholder(sides, ref) : '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

/**
 * The agent server drops both sides' final newline; put it back, so a new file diffs against an
 * empty side (not against one empty line) and the line counts are the file's.
 */
function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** Why a file of the change has no text diff, in the words the diff editor shows. */
export function noDiffReason(sides: Exclude<FileSides, { kind: 'text' }>, path: string): string {
  switch (sides.kind) {
    case 'deleted':
      return vscode.l10n.t('The agent deleted {0}.', path);
    case 'binary':
      return vscode.l10n.t('{0} is a binary file: it has no text to compare.', path);
    case 'tooLarge':
      return vscode.l10n.t('{0} is larger than 1 MiB, more than the sandbox compares.', path);
    case 'unavailable':
      return vscode.l10n.t('The agent’s version of {0} could not be read: {1}', path, sides.message);
  }
}

function placeholder(sides: Exclude<FileSides, { kind: 'text' }>, ref: ChangeRef): string {
  if (sides.kind === 'deleted' && ref.side === 'modified') return '';
  return `${noDiffReason(sides, ref.change.path)}\n${vscode.l10n.t(
    'Apply the changes, or save them as a patch, to take it.',
  )}\n`;
}
