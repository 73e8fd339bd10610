// Real git, run as the agent server runs it (SDK git/utils.py `run_git_command`: text mode, stdout
// stripped, a non-zero exit is a GitCommandError naming the command), in an environment cut off from
// the developer's git: no global or system config, no GIT_* variables (a test run inside a git hook
// would otherwise act on the project's own repository) and no repository discovery above the
// sandboxes' folder.
import { execFile, execFileSync } from 'node:child_process';
import { devNull } from 'node:os';
import { pyShellJoin, pyStrip } from '../pyText';
import { decodeUtf8Strictly } from '../pyUtf8';

/** SDK git/exceptions.py: the router maps GitError to 400, except GitRepositoryError (empty answers). */
export class GitError extends Error {}
export class GitRepositoryError extends GitError {}
export class GitPathError extends GitError {}
export class GitCommandError extends GitError {
  constructor(
    message: string,
    readonly command: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
}

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;
const COMMAND_TIMEOUT_MS = 30_000;

/** `redact_url_credentials`: `https://user:token@host` → `https://****@host` in error messages. */
function redact(arg: string): string {
  return arg.replace(/^(https?:\/\/)[^@/]+@(.+)$/, '$1****@$2');
}

/** `subprocess.run(text=True)`: strict UTF-8, then universal newlines. */
function pythonText(bytes: Buffer): string {
  return decodeUtf8Strictly(bytes).replace(/\r\n?/g, '\n');
}

export class Git {
  readonly env: NodeJS.ProcessEnv;

  /**
   * `ceiling`: git never looks for a repository in it or above it. `configHome`: an empty
   * XDG_CONFIG_HOME, so no global excludes or attributes apply.
   */
  constructor(ceiling: string, configHome: string) {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')),
    );
    this.env = {
      ...inherited,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: devNull,
      GIT_CEILING_DIRECTORIES: ceiling,
      GIT_TERMINAL_PROMPT: '0',
      XDG_CONFIG_HOME: configHome,
      LC_ALL: 'C',
    };
  }

  /** Any git command; never throws for a non-zero exit. `args` without the leading "git". */
  run(args: readonly string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        args,
        {
          cwd,
          env: { ...this.env, ...extraEnv },
          encoding: 'buffer',
          maxBuffer: MAX_OUTPUT_BYTES,
          timeout: COMMAND_TIMEOUT_MS,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code, stdout, stderr });
        },
      );
    });
  }

  /** For the double's own set-up (git init when a conversation starts): throws on failure. */
  runSync(args: readonly string[], cwd: string): string {
    return execFileSync('git', args, { cwd, env: this.env, encoding: 'utf8', stdio: 'pipe' });
  }

  /** `run_git_command(args, cwd)`: `args` start with "git", as in the SDK. */
  async command(args: readonly string[], cwd: string): Promise<string> {
    const redacted = args.map(redact);
    let result: GitResult;
    try {
      result = await this.run(args.slice(1), cwd);
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { killed?: boolean };
      if (failure.killed) {
        throw new GitCommandError(
          `Git command timed out: ${pyShellJoin(redacted)}`,
          redacted,
          -1,
          'Command timed out',
        );
      }
      throw new GitCommandError(
        'Git command not found. Is git installed?',
        redacted,
        -1,
        'Git executable not found',
      );
    }
    // Python decodes both streams before it looks at the exit code.
    const stdout = pythonText(result.stdout);
    const stderr = pythonText(result.stderr);
    if (result.code !== 0) {
      throw new GitCommandError(
        `Git command failed: ${pyShellJoin(redacted)}`,
        redacted,
        result.code,
        pyStrip(stderr),
      );
    }
    return pyStrip(stdout);
  }
}
