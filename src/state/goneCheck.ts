/**
 * Whether a conversation the user loaded was deleted elsewhere, told by the server's count instead of
 * the whole list read again. Pure (no vscode import): unit-tested in Node.
 *
 * The count (`GET /app-conversations/count`) also counts sub-conversations and conversations of the
 * older API, which the list does not show, so it is never held against the list's length. It is held
 * against itself: at a full read the server counts the conversations created before a mark just past
 * the newest one loaded (`created_at__lt`, with the list's title filter). Nothing created later
 * falls under the mark, so the same count later means none of them went (a rename out of the title
 * filter, or into it, changes it too); the conversations created since are on the newest pages a
 * refresh reads, or not there, and then may have gone.
 */
import type { AppConversation } from '../api';

/** All a conversation needs here: which it is, and when it was made. */
type Dated = Pick<AppConversation, 'id' | 'created_at'>;

/** What the server counted at the last full read. */
export interface CountMark {
  /** The count's `created_at__lt` (epoch ms): just past the newest conversation loaded then. */
  readonly before: number;
  readonly count: number;
}

/** Where a full read's count stops: just past the newest of these conversations; undefined when there are none. */
export function countMarkTime(conversations: readonly Dated[]): number | undefined {
  let newest: number | undefined;
  for (const conversation of conversations) {
    const created = createdMs(conversation);
    if (created !== undefined && (newest === undefined || created > newest)) newest = created;
  }
  // `created_at__lt` is strict and the server's times have microseconds: a millisecond past the newest
  return newest === undefined ? undefined : newest + 1;
}

export interface GoneCheck {
  /** The count at the last full read; undefined when none was taken (a server without the route). */
  mark: CountMark | undefined;
  /** The same count now; undefined when it failed. */
  counted: number | undefined;
  /** The loaded list once the refresh merged what it read. */
  loaded: readonly Dated[];
  /** The newest pages the refresh read: their ids, and whether they reached the end of the list. */
  newest: { ids: ReadonlySet<string>; complete: boolean };
}

/**
 * True when no loaded conversation can have gone: the newest pages were the whole list (what they
 * lacked is gone already), or the count is what it was and every conversation loaded since the mark
 * is on the newest pages. False sends the caller to read the whole list again.
 */
export function nothingWent({ mark, counted, loaded, newest }: GoneCheck): boolean {
  if (newest.complete) return true;
  if (!mark || counted !== mark.count) return false;
  return loaded.every((conversation) => {
    const created = createdMs(conversation);
    return (created !== undefined && created < mark.before) || newest.ids.has(conversation.id);
  });
}

function createdMs(conversation: Dated): number | undefined {
  const created = Date.parse(conversation.created_at ?? '');
  return Number.isNaN(created) ? undefined : created;
}
