/**
 * The agent server's view of its workspace as git sees it: which files the agent changed
 * (`/api/git/changes`), one file's two sides (`/api/git/diff`) and the whole change as one patch
 * (`/api/file/archive?format=git-delta`). Read from agent server 1.34.0 (SDK `git/models.py`,
 * `git_diff.py`, `agent_server/file_router.py`).
 */
import * as z from 'zod/mini';
import '../../zodLocale';
import { nullable } from '../models/common';

export const GIT_CHANGE_STATUSES = ['ADDED', 'DELETED', 'UPDATED', 'MOVED'] as const;
export type GitChangeStatus = (typeof GIT_CHANGE_STATUSES)[number];

const KNOWN_STATUSES: ReadonlySet<string> = new Set(GIT_CHANGE_STATUSES);

export const GitChangeSchema = z.object({
  // a status a newer server adds is shown as a plain change rather than failing the whole list
  status: z.pipe(
    z.string(),
    z.transform((status: string): GitChangeStatus =>
      KNOWN_STATUSES.has(status) ? (status as GitChangeStatus) : 'UPDATED',
    ),
  ),
  /** Repo-relative, POSIX separators. */
  path: z.string().check(z.minLength(1), z.maxLength(4096)),
});
export type GitChange = z.infer<typeof GitChangeSchema>;

export const GitChangesSchema = z.array(GitChangeSchema);

/**
 * Both sides of one file. The server joins the current file's lines with `\n` (no trailing newline)
 * and strips `git show`'s output; `null` for both when the file is in no repository; a binary file
 * reads as `""`.
 */
export const GitDiffSchema = z.object({
  modified: nullable(z.string()),
  original: nullable(z.string()),
});
export type GitDiff = z.infer<typeof GitDiffSchema>;

/** The server's limit for `/api/git/diff` (`MAX_FILE_SIZE_FOR_GIT_DIFF`): larger files answer 400. */
export const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/** The whole change as one binary-safe patch, and the commit it applies to (none: the empty tree). */
export interface WorkspaceDelta {
  patch: Buffer;
  baseCommit?: string;
  /** `auto` unless a base ref was asked for. */
  baseRef?: string;
}
