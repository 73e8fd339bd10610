// A sandbox's work tree and its local clones as the changes tests see them from outside the extension:
// one git runner with a fixed identity (commits need one; the machine may have none), a work tree's
// bytes for "nothing changed" checks, and which files are the agent server's own. Used by the
// integration suite and the e2e steps; written apart from src/ so the tests check the extension's own
// filter rather than reuse it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Runs git in `cwd` and returns its output; throws with git's stderr when it fails. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'OpenHands tests',
      GIT_AUTHOR_EMAIL: 'tests@openhands.invalid',
      GIT_COMMITTER_NAME: 'OpenHands tests',
      GIT_COMMITTER_EMAIL: 'tests@openhands.invalid',
    },
  });
}

/** git's environment apart from the machine's own configuration: no system config, a temporary HOME. */
export const ISOLATED_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

/** Runs git in `cwd` with `ISOLATED_GIT_ENV`; its output as bytes (binary patches, blob ids). */
export function isolatedGit(cwd: string, ...args: string[]): Buffer {
  return execFileSync('git', args, { cwd, env: ISOLATED_GIT_ENV, maxBuffer: 64 * 1024 * 1024 });
}

/** Every file of a work tree (not .git) with its bytes, for "nothing changed" checks. */
export function treeOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(dir, full), fs.readFileSync(full).toString('base64'));
    }
  };
  walk(dir);
  return files;
}

/** The agent server's own files in a process sandbox's folder, which the extension leaves out. */
export function isAgentServerFile(file: string): boolean {
  return (
    file === '.openhands-agent-server.log' ||
    file.startsWith('workspace/bash_events/') ||
    file.startsWith('workspace/conversations/')
  );
}
