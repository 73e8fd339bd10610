/**
 * One changed file's two sides for the diff editor, as the agent server has them: text, a picture on
 * each side it has (its base read from the whole change's patch), or why neither can be shown.
 * Plain Node (no vscode import).
 */
import {
  AGENT_SERVER_EXCLUDES,
  ApiError,
  binaryBase,
  checkImageBytes,
  IMAGE_FILE_NAME,
  MAX_IMAGE_BYTES,
  messageOf,
  normalizeUuid,
  workspacePath,
  type AgentServerClient,
  type GitChange,
} from '../api';
import { isStaleAddress } from './agentAddresses';
import type { AgentLocator } from './agentLocator';

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

/** What the sides are read against: the conversation's last list of changes. */
export interface ListedChanges {
  readonly files: readonly GitChange[];
  /** The directory `files` are relative to, as the agent server names it. */
  readonly workspaceDir: string;
  /** Bumped on every read of the list: one version's pictures share one patch. */
  readonly version: number;
}

export interface ChangeSidesDeps {
  locator: Pick<AgentLocator, 'withAgent'>;
  log: { info(message: string): void };
  /** The conversation's last list read, if any. */
  latest(conversationId: string): ListedChanges | undefined;
  /** The workspace's absolute folder on this agent server (`agentWorkspaceDir.ts`). */
  absoluteDir(
    client: AgentServerClient,
    conversationId: string,
    files: readonly GitChange[],
  ): Promise<string | undefined>;
  /**
   * A conversation started from local state: its working copy (absolute) and the sandbox's commit of
   * what was handed over, which every side is read against.
   */
  handoffBase?(conversationId: string): { dir: string; ref: string } | undefined;
}

/** The whole change's patch is read for an image's base: past this it is not (nor held). */
const BASE_PATCH_MAX_BYTES = 32 * 1024 * 1024;

export class ChangeSides {
  /** The last patch read for images' bases: one list version's images share it; only one is held. */
  private basePatch?: { key: string; patch: Promise<Buffer | undefined> };

  constructor(private readonly deps: ChangeSidesDeps) {}

  /** Both sides of one changed file, for the diff editor. */
  async sides(conversationId: string, change: GitChange): Promise<FileSides> {
    try {
      return await this.deps.locator.withAgent(conversationId, (client) =>
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
    const handoff = this.deps.handoffBase?.(conversationId);
    const dir = handoff?.dir ?? this.deps.latest(conversationId)?.workspaceDir ?? '.';
    const bytes = () => this.fileBytes(client, conversationId, dir, change.path, MAX_IMAGE_BYTES);
    try {
      const diff = await client.gitDiff(workspacePath(dir, change.path), { ref: handoff?.ref });
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
    const set = this.deps.latest(conversationId);
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
      const handoff = this.deps.handoffBase?.(conversationId);
      const dir = handoff?.dir ?? (await this.deps.absoluteDir(client, conversationId, files));
      if (!dir) return undefined;
      const delta = await client.workspaceDelta(dir, {
        exclude: AGENT_SERVER_EXCLUDES,
        maxBytes: BASE_PATCH_MAX_BYTES,
        baseRef: handoff?.ref,
      });
      return delta.patch;
    } catch (error) {
      this.deps.log.info(`The base of a changed image could not be read: ${messageOf(error)}`);
      return undefined;
    }
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
        : await this.deps.absoluteDir(client, conversationId, this.deps.latest(conversationId)?.files ?? []);
      if (!absolute) return undefined;
      return await client.downloadFile(workspacePath(absolute, path), { maxBytes });
    } catch {
      return undefined;
    }
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
