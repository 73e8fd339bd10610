import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one git call gave back: any exit code (callers decide what a failure means). */
export interface GitOutput {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitRunOptions {
  /** Written to git's stdin (a patch travels here, never on the command line). */
  input?: Buffer;
  /** Added to git's environment (the plan's scratch index). */
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** How much of stderr to keep (a check of thousands of files names each one there). */
  maxStderrBytes?: number;
  signal?: AbortSignal;
}

/** Runs git in `cwd`; the seam tests replace to make git fail part-way. */
export type GitRunner = (cwd: string, args: readonly string[], options?: GitRunOptions) => Promise<GitOutput>;

export type GitFailureKind = 'failed' | 'missing' | 'timeout' | 'aborted' | 'too-much-output';

/** A git call that failed. The message names the command and the start of git's stderr, never stdin. */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly kind: GitFailureKind,
    readonly exitCode: number | undefined,
    readonly stderrHead: string,
  ) {
    super(failureMessage(command, kind, exitCode, stderrHead));
    this.name = 'GitCommandError';
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;
const KILL_GRACE_MS = 2_000;

// The folder we are given decides the repository, whatever the extension host inherited.
const INHERITED_REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

function gitEnvironment(extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_REPOSITORY_VARIABLES) delete env[name];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_PAGER: 'cat',
    // Paths are file names, never globs; and status must not rewrite the index while we only look.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    ...extra,
  };
}

/** The real runner: `git` without a shell, under a deadline, its output capped. */
export const runGit: GitRunner = (cwd, args, options = {}) => {
  const command = describeCommand(args);
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(new GitCommandError(command, 'aborted', undefined, ''));
  return new Promise<GitOutput>((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd,
      env: gitEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let failure: GitFailureKind | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    const stop = (kind: GitFailureKind) => {
      if (failure) return;
      failure = kind;
      child.kill('SIGTERM');
      // SIGTERM lets git remove its lock files; a git that ignores it is ended for good.
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    };
    const deadline = setTimeout(() => stop('timeout'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => stop('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(deadline);
      if (killTimer) clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutput) return stop('too-much-output');
      stdout.push(chunk);
    });
    const maxStderr = options.maxStderrBytes ?? MAX_STDERR_BYTES;
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= maxStderr) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    // git may exit before it read all of stdin (a patch it rejects at once): that is its answer, not ours.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? Buffer.alloc(0));

    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      cleanUp();
      finish();
    };
    const stderrText = () => Buffer.concat(stderr).toString('utf8');
    child.on('error', (error: NodeJS.ErrnoException) => {
      const kind = error.code === 'ENOENT' ? 'missing' : 'failed';
      settle(() => reject(new GitCommandError(command, kind, undefined, error.message)));
    });
    // A stopped git's own children (a hook, an alias) may hold its pipes open: its exit is the answer.
    const stopped = (kind: GitFailureKind) => () =>
      reject(new GitCommandError(command, kind, undefined, stderrText()));
    child.on('exit', () => {
      if (!failure) return;
      settle(stopped(failure));
      child.stdout.destroy();
      child.stderr.destroy();
    });
    child.on('close', (code) => {
      if (failure) return settle(stopped(failure));
      settle(() => resolve({ exitCode: code ?? -1, stdout: Buffer.concat(stdout), stderr: stderrText() }));
    });
  });
};

/** How a caller reaches git: tests pass a runner that fails part-way. */
export interface GitAccess {
  runGit?: GitRunner;
  signal?: AbortSignal;
}

/** git calls in one folder, through one runner, under the caller's signal. */
export interface Git {
  readonly cwd: string;
  /** Any exit code comes back. */
  run(args: readonly string[], options?: GitRunOptions): Promise<GitOutput>;
  /** A non-zero exit throws `GitCommandError`. */
  ok(args: readonly string[], options?: GitRunOptions): Promise<GitOutput>;
}

/**
 * git calls in `cwd` that run nothing the repository or a patch could bring: every call has its hooks
 * folder set to an empty one and fsmonitor off (`-c`), and every filter and merge driver the user
 * configured emptied (a patch's own `.gitattributes` could name one), read once per `Git`.
 */
export function gitIn(cwd: string, runner: GitRunner = runGit, signal?: AbortSignal): Git {
  let drivers: Promise<Record<string, string>> | undefined;
  const run = async (args: readonly string[], options?: GitRunOptions) => {
    const withSignal = signal && !options?.signal ? { ...options, signal } : options;
    const safety = await safetyArguments();
    drivers ??= emptiedDrivers(cwd, runner, safety, signal);
    const env = { ...(await drivers), ...withSignal?.env };
    return runner(cwd, [...safety, ...args], { ...withSignal, env });
  };
  return {
    cwd,
    run,
    async ok(args, options) {
      const output = await run(args, options);
      if (output.exitCode !== 0) throw commandFailed(args, output);
      return output;
    },
  };
}

let emptyHooksFolder: Promise<string> | undefined;

/** `-c` arguments that turn off hooks and fsmonitor: a folder of our own, made empty, is the hooks folder. */
async function safetyArguments(): Promise<string[]> {
  emptyHooksFolder ??= mkdtemp(join(tmpdir(), 'openhands-no-hooks-'));
  const hooks = await emptyHooksFolder.catch(() => join(tmpdir(), 'openhands-no-hooks-missing'));
  return ['-c', `core.hooksPath=${hooks}`, '-c', 'core.fsmonitor=false'];
}

const DRIVER_KEY = /^(filter|merge)\.(.+)\.(clean|smudge|process|driver)$/is;

/**
 * Config for git's environment (GIT_CONFIG_COUNT: a driver's name may hold any character) that empties
 * every configured filter and merge driver: git then runs no program for them.
 */
async function emptiedDrivers(
  cwd: string,
  runner: GitRunner,
  safety: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Record<string, string>> {
  const output = await runner(
    cwd,
    [...safety, 'config', '-z', '--name-only', '--get-regexp', '^(filter|merge)\\.'],
    {
      signal,
    },
  );
  const entries: [string, string][] = [];
  const names = new Set<string>();
  for (const key of output.stdout.toString('utf8').split('\0')) {
    const match = DRIVER_KEY.exec(key);
    if (!match?.[1] || match[2] === undefined) continue;
    const kind = match[1].toLowerCase();
    const name = `${kind}.${match[2]}`;
    if (names.has(name)) continue;
    names.add(name);
    if (kind === 'merge') entries.push([`${name}.driver`, '']);
    else
      entries.push(
        [`${name}.clean`, ''],
        [`${name}.smudge`, ''],
        [`${name}.process`, ''],
        [`${name}.required`, 'false'],
      );
  }
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return entries.length > 0 ? env : {};
}

/** The error for a call that ran and exited non-zero. */
export function commandFailed(args: readonly string[], output: GitOutput): GitCommandError {
  return new GitCommandError(describeCommand(args), 'failed', output.exitCode, output.stderr);
}

/** The first `count` non-empty lines of git's stderr, trimmed. */
export function stderrLines(stderr: string, count: number): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, count);
}

const MAX_COMMAND_CHARS = 300;

/** A call's arguments after the safety options (`-c name=value`) that lead every call `gitIn` makes. */
export function withoutSafetyOptions(args: readonly string[]): readonly string[] {
  let first = 0;
  while (args[first] === '-c') first += 2;
  return args.slice(first);
}

function describeCommand(args: readonly string[]): string {
  // The subcommand, not the safety options, tells the user which call failed.
  const command = ['git', ...withoutSafetyOptions(args)].join(' ');
  return command.length > MAX_COMMAND_CHARS ? `${command.slice(0, MAX_COMMAND_CHARS)}…` : command;
}

function failureMessage(
  command: string,
  kind: GitFailureKind,
  exitCode: number | undefined,
  stderr: string,
): string {
  const detail = stderrLines(stderr, 3).join(' / ');
  switch (kind) {
    case 'missing':
      return `git could not be started (is git installed and on the PATH?): ${command}`;
    case 'timeout':
      return `git took too long and was stopped: ${command}`;
    case 'aborted':
      return `git was cancelled: ${command}`;
    case 'too-much-output':
      return `git gave more output than expected and was stopped: ${command}`;
    case 'failed':
      return `${command} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}${detail ? `: ${detail}` : ''}`;
  }
}
