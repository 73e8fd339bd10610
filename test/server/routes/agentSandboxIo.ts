// The agent server's upload and command routes (AS file_router.py `upload_file_query`, bash_router.py
// `execute_bash_command`, bash_service.py 1.34.0). The real one runs the command with
// `asyncio.create_subprocess_shell` (`/bin/sh -c`) in `cwd`, so the double does too, in the sandbox
// directory. Liberties, so the double never touches the host's other files: an upload outside the
// double's root is refused (500, as a write the server cannot make), and commands get a TMPDIR inside
// that root (so `mktemp -d` gives a folder the upload may write into).
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { lastValue } from '../query';
import type { Route, RouteRequest } from '../route';
import { issue, type ValidationIssue } from '../validation';

/** bash_service.py `MAX_CONTENT_CHAR_LENGTH`: output past it is split into earlier events. */
const MAX_CONTENT_CHAR_LENGTH = 1024 * 1024;

function apiPath(rest: string): RegExp {
  return new RegExp(`^/__sandboxes/(?<sandboxId>[^/]+)/agent-server/api${rest}$`);
}

function sandboxDir(request: RouteRequest, context: ServerContext): string {
  return context.agent.prepareSandbox(request.params['sandboxId'] ?? '');
}

function insideRoot(context: ServerContext, target: string): boolean {
  const root = context.agent.workspaces.root;
  return target.startsWith(`${root}${path.sep}`);
}

/** The one file part named `field` of a multipart body, as Starlette's parser reads it. */
function formFile(raw: Buffer, contentType: string | undefined, field: string): Buffer | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = raw.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length + 2;
    const next = raw.indexOf(delimiter, start);
    if (next === -1) return undefined;
    const part = raw.subarray(start, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, headEnd).toString('utf8');
    if (headEnd !== -1 && new RegExp(`name="${field}"`).test(head)) return part.subarray(headEnd + 4);
    at = next;
  }
  return undefined;
}

function upload(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const target = lastValue(request.query, 'path');
  if (target === undefined) issues.push(issue('missing', ['query', 'path'], 'Field required', null));
  const file = formFile(request.raw ?? Buffer.alloc(0), request.headers['content-type'], 'file');
  if (file === undefined) issues.push(issue('missing', ['body', 'file'], 'Field required', null));
  if (target === undefined || file === undefined) return validationFailed(issues);
  if (!path.isAbsolute(target)) return json({ detail: 'Path must be absolute' }, 400);
  sandboxDir(request, context);
  const resolved = path.resolve(target);
  if (!insideRoot(context, resolved)) {
    return json({ detail: `Failed to upload file: [Errno 13] Permission denied: '${target}'` }, 500);
  }
  try {
    mkdirSync(path.dirname(resolved), { recursive: true });
    writeFileSync(resolved, file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return json({ detail: `Failed to upload file: ${message}` }, 500);
  }
  return json({ success: true });
}

interface BashRequest {
  command: string;
  cwd: string | null;
  timeout: number;
}

function bashRequest(body: RouteRequest['body']): BashRequest | ValidationIssue[] {
  if (body.kind !== 'json' || typeof body.value !== 'object' || body.value === null) {
    return [issue('missing', ['body'], 'Field required', null)];
  }
  const value = body.value as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (typeof value['command'] !== 'string') {
    issues.push(
      issue('string_type', ['body', 'command'], 'Input should be a valid string', value['command']),
    );
  }
  const cwd = value['cwd'] ?? null;
  if (cwd !== null && typeof cwd !== 'string') {
    issues.push(issue('string_type', ['body', 'cwd'], 'Input should be a valid string', cwd));
  }
  const timeout = value['timeout'] ?? 300;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout)) {
    issues.push(issue('int_type', ['body', 'timeout'], 'Input should be a valid integer', timeout));
  }
  if (issues.length > 0) return issues;
  return { command: value['command'] as string, cwd: cwd as string | null, timeout: timeout as number };
}

async function executeBash(request: RouteRequest, context: ServerContext): Promise<Reply> {
  const parsed = bashRequest(request.body);
  if (Array.isArray(parsed)) return validationFailed(parsed);
  const dir = sandboxDir(request, context);
  const tmp = context.agent.workspaces.commandTmpDir();
  mkdirSync(tmp, { recursive: true });
  const commandId = randomUUID();
  const outcome = await runShell(parsed, path.resolve(dir, parsed.cwd ?? '.'), tmp);
  // Only the last piece comes back, as on the real server.
  const tail = (text: string) =>
    text.length === 0
      ? null
      : text.slice(Math.floor((text.length - 1) / MAX_CONTENT_CHAR_LENGTH) * MAX_CONTENT_CHAR_LENGTH);
  return json({
    kind: 'BashOutput',
    id: randomUUID(),
    timestamp: new Date(context.clock.now()).toISOString(),
    command_id: commandId,
    order: 0,
    exit_code: outcome.exitCode,
    stdout: tail(outcome.stdout),
    stderr: tail(outcome.stderr),
  });
}

function runShell(
  request: BashRequest,
  cwd: string,
  tmp: string,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', request.command], {
      cwd,
      env: { ...process.env, TMPDIR: tmp },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, request.timeout * 1000);
    const done = (exitCode: number, error?: string) => {
      clearTimeout(timer);
      resolve({
        exitCode: timedOut ? -1 : exitCode,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: error ?? Buffer.concat(stderr).toString('utf8'),
      });
    };
    child.on('error', (error) => done(-1, `Error executing command: ${error.message}`));
    child.on('close', (code) => done(code ?? -1));
  });
}

export const agentSandboxIoRoutes: Route[] = [
  { method: 'POST', pattern: apiPath('/file/upload'), handle: upload },
  { method: 'POST', pattern: apiPath('/bash/execute_bash_command'), readsBody: true, handle: executeBash },
];
