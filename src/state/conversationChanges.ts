/**
 * What the agent changed in its workspace, per conversation: the list of changed files (read when
 * someone looks, and again when the agent edits a file, runs a command or stops; never polled), one
 * file's two sides for the diff editor (`changeSides.ts`), and the whole change as one patch.
 */
import * as vscode from 'vscode';
import {
  AGENT_SERVER_EXCLUDES,
  absoluteWorkspaceDir,
  agentChanges,
  ApiError,
  changesInPatch,
  type AgentServerClient,
  type GitChange,
  mayChangeWorkspace,
  messageOf,
  normalizeUuid,
  type WorkspaceDelta,
} from '../api';
import type { Log } from '../core/log';
import { agentWorkspaceDir } from './agentWorkspaceDir';
import { ChangeSides, type FileSides } from './changeSides';
import type { HandoffRecord, HandoffRecords } from './handoffRecords';
import type { ConversationFeeds } from './conversationFeeds';
import type { OpenHandsStore } from './store';

export interface ChangeSet {
  conversationId: string;
  files: readonly GitChange[];
  /** The directory `files` are relative to, as the agent server names it (`"."` in a process sandbox). */
  workspaceDir: string;
  /**
   * The workspace's absolute folder when it is certain: named by the server, or read from an edit of
   * a listed file (so the panel can show the agent's paths relative to it). Kept once known.
   */
  folder?: string;
  /** Bumped on every read: the diff editor's URIs carry it, so a newer read shows newer text. */
  version: number;
}

export type ChangesState =
  | { kind: 'unread' }
  | { kind: 'loading'; previous?: ChangeSet }
  | { kind: 'ready'; set: ChangeSet }
  /** The agent server cannot be reached now (a paused sandbox) or answered with an error. */
  | { kind: 'failed'; message: string; offline: boolean; previous?: ChangeSet };

/** The last list a state holds: the one read, or while reading again or after a failure, the one before. */
export function lastRead(state: ChangesState): ChangeSet | undefined {
  return state.kind === 'ready' ? state.set : state.kind === 'unread' ? undefined : state.previous;
}

export interface ConversationDelta extends WorkspaceDelta {
  files: readonly GitChange[];
  /**
   * The conversation started from the user's local state: the patch is against what the sandbox was
   * given (its commit of the handed-over tree), so it holds only the agent's work.
   */
  handoff?: HandoffRecord;
}

export interface ChangesDeps {
  store: OpenHandsStore;
  feeds: ConversationFeeds;
  log: Log;
  /** Whether a failure to locate the agent server means the sandbox is not running (rather than an error). */
  isOffline(error: unknown): boolean;
  /** What conversations started from local state were given: their changes are read against it. */
  handoffs?: Pick<HandoffRecords, 'get'>;
}

/** Edits come in bursts (a command, its observation, the next edit): one read after the burst. */
const REFRESH_DELAY_MS = 400;

interface Entry {
  state: ChangesState;
  /** The read in flight, and whether another was asked for meanwhile. */
  reading?: Promise<ChangesState>;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
  /** The agent's and the sandbox's status when last seen in the store: a change of either reads again. */
  statusKey?: string;
  /**
   * The workspace's directory as the agent server at `baseUrl` named it: a re-read from the same
   * server reuses it (the workspace does not move), so it is one request.
   */
  workspace?: { baseUrl: string; dir: string };
}

/**
 * The agent's work in a hand-off's working copy, against the sandbox's commit of what it was given. A
 * sandbox made anew (deleted, then started again) has neither: said so, not in the server's words.
 */
async function handedOverDelta(
  client: AgentServerClient,
  handoff: HandoffRecord,
  signal?: AbortSignal,
): Promise<WorkspaceDelta> {
  try {
    return await client.workspaceDelta(handoff.workingCopy, {
      baseRef: handoff.sandboxBase,
      exclude: AGENT_SERVER_EXCLUDES,
      signal,
    });
  } catch (error) {
    // a 404 may be a moved agent server, which the locator asks again about: only the base's 400 is said
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    throw new ApiError({
      kind: 'validation',
      status: error.status,
      message: vscode.l10n.t(
        'The sandbox no longer holds the work you handed to this conversation ({0}), so the agent’s changes cannot be told apart from yours.',
        handoff.workingCopy,
      ),
    });
  }
}

export class ConversationChanges implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** A conversation's changes (or their state) changed; fired with its id. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private versions = 0;
  private readonly fileSides: ChangeSides;

  constructor(private readonly deps: ChangesDeps) {
    this.fileSides = new ChangeSides({
      locator: deps.feeds.locator,
      log: deps.log,
      latest: (conversationId) => this.latest(conversationId),
      absoluteDir: (client, conversationId, files) => this.absoluteDir(client, conversationId, files),
      handoffBase: (conversationId) => {
        const handoff = deps.handoffs?.get(conversationId);
        return handoff && { dir: handoff.workingCopy, ref: handoff.sandboxBase };
      },
    });
    this.disposables.push(
      this.changed,
      deps.feeds.onDidAppendEvents(({ conversationId, events }) => {
        if (events.some(mayChangeWorkspace)) this.soon(conversationId);
      }),
      deps.store.onDidChange(() => this.followStatuses()),
    );
  }

  /** Forgets every list (another server: none of them is its). A read in flight is dropped when it lands. */
  clear(): void {
    for (const entry of this.entries.values()) if (entry.timer) clearTimeout(entry.timer);
    const ids = [...this.entries.keys()];
    this.entries.clear();
    for (const id of ids) this.changed.fire(id);
  }

  /** What is known now; `unread` until someone asks (`refresh`). */
  state(conversationId: string): ChangesState {
    return this.entries.get(normalizeUuid(conversationId))?.state ?? { kind: 'unread' };
  }

  /** The last list read, whatever happened since. */
  latest(conversationId: string): ChangeSet | undefined {
    return lastRead(this.state(conversationId));
  }

  /** Reads the list (again); a read already in flight is joined, and followed by one more. */
  refresh(conversationId: string): Promise<ChangesState> {
    const id = normalizeUuid(conversationId);
    const entry = this.entry(id);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.reading) {
      entry.again = true;
      return entry.reading;
    }
    const previous = this.latest(id);
    this.set(id, { kind: 'loading', previous });
    entry.reading = this.read(id, previous).then((state) => {
      entry.reading = undefined;
      // cleared meanwhile (another server): what came back is not this server's
      if (this.entries.get(id) !== entry) return state;
      this.set(id, state);
      if (entry.again) {
        entry.again = false;
        return this.refresh(id);
      }
      return state;
    });
    return entry.reading;
  }

  /** Reads the list unless it was read already (a row expanded, a panel opened). */
  ensure(conversationId: string): Promise<ChangesState> {
    const state = this.state(conversationId);
    const entry = this.entries.get(normalizeUuid(conversationId));
    if (state.kind === 'unread') return this.refresh(conversationId);
    return entry?.reading ?? Promise.resolve(state);
  }

  /**
   * The workspace's absolute folder, when it is certain: the server's (`workspace.working_dir`), or
   * read from the open feed's edits of a listed file (a process sandbox says `"."`). Undefined until
   * the list is read; no request of its own.
   */
  workspaceFolder(conversationId: string): string | undefined {
    const set = this.latest(conversationId);
    if (!set) return undefined;
    set.folder ??= absoluteWorkspaceDir(
      {
        id: set.conversationId,
        execution_status: null,
        title: null,
        workspace: { working_dir: set.workspaceDir },
      },
      this.deps.feeds.openFeed(set.conversationId)?.events.events ?? [],
      set.files.map((file) => file.path),
      false,
    );
    return set.folder;
  }

  /** Both sides of one changed file, for the diff editor. */
  sides(conversationId: string, change: GitChange): Promise<FileSides> {
    return this.fileSides.sides(conversationId, change);
  }

  /** What the conversation was handed when it started from the user's local state, if it was. */
  handoff(conversationId: string): HandoffRecord | undefined {
    return this.deps.handoffs?.get(conversationId);
  }

  /** The whole change as one patch, without the agent server's own files, and the files it covers. */
  async delta(conversationId: string, signal?: AbortSignal): Promise<ConversationDelta> {
    const state = await this.refresh(conversationId);
    const files = state.kind === 'ready' ? state.set.files : (this.latest(conversationId)?.files ?? []);
    const handoff = this.deps.handoffs?.get(conversationId);
    return this.deps.feeds.locator.withAgent(
      conversationId,
      async (client) => {
        if (handoff) return { ...(await handedOverDelta(client, handoff, signal)), files, handoff };
        const dir = await this.absoluteDir(client, conversationId, files, signal);
        if (!dir)
          throw new ApiError({
            kind: 'validation',
            message: vscode.l10n.t("The sandbox does not say where the conversation's workspace is."),
          });
        const delta = await client.workspaceDelta(dir, { exclude: AGENT_SERVER_EXCLUDES, signal });
        return { ...delta, files };
      },
      { signal },
    );
  }

  /** The workspace's absolute directory (`agentWorkspaceDir.ts`), the open feed's events read first. */
  private absoluteDir(
    client: AgentServerClient,
    conversationId: string,
    files: readonly GitChange[],
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const held = this.deps.feeds.openFeed(conversationId)?.events.events ?? [];
    return agentWorkspaceDir(client, held, files, signal);
  }

  private async read(id: string, previous: ChangeSet | undefined): Promise<ChangesState> {
    try {
      const { files, workspaceDir } = await this.deps.feeds.locator.withAgent(id, (client) =>
        this.readList(client, id),
      );
      // the workspace does not move: a folder once known stays
      const folder = previous?.workspaceDir === workspaceDir ? previous.folder : undefined;
      return {
        kind: 'ready',
        set: {
          conversationId: id,
          files,
          workspaceDir,
          version: ++this.versions,
          ...(folder ? { folder } : {}),
        },
      };
    } catch (error) {
      const offline = this.deps.isOffline(error);
      if (!offline)
        this.deps.log.warn(`Reading the changes of conversation ${id} failed: ${messageOf(error)}`);
      return { kind: 'failed', message: messageOf(error), offline, previous };
    }
  }

  /** The changed files and the directory they are relative to, as this agent server says. */
  private async readList(
    client: AgentServerClient,
    id: string,
  ): Promise<{ files: GitChange[]; workspaceDir: string }> {
    const handoff = this.deps.handoffs?.get(id);
    if (handoff) {
      // the working copy the hand-off made, against what it was given: the agent's work alone
      return { files: await this.handedOverChanges(client, handoff), workspaceDir: handoff.workingCopy };
    }
    const entry = this.entries.get(id);
    const baseUrl = client.endpoint.baseUrl;
    let workspaceDir = entry?.workspace?.baseUrl === baseUrl ? entry.workspace.dir : undefined;
    if (workspaceDir === undefined) {
      const info = await client.getConversation();
      workspaceDir = info.workspace?.working_dir || '.';
      if (entry) entry.workspace = { baseUrl, dir: workspaceDir };
    }
    return { files: await this.listChanges(client, id, workspaceDir), workspaceDir };
  }

  /**
   * The changed files; from the whole change's patch when the server cannot name them (1.34 answers
   * 400 for a modified file whose name holds a space, and names a non-ASCII file in git's quoting with
   * its backslashes turned into slashes).
   */
  private async listChanges(
    client: AgentServerClient,
    id: string,
    workspaceDir: string,
  ): Promise<GitChange[]> {
    let why: string;
    try {
      const listed = agentChanges(await client.gitChanges(workspaceDir));
      const quoted = quotedRepositories(listed);
      if (quoted === 'none') return listed;
      if (quoted !== 'top') return await this.withNestedPatches(client, id, listed, quoted);
      why = 'it quotes a name';
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      why = error.message;
    }
    const dir = await this.absoluteDir(client, id, []);
    if (!dir)
      throw new ApiError({
        kind: 'validation',
        message: vscode.l10n.t('The sandbox could not list the changed files.'),
      });
    this.deps.log.info(`The agent server could not list the changes of ${id} (${why}); reading its patch.`);
    const delta = await client.workspaceDelta(dir, { exclude: AGENT_SERVER_EXCLUDES });
    return agentChanges(changesInPatch(delta.patch));
  }

  /**
   * The list with each repository one level down that holds a quoted name read from its own patch (the
   * top level's patch holds a nested repository as one entry, not its files).
   */
  private async withNestedPatches(
    client: AgentServerClient,
    id: string,
    listed: GitChange[],
    prefixes: readonly string[],
  ): Promise<GitChange[]> {
    const dir = await this.absoluteDir(client, id, []);
    if (!dir)
      throw new ApiError({
        kind: 'validation',
        message: vscode.l10n.t('The sandbox could not list the changed files.'),
      });
    this.deps.log.info(
      `The agent server quotes a name in ${prefixes.join(', ')} of ${id}; reading their patches.`,
    );
    let files = listed;
    for (const prefix of prefixes) {
      const delta = await client.workspaceDelta(`${dir.replace(/\/+$/, '')}/${prefix.slice(0, -1)}`, {
        exclude: AGENT_SERVER_EXCLUDES,
      });
      const nested = changesInPatch(delta.patch).map((change) => ({
        ...change,
        path: `${prefix}${change.path}`,
      }));
      files = [...files.filter((change) => !change.path.startsWith(prefix)), ...agentChanges(nested)];
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * The changes of a conversation started from local state, from its patch against the sandbox's
   * commit of the hand-off: `git/changes` diffs the working tree through the sandbox's index, where the
   * handed untracked files are not, so it names each of them twice (deleted and added).
   */
  private async handedOverChanges(client: AgentServerClient, handoff: HandoffRecord): Promise<GitChange[]> {
    return agentChanges(changesInPatch((await handedOverDelta(client, handoff)).patch));
  }

  private soon(conversationId: string): void {
    const id = normalizeUuid(conversationId);
    const entry = this.entries.get(id);
    // nobody has looked at this conversation's changes: nothing to keep fresh
    if (!entry || entry.state.kind === 'unread') return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void this.refresh(id);
    }, REFRESH_DELAY_MS);
  }

  /** The polled list says the agent's status changed (it finished, a sandbox came back): read again. */
  private followStatuses(): void {
    for (const [id, entry] of this.entries) {
      if (entry.state.kind === 'unread') continue;
      const conversation = this.deps.store.findConversation(id);
      if (!conversation) continue;
      const statusKey = `${conversation.execution_status}/${conversation.sandbox_status}`;
      if (entry.statusKey !== undefined && entry.statusKey !== statusKey) this.soon(id);
      entry.statusKey = statusKey;
    }
  }

  private entry(id: string): Entry {
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { state: { kind: 'unread' }, again: false };
      this.entries.set(id, entry);
    }
    return entry;
  }

  private set(id: string, state: ChangesState): void {
    this.entry(id).state = state;
    this.changed.fire(id);
  }

  dispose(): void {
    for (const entry of this.entries.values()) if (entry.timer) clearTimeout(entry.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/**
 * Where the agent server quoted a name (1.34 sends git's C-quoting with its backslashes turned to
 * slashes, `"caf/303/251.txt"`): `none`; `top` when a name of the working folder's own repository is
 * quoted; else the folders (`name/`) of the repositories one level down that hold one.
 */
function quotedRepositories(listed: readonly GitChange[]): 'none' | 'top' | string[] {
  const prefixes = new Set<string>();
  for (const change of listed) {
    const at = change.path.indexOf('"');
    if (at === -1) continue;
    const prefix = change.path.slice(0, at);
    if (!/^[^/"]+\/$/.test(prefix)) return 'top';
    prefixes.add(prefix);
  }
  return prefixes.size === 0 ? 'none' : [...prefixes];
}
