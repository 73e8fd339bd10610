/**
 * The sandbox's files as read-only documents for VS Code's diff editor: `openhands-change:/<path>`
 * with the conversation, the side (the agent's base or its version), the change's status and the
 * list's version in the query. The text comes from the agent server through `ConversationChanges`;
 * the two sides of one file share one request. A changed picture's sides are served as bytes under
 * `openhands-change-image:` (`changeImages.ts`), with the same path and query.
 */
import * as vscode from 'vscode';
import { GIT_CHANGE_STATUSES, type GitChange, type GitChangeStatus } from '../api';
import type { ConversationChanges } from '../state/conversationChanges';
import type { FileSides } from '../state/changeSides';

export const CHANGE_SCHEME = 'openhands-change';
export const CHANGE_IMAGE_SCHEME = 'openhands-change-image';

export type ChangeSide = 'original' | 'modified';

export interface ChangeRef {
  conversationId: string;
  change: GitChange;
  side: ChangeSide;
  version: number;
}

/**
 * `asText`: a text file named as a picture (an SVG saved as `.png`) gets `.txt` after its name, or
 * VS Code would open its image preview on the text document and show nothing.
 */
export function changeUri(ref: ChangeRef, scheme = CHANGE_SCHEME, asText = false): vscode.Uri {
  const query = new URLSearchParams({
    conversation: ref.conversationId,
    side: ref.side,
    status: ref.change.status,
    v: String(ref.version),
    ...(asText ? { astext: '1' } : {}),
  });
  const path = `/${ref.change.path}${asText ? TEXT_SUFFIX : ''}`;
  return vscode.Uri.from({ scheme, path, query: query.toString() });
}

const TEXT_SUFFIX = '.txt';

export function parseChangeUri(uri: vscode.Uri): ChangeRef | undefined {
  if (uri.scheme !== CHANGE_SCHEME && uri.scheme !== CHANGE_IMAGE_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const conversationId = query.get('conversation');
  const side = query.get('side');
  const status = query.get('status');
  let path = uri.path.replace(/^\//, '');
  if (query.get('astext') === '1' && path.endsWith(TEXT_SUFFIX)) path = path.slice(0, -TEXT_SUFFIX.length);
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
/** And no more than this held together (pictures up to 8 MB a side, texts up to 1 MiB): the newest stays. */
const REMEMBERED_BYTES = 64 * 1024 * 1024;

interface Remembered {
  sides: Promise<FileSides>;
  /** What the sides hold, once read. */
  bytes: number;
}

export class ChangeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly remembered = new Map<string, Remembered>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly changes: ConversationChanges) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, this);
  }

  /** Both sides of a change, read once per list version. */
  sidesOf(conversationId: string, change: GitChange, version: number): Promise<FileSides> {
    const key = `${conversationId}\u0000${version}\u0000${change.status}\u0000${change.path}`;
    const known = this.remembered.get(key);
    if (known) return known.sides;
    const entry: Remembered = { sides: this.changes.sides(conversationId, change), bytes: 0 };
    this.remembered.set(key, entry);
    entry.sides.then(
      (read) => {
        // a failed read is asked again next time
        if (read.kind === 'unavailable') this.forget(key, entry);
        else {
          entry.bytes = bytesHeld(read);
          this.trim(key);
        }
      },
      () => this.forget(key, entry),
    );
    this.trim(key);
    return entry.sides;
  }

  /** The oldest go first, past the count or the bytes; `newest` always stays. */
  private trim(newest: string): void {
    let bytes = 0;
    for (const entry of this.remembered.values()) bytes += entry.bytes;
    for (const [key, entry] of this.remembered) {
      if (this.remembered.size <= REMEMBERED_SIDES && bytes <= REMEMBERED_BYTES) break;
      if (key === newest) continue;
      this.remembered.delete(key);
      bytes -= entry.bytes;
    }
  }

  private forget(key: string, entry: Remembered): void {
    if (this.remembered.get(key) === entry) this.remembered.delete(key);
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

/** What one read holds: a picture's bytes, a text's UTF-16 code units. */
function bytesHeld(sides: FileSides): number {
  if (sides.kind === 'image') return (sides.original?.length ?? 0) + (sides.modified?.length ?? 0);
  if (sides.kind === 'text') return 2 * (sides.original.length + sides.modified.length);
  return 0;
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
    case 'image':
      return vscode.l10n.t('{0} is a picture: open it alone to see it side by side.', path);
    case 'binary':
      return sides.notImage
        ? vscode.l10n.t(
            '{0} is a binary file: it has no text to compare, and it is not shown as a picture: {1}.',
            path,
            sides.notImage,
          )
        : vscode.l10n.t('{0} is a binary file: it has no text to compare.', path);
    case 'tooLarge':
      return vscode.l10n.t('{0} is larger than 1 MiB, more than the sandbox compares.', path);
    case 'unavailable':
      return vscode.l10n.t('The agent’s version of {0} could not be read: {1}', path, sides.message);
  }
}

function placeholder(sides: Exclude<FileSides, { kind: 'text' }>, ref: ChangeRef): string {
  if (sides.kind === 'deleted' && ref.side === 'modified') return '';
  // the multi-file diff has no picture view: point to the one that does
  if (sides.kind === 'image') return `${noDiffReason(sides, ref.change.path)}\n`;
  return `${noDiffReason(sides, ref.change.path)}\n${vscode.l10n.t(
    'Apply the changes, or save them as a patch, to take it.',
  )}\n`;
}
