/**
 * What each conversation started from local state was given, kept in workspaceState so Apply, the
 * Changes list and the panel's header know it after a window reload: the tree and commit handed over,
 * the sandbox's commit of it, the working copy there, and the commits and files in short lists. Names
 * and ids only: never a file's bytes, a key, or the server's address (its records are keyed by a hash).
 */
import { createHash } from 'node:crypto';
import { normalizeUuid } from '../api';
import { redactUrl } from '../common/credentialText';

export interface HandoffRecord {
  version: 1;
  /** sha-256 of the server's URL (`serverKey`): a record is only ever read for the server it was made on. */
  server: string;
  conversationId: string;
  /** When the hand-off was delivered (ms since the epoch): the oldest records go first. */
  savedAt: number;
  kind: 'commits' | 'archive';
  /** The user's HEAD when handed over. */
  head: string;
  /** The branch the user was on; undefined for a detached HEAD. */
  branch?: string;
  /** The tree handed over and the commit of it made in the user's repository (no ref moved). */
  handedOver: { tree: string; commit: string };
  /** The sandbox's commit of the same tree: what its git routes diff against. */
  sandboxBase: string;
  /** The working copy's absolute path in the sandbox. */
  workingCopy: string;
  commitCount: number;
  /** The first commits' subjects, oldest first, at most `MAX_LISTED`. */
  commits: string[];
  editedCount: number;
  /** Files with staged or unstaged edits, at most `MAX_LISTED`. */
  editedFiles: string[];
  untrackedCount: number;
  /** The untracked files the user ticked, at most `MAX_LISTED`. */
  untrackedFiles: string[];
}

export type HandoffRecordInput = Omit<HandoffRecord, 'version' | 'server' | 'conversationId' | 'savedAt'>;

/** The part of `vscode.Memento` the records use. */
export interface RecordMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const HANDOFF_RECORDS_KEY = 'openhands.handoffRecords';
/** Records kept in a workspace; the oldest is dropped past it. */
export const MAX_RECORDS = 40;
/** Commits, edited files, untracked files: each list's length in a record. */
export const MAX_LISTED = 30;
/** A subject or a path past this is cut (the list is for reading; a path's tail is kept). */
export const MAX_TEXT_CHARS = 300;

/** The key a server's records are filed under: a hash, so no URL (nor a credential in one) is stored. */
export function serverKey(serverUrl: string): string {
  return createHash('sha256').update(serverUrl.trim().replace(/\/+$/, '').toLowerCase()).digest('hex');
}

export class HandoffRecords {
  constructor(
    private readonly memento: RecordMemento,
    /** The server of the moment; undefined when none is configured. */
    private readonly serverUrl: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The record of `conversationId` on the server of the moment, if one was kept. */
  get(conversationId: string): HandoffRecord | undefined {
    const url = this.serverUrl();
    if (!url) return undefined;
    const server = serverKey(url);
    const id = normalizeUuid(conversationId);
    return this.all().find((record) => record.server === server && record.conversationId === id);
  }

  /** Keeps what `conversationId` was given on the server of the moment (bounded; the oldest dropped). */
  async save(conversationId: string, input: HandoffRecordInput): Promise<HandoffRecord | undefined> {
    const url = this.serverUrl();
    if (!url) return undefined;
    const record = bounded({
      ...input,
      version: 1,
      server: serverKey(url),
      conversationId: normalizeUuid(conversationId),
      savedAt: this.now(),
    });
    const others = this.all().filter(
      (kept) => !(kept.server === record.server && kept.conversationId === record.conversationId),
    );
    const kept = [...others, record].sort((a, b) => a.savedAt - b.savedAt).slice(-MAX_RECORDS);
    await this.memento.update(HANDOFF_RECORDS_KEY, kept);
    return record;
  }

  /** Every record that reads as one (a hand-edited or older entry is skipped). */
  private all(): HandoffRecord[] {
    const stored = this.memento.get<unknown>(HANDOFF_RECORDS_KEY);
    return Array.isArray(stored) ? stored.filter(isRecord) : [];
  }
}

function bounded(record: HandoffRecord): HandoffRecord {
  const list = (items: readonly string[]) => items.slice(0, MAX_LISTED).map(clip);
  return {
    ...record,
    ...(record.branch === undefined ? {} : { branch: clip(record.branch) }),
    commits: list(record.commits).map(redactUrl),
    editedFiles: list(record.editedFiles),
    untrackedFiles: list(record.untrackedFiles),
  };
}

function clip(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `…${text.slice(-(MAX_TEXT_CHARS - 1))}` : text;
}

const HEX = /^[0-9a-f]{40,64}$/;
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= MAX_LISTED && value.every((item) => typeof item === 'string');
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isRecord(value: unknown): value is HandoffRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<Record<keyof HandoffRecord, unknown>>;
  const handedOver = record.handedOver as { tree?: unknown; commit?: unknown } | undefined;
  return (
    record.version === 1 &&
    typeof record.server === 'string' &&
    typeof record.conversationId === 'string' &&
    typeof record.savedAt === 'number' &&
    (record.kind === 'commits' || record.kind === 'archive') &&
    typeof record.head === 'string' &&
    (record.branch === undefined || typeof record.branch === 'string') &&
    typeof handedOver === 'object' &&
    typeof handedOver.tree === 'string' &&
    HEX.test(handedOver.tree) &&
    typeof handedOver.commit === 'string' &&
    HEX.test(handedOver.commit) &&
    typeof record.sandboxBase === 'string' &&
    HEX.test(record.sandboxBase) &&
    typeof record.workingCopy === 'string' &&
    record.workingCopy.startsWith('/') &&
    isCount(record.commitCount) &&
    isCount(record.editedCount) &&
    isCount(record.untrackedCount) &&
    isStrings(record.commits) &&
    isStrings(record.editedFiles) &&
    isStrings(record.untrackedFiles)
  );
}
