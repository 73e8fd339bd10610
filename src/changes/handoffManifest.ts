/**
 * What a hand-off holds: the small manifest a caller shows, sends beside the parts and keeps for Apply.
 * It names files and commits; it never holds a file's bytes.
 */

/** `commits`: the sandbox clones the upstream and gets the commits ahead; `archive`: no git provider. */
export type HandoffKind = 'commits' | 'archive';

/** The fixed name of each part, in the parts folder here and in the sandbox's: never a user's path. */
export type PartName =
  'commits.bundle' | 'head.tar' | 'staged.patch' | 'unstaged.patch' | `untracked-${number}`;

export interface HandoffPart {
  name: PartName;
  /** What it holds, in words. */
  holds: string;
  bytes: number;
  sha256: string;
}

export interface HandedCommit {
  sha: string;
  subject: string;
}

export interface HandedUntrackedFile {
  /** Where it goes, as git spells it. */
  path: string;
  part: PartName;
  /** `link` for a symlink (its part holds the target). */
  type: 'file' | 'executable' | 'link';
  bytes: number;
}

export interface HandoffManifest {
  version: 1;
  kind: HandoffKind;
  /** The user's HEAD. */
  head: string;
  headTree: string;
  /** The branch the sandbox checks out; undefined for a detached HEAD. */
  branch?: string;
  /** `commits` only: the commit the sandbox must have (the upstream's, or where HEAD left it). */
  base?: string;
  upstream?: { name: string; remote?: string; branch?: string; commit: string };
  /** `commits`: the commits ahead of `base`, oldest first, at most `MAX_LISTED_COMMITS`. */
  commits: HandedCommit[];
  commitCount: number;
  /** Files with staged and with unstaged edits (each path once). */
  editedFiles: string[];
  untracked: HandedUntrackedFile[];
  /** Every submodule HEAD records, by the commit it records (an archive holds only their empty folders). */
  submodules: { path: string; commit: string }[];
  /** Submodules whose uncommitted state stays behind (their recorded commits travel with the tree). */
  submodulesLeft: string[];
  /**
   * What Apply takes as the agent's base: the tree the user handed over (HEAD, the edits, the ticked files)
   * and a commit of it made in the user's repository, on top of HEAD, with no ref moved.
   */
  handedOver: { tree: string; commit: string };
  parts: HandoffPart[];
  totalBytes: number;
}

export const MAX_LISTED_COMMITS = 200;

export type HandoffRefusal =
  'not-a-repository' | 'no-commit' | 'no-upstream' | 'conflict' | 'not-untracked' | 'unsafe-path' | 'too-big';

/** A hand-off that was not built: what stands in the way, in words a user reads (never a file's bytes). */
export class HandoffRefusedError extends Error {
  constructor(
    readonly reason: HandoffRefusal,
    message: string,
    /** The file that stands in the way, when one does. */
    readonly path?: string,
  ) {
    super(message);
    this.name = 'HandoffRefusedError';
  }
}

/** A size as people read it: `51.2 MB`, `900 KB`, `12 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
