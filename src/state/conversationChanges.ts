/**
 * What the agent changed in its workspace, per conversation: the list of changed files (read when
 * someone looks, and again when the agent edits a file, runs a command or stops; never polled), one
 * file's two sides for the diff editor, and the whole change as one patch.
 */
import * as vscode from 'vscode';
import {
  AGENT_SERVER_EXCLUDES,
  absoluteWorkspaceDir,
  agentChanges,
  ApiError,
  binaryBase,
  changesInPatch,
  checkImageBytes,
  IMAGE_FILE_NAME,
  MAX_IMAGE_BYTES,
  type AgentServerClient,
  type GitChange,
  mayChangeWorkspace,
  messageOf,
  normalizeUuid,
  type WorkspaceDelta,
  workspacePath,
} from '../api';
import type { Log } from '../core/log';
import { isStaleAddress } from './agentAddresses';
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

/** One file's two sides, or why they cannot be shown as text. */
export type FileSides =
  /** `notImage`: a file named as a picture whose bytes are not one (an SVG, text), and why. */
  | { kind: 'text'; original: string; modified: string; notImage?: string }
  /**
   * A PNG, JPEG, GIF or WebP by its bytes on every side it has: no `original` for an added file (or a
   * base that could not be read), no `modified` for a deleted one.
   */
  | { kind: 'image'; original?: Buffer; modified?: Buffer }
  | { kind: 'deleted' }
  | { kind: 'binary'; notImage?: string }
  | { kind: 'tooLarge' }
  | { kind: 'unavailable'; message: string };

export interface ConversationDelta extends WorkspaceDelta {
  files: readonly GitChange[];
}

export interface ChangesDeps {
  store: OpenHandsStore;
  feeds: ConversationFeeds;
  log: Log;
  /** Whether a failure to locate the agent server means the sandbox is not running (rather than an error). */
  isOffline(error: unknown): boolean;
}

/** The whole change's patch is read for an image's base: past this it is not (nor held). */
const BASE_PATCH_MAX_BYTES = 32 * 1024 * 1024;

/** How far into a conversation's stored events its workspace is looked for (its first command, edit). */
const STORED_PAGES_SEARCHED = 5;
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

export class ConversationChanges implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** A conversation's changes (or their state) changed; fired with its id. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private versions = 0;
  /** The last patch read for images' bases: one list version's images share it; only one is held. */
  private basePatch?: { key: string; patch: Promise<Buffer | undefined> };

  constructor(private readonly deps: ChangesDeps) {
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
  async sides(conversationId: string, change: GitChange): Promise<FileSides> {
    try {
      return await this.deps.feeds.locator.withAgent(conversationId, (client) =>
        this.sidesFrom(client, conversationId, change),
      );
    } catch (error) {
      if (change.status === 'DELETED') return { kind: 'deleted' };
      return { kind: 'unavailable', message: messageOf(error) };
    }
  }

  /** Both sides as this agent server has them; a moved or gone server is thrown, for the locator. */
  private async sidesFrom(
    client: AgentServerClient,
    conversationId: string,
    change: GitChange,
  ): Promise<FileSides> {
    if (change.status === 'DELETED') return this.deletedSides(client, conversationId, change.path);
    const dir = this.latest(conversationId)?.workspaceDir ?? '.';
    const bytes = () => this.fileBytes(client, conversationId, dir, change.path, MAX_IMAGE_BYTES);
    try {
      const diff = await client.gitDiff(workspacePath(dir, change.path));
      const modified = diff.modified ?? '';
      // a binary file reads as "": only its bytes tell it from an emptied one
      if (modified === '') {
        const read = await bytes();
        if (read && looksBinary(read)) return this.binarySides(client, conversationId, change, read);
      }
      return { kind: 'text', original: diff.original ?? '', modified, ...notAnImage(change.path, modified) };
    } catch (error) {
      if (isStaleAddress(error)) throw error;
      if (error instanceof ApiError && error.status === 400 && /too large/i.test(error.message)) {
        // the diff route stops at 1 MiB; a picture may be larger
        const read = IMAGE_FILE_NAME.test(change.path) ? await bytes() : undefined;
        if (read && checkImageBytes(read).ok) return this.binarySides(client, conversationId, change, read);
        return { kind: 'tooLarge' };
      }
      if (error instanceof ApiError && error.status === 400 && /does not exist/i.test(error.message))
        return { kind: 'deleted' };
      // 1.34 fails with a 500 on a binary file's base (it decodes git's output as text)
      if (error instanceof ApiError && error.status === 500) {
        const read = await bytes();
        if (read && looksBinary(read)) return this.binarySides(client, conversationId, change, read);
      }
      return { kind: 'unavailable', message: messageOf(error) };
    }
  }

  /** A binary file: a picture on each side it has, when its bytes are one; else binary. */
  private async binarySides(
    client: AgentServerClient,
    conversationId: string,
    change: GitChange,
    bytes: Buffer,
  ): Promise<FileSides> {
    const check = checkImageBytes(bytes);
    if (!check.ok)
      return IMAGE_FILE_NAME.test(change.path)
        ? { kind: 'binary', notImage: check.reason }
        : { kind: 'binary' };
    if (change.status === 'ADDED') return { kind: 'image', modified: bytes };
    const original = await this.imageBase(client, conversationId, change.path, bytes);
    return original ? { kind: 'image', original, modified: bytes } : { kind: 'image', modified: bytes };
  }

  /** A deleted picture shows what it was; any other deleted file just says so. */
  private async deletedSides(
    client: AgentServerClient,
    conversationId: string,
    path: string,
  ): Promise<FileSides> {
    if (!IMAGE_FILE_NAME.test(path)) return { kind: 'deleted' };
    const original = await this.imageBase(client, conversationId, path, Buffer.alloc(0));
    return original ? { kind: 'image', original } : { kind: 'deleted' };
  }

  /** The base of a changed image, from the whole change's patch; undefined when it is no image. */
  private async imageBase(
    client: AgentServerClient,
    conversationId: string,
    path: string,
    current: Buffer,
  ): Promise<Buffer | undefined> {
    const set = this.latest(conversationId);
    const key = `${normalizeUuid(conversationId)}\u0000${set?.version ?? 0}`;
    if (this.basePatch?.key !== key) {
      const patch = this.readBasePatch(client, conversationId, set?.files ?? []);
      this.basePatch = { key, patch };
      // a failed read is tried again by the next image
      void patch.then((read) => {
        if (!read && this.basePatch?.patch === patch) this.basePatch = undefined;
      });
    }
    const patch = await this.basePatch.patch;
    const base = patch && binaryBase(patch, path, current, MAX_IMAGE_BYTES);
    return base && checkImageBytes(base).ok ? base : undefined;
  }

  private async readBasePatch(
    client: AgentServerClient,
    conversationId: string,
    files: readonly GitChange[],
  ): Promise<Buffer | undefined> {
    try {
      const dir = await this.absoluteDir(client, conversationId, files);
      if (!dir) return undefined;
      const delta = await client.workspaceDelta(dir, {
        exclude: AGENT_SERVER_EXCLUDES,
        maxBytes: BASE_PATCH_MAX_BYTES,
      });
      return delta.patch;
    } catch (error) {
      this.deps.log.info(`The base of a changed image could not be read: ${messageOf(error)}`);
      return undefined;
    }
  }

  /** The whole change as one patch, without the agent server's own files, and the files it covers. */
  async delta(conversationId: string, signal?: AbortSignal): Promise<ConversationDelta> {
    const state = await this.refresh(conversationId);
    const files = state.kind === 'ready' ? state.set.files : (this.latest(conversationId)?.files ?? []);
    return this.deps.feeds.locator.withAgent(
      conversationId,
      async (client) => {
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

  /**
   * The workspace's absolute directory: named by the server, or read from the agent's events (the
   * open feed's, else the first stored pages).
   */
  private async absoluteDir(
    client: AgentServerClient,
    conversationId: string,
    files: readonly GitChange[],
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const info = await client.getConversation({ signal });
    const paths = files.map((file) => file.path);
    const held = this.deps.feeds.openFeed(conversationId)?.events.events ?? [];
    const fromFeed = absoluteWorkspaceDir(info, held, paths);
    if (fromFeed) return fromFeed;
    let pageId: string | undefined;
    for (let page = 0; page < STORED_PAGES_SEARCHED; page++) {
      const read = await client.searchEvents({ pageId, limit: 100 }, { signal });
      const found = absoluteWorkspaceDir(info, read.items, paths);
      if (found) return found;
      if (!read.next_page_id) return undefined;
      pageId = read.next_page_id;
    }
    return undefined;
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
      if (!listed.some((change) => change.path.startsWith('"'))) return listed;
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

  /** The file's bytes as the agent left them, up to `maxBytes`; undefined when they cannot be read. */
  private async fileBytes(
    client: AgentServerClient,
    conversationId: string,
    dir: string,
    path: string,
    maxBytes: number,
  ): Promise<Buffer | undefined> {
    try {
      const absolute = dir.startsWith('/')
        ? dir
        : await this.absoluteDir(client, conversationId, this.latest(conversationId)?.files ?? []);
      if (!absolute) return undefined;
      return await client.downloadFile(workspacePath(absolute, path), { maxBytes });
    } catch {
      return undefined;
    }
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

/** A text file named as a picture says why it is not shown as one (an SVG can carry script). */
function notAnImage(path: string, text: string): { notImage?: string } {
  if (!IMAGE_FILE_NAME.test(path)) return {};
  const check = checkImageBytes(Buffer.from(text, 'utf8'));
  return check.ok ? {} : { notImage: check.reason };
}

/** Git's own test: a NUL in the first 8000 bytes; plus text that is not valid UTF-8. */
export function looksBinary(bytes: Buffer): boolean {
  if (bytes.subarray(0, 8000).includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}
