/** Pure: merging what a refresh re-read into the loaded conversation list. No vscode import (unit-tested in Node). */
import type { AppConversation } from '../api';

export interface ConversationMerge {
  /** The new list; the very same array when nothing changed. */
  list: AppConversation[];
  /** Conversations replaced in place (the new objects): only their rows need redrawing. */
  changed: AppConversation[];
  /** Rows were added or removed (or one moved): the whole list needs redrawing. */
  structural: boolean;
}

export interface MergeInputs {
  loaded: readonly AppConversation[];
  /** Conversations the server just sent (any order); a loaded one with other data replaces it. */
  fresh: readonly AppConversation[];
  /** Ids the server says are gone (a batch get's nulls). */
  gone?: ReadonlySet<string>;
  /** Every conversation is loaded: a new one always belongs in the list, not only above the oldest loaded. */
  complete: boolean;
}

/**
 * Newest first by `created_at`, as the server lists them. A fresh conversation that is not loaded is
 * put in its place when it is newer than the oldest loaded one (or the list is complete); an older
 * one belongs to a page the user has not loaded, so it stays out.
 */
export function mergeConversations({ loaded, fresh, gone, complete }: MergeInputs): ConversationMerge {
  const position = positionsOf(loaded);
  const replaced = new Map<number, AppConversation>();
  const added = new Map<string, AppConversation>();
  let moved = false;
  for (const conversation of fresh) {
    const index = position.get(conversation.id);
    const before = index === undefined ? undefined : loaded[index];
    if (index === undefined || !before) {
      if (!gone?.has(conversation.id)) added.set(conversation.id, conversation);
      continue;
    }
    if (sameJson(before, conversation)) continue;
    // another place in the list or another sandbox: the whole list is drawn again
    if (before.created_at !== conversation.created_at || before.sandbox_id !== conversation.sandbox_id)
      moved = true;
    replaced.set(index, conversation);
  }
  const removed = new Set([...(gone ?? [])].filter((id) => position.has(id)));
  const oldest = createdMs(loaded[loaded.length - 1]);
  const kept = [...added.values()].filter(
    (conversation) => complete || loaded.length === 0 || createdMs(conversation) >= oldest,
  );
  if (!moved && kept.length === 0 && removed.size === 0) {
    if (replaced.size === 0) return { list: loaded as AppConversation[], changed: [], structural: false };
    const list = [...loaded];
    for (const [index, conversation] of replaced) list[index] = conversation;
    return { list, changed: [...replaced.values()], structural: false };
  }
  const list = loaded
    .map((conversation, index) => replaced.get(index) ?? conversation)
    .filter((conversation) => !removed.has(conversation.id));
  return { list: sortNewestFirst([...list, ...kept]), changed: [], structural: true };
}

const positions = new WeakMap<readonly AppConversation[], ReadonlyMap<string, number>>();

/**
 * Each conversation's index in the list, by id. Kept per list (a list is never changed in place, a
 * new one replaces it), so the polls that find nothing new do not build it again.
 */
export function positionsOf(list: readonly AppConversation[]): ReadonlyMap<string, number> {
  let known = positions.get(list);
  if (!known) {
    const built = new Map<string, number>();
    list.forEach((conversation, index) => built.set(conversation.id, index));
    positions.set(list, (known = built));
  }
  return known;
}

function createdMs(conversation: AppConversation | undefined): number {
  return Date.parse(conversation?.created_at ?? '') || 0;
}

/** Stable: equal times keep their order. */
function sortNewestFirst(conversations: AppConversation[]): AppConversation[] {
  return conversations
    .map((conversation, index) => ({ conversation, index, time: createdMs(conversation) }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map(({ conversation }) => conversation);
}

/** Deep equality of two JSON values (what the server sent), without serialising them. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}
