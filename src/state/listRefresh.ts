/**
 * A refresh of the sandbox and conversation lists that reads only what can have changed. Plain
 * Node (no vscode import): unit-tested against the test server, counting requests.
 */
import { collectAll, type AppConversation, type OpenHandsClient, type SandboxInfo } from '../api';
import { mergeConversations, positionsOf, sameJson, type ConversationMerge } from './conversationMerge';
import { countMarkTime, nothingWent, type CountMark } from './goneCheck';

export interface LoadedLists {
  readonly sandboxes: readonly SandboxInfo[];
  /** Newest first (by `created_at`, the server's order). */
  readonly conversations: readonly AppConversation[];
  /** `next_page_id` after the loaded conversations; null when all are loaded. */
  readonly next: string | null;
  /** The newest `updated_at` (ms) any reply carried: the next refresh asks for what changed since. */
  readonly updatedMark: number;
  /** What the server counted at the last full read (`goneCheck.ts`); undefined when it did not say. */
  readonly countMark?: CountMark;
}

export const NOTHING_LOADED: LoadedLists = { sandboxes: [], conversations: [], next: null, updatedMark: 0 };

export interface ListRefreshOptions {
  /** Read the whole loaded list again (the first load, a new filter). */
  full: boolean;
  /**
   * The Refresh command: a conversation deleted elsewhere must go. What changed is read with the
   * server's count beside it, and the whole list only when the count cannot say nothing went.
   */
  verify?: boolean;
  titleFilter: string | undefined;
  pageSize: number;
  /** How many conversations a full read brings at least (as many as the user had loaded). */
  wanted: number;
}

export interface ListRefresh {
  /** The lists after the refresh; each the very same array as before when it did not change. */
  lists: LoadedLists;
  /** Rows whose data changed in place; undefined when rows came, went or moved. */
  changedRows?: { conversations: AppConversation[]; sandboxes: SandboxInfo[] };
}

/** How far back of the newest update seen a refresh asks again: a write the server committed late is not missed. */
const UPDATE_SLACK_MS = 30_000;
/** The newest conversations a refresh reads first: new ones, and titles OpenHands sets just after a start. */
const NEWEST_PAGE = 20;
/** Pages a refresh reads of one query before it reads the whole list instead. */
const MAX_REFRESH_PAGES = 10;
/** Conversations re-read in one round because their sandbox changed (10 batch gets of 99). */
const MAX_REREAD = 990;
const MAX_SANDBOXES = 1000;

/** The sandbox list each conversation list was last found to agree with (every status and key the same). */
const agreedWith = new WeakMap<readonly AppConversation[], readonly SandboxInfo[]>();

/**
 * After a full read, a refresh asks for the sandboxes, the newest page of conversations (more only
 * while every one on it is new), the conversations updated since the newest update seen, and, by
 * id, the loaded conversations whose sandbox's status or key is no longer what they say. With
 * nothing changed that is three requests, however many conversations are loaded.
 *
 * OpenHands 1.11 lists conversations by `created_at` only (no sort parameter) and bumps
 * `updated_at` on the agent's status and statistics, not on a new title or a sandbox's pause, so
 * the newest page catches the auto-titles and the sandbox check the pauses. A conversation deleted
 * elsewhere, or renamed far down the list, shows at the next full read; `verify` (the Refresh
 * command) asks the server's count too, and reads the whole list only when the count does not say
 * that nothing went (`goneCheck.ts`): four requests when nothing changed.
 */
export async function refreshLists(
  client: OpenHandsClient,
  loaded: LoadedLists,
  options: ListRefreshOptions,
): Promise<ListRefresh> {
  const [sandboxes, read] = await Promise.all([
    collectAll((pageId, signal) => client.searchSandboxes({ pageId, limit: 100 }, { signal }), {
      maxItems: MAX_SANDBOXES,
    }),
    options.full
      ? readAll(client, loaded, options)
      : options.verify
        ? readVerified(client, loaded, options)
        : readChanged(client, loaded, options),
  ]);
  const sandboxRows = changedSandboxes(loaded.sandboxes, sandboxes);
  const nextSandboxes = sandboxRows?.length === 0 ? loaded.sandboxes : sandboxes;
  // conversations say their sandbox's status: those that say another than the list are read again
  // (not looked at again while neither list changed since they all agreed)
  const agreed = agreedWith.get(read.merge.list) === nextSandboxes;
  const behind = agreed ? [] : behindTheirSandbox(read.merge.list, sandboxes);
  const reread = behind.length ? await client.getConversations(behind) : [];
  const fresh = reread.filter((conversation): conversation is AppConversation => conversation !== null);
  const second = mergeConversations({
    loaded: read.merge.list,
    fresh,
    gone: new Set(behind.filter((_, index) => reread[index] === null)),
    complete: read.next === null,
  });
  if (!agreed && behind.length === 0) agreedWith.set(second.list, nextSandboxes);
  const lists: LoadedLists = {
    sandboxes: nextSandboxes,
    conversations: second.list,
    next: read.next,
    updatedMark: newestUpdate(read.mark, fresh),
    ...(read.countMark ? { countMark: read.countMark } : {}),
  };
  const structural =
    read.merge.structural || second.structural || sandboxRows === undefined || read.next !== loaded.next;
  if (structural) return { lists };
  return {
    lists,
    changedRows: {
      conversations: [...new Set([...read.merge.changed, ...second.changed])],
      sandboxes: sandboxRows,
    },
  };
}

/** The newest `updated_at` (ms) of `mark` and these conversations. */
export function newestUpdate(mark: number, conversations: readonly AppConversation[]): number {
  let newest = mark;
  for (const conversation of conversations) {
    const updated = Date.parse(conversation.updated_at ?? '');
    if (updated > newest) newest = updated;
  }
  return newest;
}

interface ConversationsRead {
  merge: ConversationMerge;
  next: string | null;
  mark: number;
  countMark: CountMark | undefined;
}

/** What changed, read beside the server's count; everything again when the count cannot say nothing went. */
async function readVerified(
  client: OpenHandsClient,
  loaded: LoadedLists,
  options: ListRefreshOptions,
): Promise<ConversationsRead> {
  const mark = loaded.countMark;
  const [read, now] = await Promise.all([
    readChanged(client, loaded, options),
    countBefore(client, options.titleFilter, mark?.before),
  ]);
  // read whole already: its newest pages ran past the refresh's bound
  if (!read.newest) return read;
  if (nothingWent({ mark, counted: now?.count, loaded: read.merge.list, newest: read.newest })) return read;
  return readAll(client, loaded, options);
}

/** The whole loaded list again (at least one page); the old array is kept when nothing in it changed. */
async function readAll(
  client: OpenHandsClient,
  loaded: LoadedLists,
  options: ListRefreshOptions,
): Promise<ConversationsRead> {
  // beyond the first page, the largest pages the server gives: fewer round trips
  const limit = options.wanted > options.pageSize ? 100 : options.pageSize;
  const items: AppConversation[] = [];
  const seen = new Set<string>();
  let pageId: string | undefined;
  let next: string | null = null;
  let counting: Promise<CountMark | undefined> | undefined;
  do {
    const page = await client.searchConversations({ titleContains: options.titleFilter, pageId, limit });
    // beside the pages, what the Refresh command's count is held against (the newest are on the first)
    counting ??= countBefore(client, options.titleFilter, countMarkTime(page.items));
    for (const conversation of page.items) {
      if (seen.has(conversation.id)) continue;
      seen.add(conversation.id);
      items.push(conversation);
    }
    next = page.next_page_id;
    pageId = next ?? undefined;
  } while (next !== null && items.length < options.wanted);
  const old = loaded.conversations;
  const same =
    old.length === items.length && old.every((conversation, i) => sameJson(conversation, items[i]));
  return {
    merge: { list: same ? (old as AppConversation[]) : items, changed: [], structural: !same },
    next,
    // everything loaded was read again: the mark starts over from it
    mark: newestUpdate(0, items),
    countMark: await counting,
  };
}

/** The conversations created before `before` as the server counts them; undefined when it does not say. */
async function countBefore(
  client: OpenHandsClient,
  titleContains: string | undefined,
  before: number | undefined,
): Promise<CountMark | undefined> {
  if (before === undefined) return undefined;
  try {
    return {
      before,
      count: await client.countConversations({ titleContains, createdAtLt: new Date(before) }),
    };
  } catch {
    // a server without the route, or a failure: the Refresh command reads everything, as it did
    return undefined;
  }
}

/** The newest pages until one holds a loaded conversation, and everything updated since the mark. */
async function readChanged(
  client: OpenHandsClient,
  loaded: LoadedLists,
  options: ListRefreshOptions,
): Promise<ConversationsRead & { newest?: { ids: ReadonlySet<string>; complete: boolean } }> {
  const known = positionsOf(loaded.conversations);
  const since = loaded.updatedMark ? new Date(loaded.updatedMark - UPDATE_SLACK_MS) : undefined;
  const titleContains = options.titleFilter;
  const [newest, updated] = await Promise.all([
    readPagesWhile(
      (pageId) =>
        client.searchConversations({ titleContains, pageId, limit: Math.min(options.pageSize, NEWEST_PAGE) }),
      (page) => page.items.every((conversation) => !known.has(conversation.id)),
    ),
    since
      ? readPagesWhile(
          (pageId) => client.searchConversations({ titleContains, updatedAtGte: since, pageId, limit: 100 }),
          () => true,
        )
      : Promise.resolve({ items: [], complete: true }),
  ]);
  if (newest === undefined || updated === undefined) return readAll(client, loaded, options);
  const fresh = [...newest.items, ...updated.items];
  // the newest pages reached the end: they are the whole list, and what they lack is gone
  const listed = newest.complete ? new Set(newest.items.map((conversation) => conversation.id)) : undefined;
  const gone = listed && new Set([...known.keys()].filter((id) => !listed.has(id)));
  return {
    merge: mergeConversations({ loaded: loaded.conversations, fresh, gone, complete: loaded.next === null }),
    next: loaded.next,
    mark: newestUpdate(loaded.updatedMark, fresh),
    countMark: loaded.countMark,
    newest: {
      ids: listed ?? new Set(newest.items.map((conversation) => conversation.id)),
      complete: newest.complete,
    },
  };
}

/**
 * Reads pages from the first while `more` says the last one calls for the next (`complete`: up to
 * the last page); undefined when that takes more than MAX_REFRESH_PAGES (everything is read instead).
 */
async function readPagesWhile(
  read: (pageId: string | undefined) => Promise<{ items: AppConversation[]; next_page_id: string | null }>,
  more: (page: { items: AppConversation[] }) => boolean,
): Promise<{ items: AppConversation[]; complete: boolean } | undefined> {
  const items: AppConversation[] = [];
  let pageId: string | undefined;
  for (let pages = 0; pages < MAX_REFRESH_PAGES; pages++) {
    const page = await read(pageId);
    items.push(...page.items);
    if (page.next_page_id === null) return { items, complete: true };
    if (!more(page)) return { items, complete: false };
    pageId = page.next_page_id;
  }
  return undefined;
}

/** Sandboxes whose data changed in place; undefined when sandboxes came, went or moved. */
function changedSandboxes(
  before: readonly SandboxInfo[],
  after: readonly SandboxInfo[],
): SandboxInfo[] | undefined {
  if (before.length !== after.length || before.some((sandbox, i) => sandbox.id !== after[i]?.id))
    return undefined;
  return after.filter((sandbox, i) => !sameJson(before[i], sandbox));
}

/** Ids of conversations whose sandbox status (or key) is not their sandbox's, at most MAX_REREAD. */
function behindTheirSandbox(
  conversations: readonly AppConversation[],
  sandboxes: readonly SandboxInfo[],
): string[] {
  const bySandbox = new Map(sandboxes.map((sandbox) => [sandbox.id, sandbox]));
  const behind: string[] = [];
  for (const conversation of conversations) {
    const sandbox = bySandbox.get(conversation.sandbox_id);
    // past the sandboxes listed, a missing one says nothing about its conversations
    if (!sandbox && sandboxes.length >= MAX_SANDBOXES) continue;
    const status = sandbox?.status ?? 'MISSING';
    const key =
      status === 'RUNNING' ? (sandbox?.session_api_key ?? null) : (conversation.session_api_key ?? null);
    if (conversation.sandbox_status !== status || (conversation.session_api_key ?? null) !== key)
      behind.push(conversation.id);
    if (behind.length >= MAX_REREAD) break;
  }
  return behind;
}
