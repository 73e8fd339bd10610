// The agent server's git and file routes (AS git_router.py, file_router.py 1.34.0) on the sandbox's
// directory, with real git. Relative paths resolve against the agent server's cwd, the sandbox
// directory. One liberty: a path outside that directory is treated as missing (the double never
// reads or lists the host's other files), so it answers [] / 400 "File does not exist" / 404.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentServer } from '../agentServer/agentServer';
import { GitError, GitCommandError, GitRepositoryError } from '../agentServer/git/gitCommand';
import { getGitChanges, wireChanges } from '../agentServer/git/gitChanges';
import {
  ArchiveRequestError,
  createGitDelta,
  DEFAULT_ARCHIVE_EXCLUDES,
  resolveGitRepoRoot,
} from '../agentServer/git/gitDelta';
import { getGitDiff } from '../agentServer/git/gitDiff';
import { pyExists, pyIsDir, pyIsFile, pyResolve } from '../agentServer/pyPath';
import { PyUnicodeDecodeError } from '../agentServer/pyUtf8';
import type { ServerContext } from '../context';
import { fileResponse } from '../fileResponse';
import { agentServerError, json, validationFailed, type Reply } from '../http';
import { lastValue } from '../query';
import type { Route, RouteRequest } from '../route';
import { bool, INVALID, issue, literal, type ValidationIssue } from '../validation';

const ARCHIVE_FORMATS = ['git-delta', 'tar.gz'] as const;

const detail = (message: string, status: number): Reply => json({ detail: message }, status);

/** An HTTPException with a 5xx status: the agent server hides the detail in `exception`. */
const httpServerError = (message: string): Reply =>
  json({ detail: 'Internal Server Error', exception: `500: ${message}` }, 500);

/** `path: str = Query(...)`: the last value, or a `missing` issue. */
function requiredPath(request: RouteRequest, issues: ValidationIssue[]): string | typeof INVALID {
  const value = lastValue(request.query, 'path');
  if (value !== undefined) return value;
  issues.push(issue('missing', ['query', 'path'], 'Field required', null));
  return INVALID;
}

interface Sandbox {
  agent: AgentServer;
  id: string;
  /** The agent server's cwd (created and prepared on first use). */
  dir: string;
}

function sandboxOf(request: RouteRequest, context: ServerContext): Sandbox {
  const id = request.params['sandboxId'] ?? '';
  return { agent: context.agent, id, dir: context.agent.prepareSandbox(id) };
}

const inside = (sandbox: Sandbox, target: string): boolean =>
  sandbox.agent.workspaces.contains(sandbox.id, pyResolve(target));

/** What the routes leave uncaught (a binary `git show` in text mode) is the generic 500. */
function uncaught(error: unknown): Reply {
  if (error instanceof PyUnicodeDecodeError) return agentServerError(error.message);
  throw error;
}

async function gitChanges(request: RouteRequest, context: ServerContext): Promise<Reply> {
  const issues: ValidationIssue[] = [];
  const requested = requiredPath(request, issues);
  if (requested === INVALID) return validationFailed(issues);
  const sandbox = sandboxOf(request, context);
  const target = path.resolve(sandbox.dir, requested);
  if (!inside(sandbox, target)) return json([]);
  try {
    const changes = await getGitChanges(
      sandbox.agent.workspaces.git,
      target,
      lastValue(request.query, 'ref'),
    );
    return json(wireChanges(changes));
  } catch (error) {
    // Not a repository: no changes. Any other git failure: 400 with its message.
    if (error instanceof GitRepositoryError) return json([]);
    if (error instanceof GitError) return detail(error.message, 400);
    return uncaught(error);
  }
}

async function gitDiff(request: RouteRequest, context: ServerContext): Promise<Reply> {
  const issues: ValidationIssue[] = [];
  const requested = requiredPath(request, issues);
  if (requested === INVALID) return validationFailed(issues);
  const sandbox = sandboxOf(request, context);
  const file = path.resolve(sandbox.dir, requested);
  if (!inside(sandbox, file)) return detail(`File does not exist: ${pyResolve(file)}`, 400);
  try {
    return json(await getGitDiff(sandbox.agent.workspaces.git, file, lastValue(request.query, 'ref')));
  } catch (error) {
    if (error instanceof GitRepositoryError) return json({ modified: null, original: null });
    if (error instanceof GitError) return detail(error.message, 400);
    return uncaught(error);
  }
}

function facts(file: string): { mtimeNs: bigint; size: number } {
  const stat = statSync(file, { bigint: true });
  return { mtimeNs: stat.mtimeNs, size: Number(stat.size) };
}

function download(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const requested = requiredPath(request, issues);
  if (requested === INVALID) return validationFailed(issues);
  if (!path.isAbsolute(requested)) return detail('Path must be absolute', 400);
  const sandbox = sandboxOf(request, context);
  // the commands' TMPDIR (agentSandboxIo.ts) is the sandbox's /tmp: readable as on a real server
  const scratch = sandbox.agent.workspaces.commandTmpDir();
  const readable = inside(sandbox, requested) || pyResolve(requested).startsWith(`${scratch}${path.sep}`);
  if (!readable || !pyExists(requested)) return detail('File not found', 404);
  if (!pyIsFile(requested)) return detail('Path is not a file', 400);
  return fileResponse(
    readFileSync(requested),
    path.basename(requested),
    'application/octet-stream',
    facts(requested),
  );
}

async function archive(request: RouteRequest, context: ServerContext): Promise<Reply> {
  const issues: ValidationIssue[] = [];
  const requested = requiredPath(request, issues);
  const rawFormat = lastValue(request.query, 'format');
  const format =
    rawFormat === undefined ? 'git-delta' : literal(ARCHIVE_FORMATS)(rawFormat, ['query', 'format'], issues);
  const baseRef = lastValue(request.query, 'base_ref') ?? null;
  const rawDefaults = lastValue(request.query, 'use_default_excludes');
  const useDefaults =
    rawDefaults === undefined ? true : bool()(rawDefaults, ['query', 'use_default_excludes'], issues);
  if (requested === INVALID || format === INVALID || useDefaults === INVALID) return validationFailed(issues);

  if (!path.isAbsolute(requested)) return detail('Path must be absolute', 400);
  const sandbox = sandboxOf(request, context);
  if (!inside(sandbox, requested) || !pyExists(requested)) return detail('Directory not found', 404);
  if (!pyIsDir(requested)) return detail('Path is not a directory', 400);
  if (baseRef?.startsWith('-')) return detail("base_ref must not start with '-'", 400);
  if (format === 'tar.gz') return detail('format=tar.gz is not emulated by the test double', 501);

  const excludes = [...(useDefaults ? DEFAULT_ARCHIVE_EXCLUDES : []), ...(request.query['exclude'] ?? [])];
  const repoRoot = resolveGitRepoRoot(pyResolve(requested));
  const { git } = sandbox.agent.workspaces;
  try {
    const delta = await createGitDelta(
      git,
      repoRoot,
      baseRef,
      excludes,
      sandbox.agent.workspaces.scratchDir(),
    );
    // A commit base makes the patch self-describing; the empty tree gives no headers.
    const headers: Record<string, string> = delta.baseCommit
      ? { 'x-archive-base-commit': delta.baseCommit, 'x-archive-base-ref': baseRef || 'auto' }
      : {};
    const now = BigInt(Date.now()) * 1_000_000n;
    return fileResponse(
      delta.patch,
      `${path.basename(repoRoot)}.patch`,
      'text/x-patch',
      { mtimeNs: now, size: delta.patch.length },
      headers,
    );
  } catch (error) {
    if (error instanceof GitRepositoryError) return detail(`Not a git repository: ${error.message}`, 400);
    if (error instanceof ArchiveRequestError) return detail(error.message, 400);
    if (error instanceof GitCommandError)
      return httpServerError(`Failed to generate git delta: ${error.message}`);
    return httpServerError(
      `Failed to archive directory: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function apiPath(rest: string): RegExp {
  return new RegExp(`^/__sandboxes/(?<sandboxId>[^/]+)/agent-server/api${rest}$`);
}

export const agentFileRoutes: Route[] = [
  { method: 'GET', pattern: apiPath('/git/changes'), handle: gitChanges },
  { method: 'GET', pattern: apiPath('/git/diff'), handle: gitDiff },
  { method: 'GET', pattern: apiPath('/file/download'), handle: download },
  { method: 'GET', pattern: apiPath('/file/archive'), handle: archive },
];
