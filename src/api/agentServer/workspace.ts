/**
 * The agent server's view of its workspace as git sees it: which files the agent changed
 * (`/api/git/changes`), one file's two sides (`/api/git/diff`) and the whole change as one patch
 * (`/api/file/archive?format=git-delta`). Read from agent server 1.34.0 (SDK `git/models.py`,
 * `git_diff.py`, `agent_server/file_router.py`).
 */
import * as z from 'zod/mini';
import '../../zodLocale';
import { nullable } from '../models/common';
import { isRecord } from '../records';
import { isStatusUpdate, type AgentEvent, type ConversationInfo } from './events';

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

/**
 * What a process sandbox's agent server keeps in its own working directory, the same one the agent
 * works in: its log, the bash routes' events and the conversations' state. Never the agent's change.
 */
const AGENT_SERVER_FILE = '.openhands-agent-server.log';
const AGENT_SERVER_FOLDERS = ['workspace/bash_events/', 'workspace/conversations/'] as const;

export function isAgentServerFile(path: string): boolean {
  return path === AGENT_SERVER_FILE || AGENT_SERVER_FOLDERS.some((folder) => path.startsWith(folder));
}

/** The same files as `exclude` patterns of `/api/file/archive` (a bare name matches at any depth there). */
export const AGENT_SERVER_EXCLUDES: readonly string[] = [AGENT_SERVER_FILE, ...AGENT_SERVER_FOLDERS];

/** The agent's changes only, in the server's order. */
export function agentChanges(changes: readonly GitChange[]): GitChange[] {
  return changes.filter((change) => !isAgentServerFile(change.path));
}

const WORKSPACE_TOOLS = new Set(['file_editor', 'str_replace_editor', 'terminal', 'execute_bash', 'bash']);
const WORKSPACE_OBSERVATIONS = new Set([
  'FileEditorObservation',
  'TerminalObservation',
  'ExecuteBashObservation',
]);
const SETTLED_STATUSES = new Set([
  'finished',
  'idle',
  'paused',
  'error',
  'stuck',
  'waiting_for_confirmation',
]);

/**
 * Whether an event may mean the workspace changed: a file edit or a command came back, or the agent
 * stopped working (finished, paused…). What it did in between shows with the next one.
 */
export function mayChangeWorkspace(event: AgentEvent): boolean {
  if (event.kind === 'ObservationEvent') {
    const kind = observationOf(event)?.['kind'];
    const tool = event['tool_name'];
    return (
      (typeof kind === 'string' && WORKSPACE_OBSERVATIONS.has(kind)) ||
      (typeof tool === 'string' && WORKSPACE_TOOLS.has(tool))
    );
  }
  return isStatusUpdate(event) && typeof event['value'] === 'string' && SETTLED_STATUSES.has(event['value']);
}

const POSIX_ABSOLUTE = /^\//;

function observationOf(event: AgentEvent): Record<string, unknown> | undefined {
  const observation = event['observation'];
  return isRecord(observation) ? observation : undefined;
}

/**
 * The workspace's absolute directory (the archive and download routes take nothing else). Docker and
 * hosted sandboxes name it in `workspace.working_dir`; a process sandbox says `"."` (its state's
 * `persistence_dir` is relative too), so it is read from what the agent did there: a file it edited
 * that the change lists (its absolute path ends with the listed one), else the directory its first
 * command ran in.
 */
export function absoluteWorkspaceDir(
  info: ConversationInfo,
  events: readonly AgentEvent[],
  changedPaths: readonly string[] = [],
  /** False: only what is certain (the server's folder, an edit the change lists), not a command's folder. */
  fromCommands = true,
): string | undefined {
  const workingDir = info.workspace?.working_dir;
  if (workingDir && POSIX_ABSOLUTE.test(workingDir)) return workingDir.replace(/\/+$/, '') || '/';
  const listed = new Set(changedPaths);
  let firstCommandDir: string | undefined;
  for (const event of events) {
    const observation = observationOf(event);
    if (!observation) continue;
    const path = observation['path'];
    if (typeof path === 'string' && POSIX_ABSOLUTE.test(path)) {
      for (let slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1))
        if (listed.has(path.slice(slash + 1))) return path.slice(0, slash) || '/';
    }
    const metadata = observation['metadata'];
    if (firstCommandDir === undefined && isRecord(metadata)) {
      const dir = metadata['working_dir'];
      if (typeof dir === 'string' && POSIX_ABSOLUTE.test(dir)) firstCommandDir = dir;
    }
  }
  return fromCommands ? firstCommandDir : undefined;
}

/**
 * A path as the user knows it: relative to the workspace folder (`src/app.ts`) when it is inside it;
 * anything else (no folder known, a relative path, a path outside the folder) stays as it is.
 */
export function relativeToWorkspace(path: string, folder: string | undefined): string {
  if (!folder || !POSIX_ABSOLUTE.test(path) || !POSIX_ABSOLUTE.test(folder)) return path;
  const root = folder.replace(/\/+$/, '');
  const inside = path.startsWith(`${root}/`) ? path.slice(root.length + 1).replace(/^\/+/, '') : '';
  return inside || path;
}

/** Where a file of the change is, as the server resolves it (`dir` may be relative: `"."`). */
export function workspacePath(dir: string, path: string): string {
  if (dir === '' || dir === '.') return path;
  return `${dir.replace(/\/+$/, '')}/${path}`;
}
