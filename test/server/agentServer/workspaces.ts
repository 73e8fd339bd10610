// Each sandbox's directory on disk, as a process sandbox (RUNTIME=local) has one: the agent server's
// cwd `<root>/openhands-sandboxes/<sandbox id>`, shared by every conversation of the sandbox, holding
// the agent server's own log and `workspace/conversations/<hex>/…` beside the agent's files, and
// `git init`ed when a conversation starts there (AS event_service.py `_ensure_workspace_is_git_repo`).
// Created on first use under the double's own temporary root; gone with the sandbox, on reset() and
// when the server closes.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dashedUuid } from '../ids';
import { Git } from './git/gitCommand';

export const AGENT_SERVER_LOG = '.openhands-agent-server.log';
/** The agent server's `conversations_path` default (relative to its cwd). */
export const CONVERSATIONS_PATH = 'workspace/conversations';
/** `workspace.working_dir` of a process sandbox's conversations: the agent server's cwd. */
export const PROCESS_WORKING_DIR = '.';

export interface WorkspaceConversation {
  hex: string;
  title: string | null;
  created_at: string;
}

const LOG_TEXT = [
  'INFO:     Started server process',
  'INFO:     Waiting for application startup.',
  'INFO:     Application startup complete.',
  'INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)',
  '',
].join('\n');

/** Relative to the sandbox directory, like the real server's `persistence_dir`. */
export function persistenceDir(conversationHex: string): string {
  return `${CONVERSATIONS_PATH}/${conversationHex}`;
}

export class SandboxWorkspaces {
  /** Nothing exists on disk until a sandbox directory is first needed. */
  readonly root = path.join(realpathSync(tmpdir()), `openhands-double-${randomBytes(6).toString('hex')}`);
  readonly git = new Git(this.sandboxesDir, path.join(this.root, 'git-config'));

  get sandboxesDir(): string {
    return path.join(this.root, 'openhands-sandboxes');
  }

  /** The absolute directory (not created): what `TerminalObservation.metadata.working_dir` shows. */
  sandboxDir(sandboxId: string): string {
    // Ids are plain words; anything else still names one folder inside the root.
    const name = encodeURIComponent(sandboxId).replace(/^\.{1,2}$/, (dots) => dots.replace(/\./g, '%2E'));
    return path.join(this.sandboxesDir, name);
  }

  /** The commands' TMPDIR (not created): the `/tmp` of every sandbox, outside each sandbox's folder. */
  commandTmpDir(): string {
    return path.join(this.root, 'tmp');
  }

  /** A folder for throwaway files (the archive's index), outside every sandbox. */
  scratchDir(): string {
    const dir = path.join(this.root, 'scratch');
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * The agent server's state as it is once these conversations have started: the directory and its
   * log, each conversation's folder, and a repository when there is at least one conversation.
   */
  prepare(sandboxId: string, conversations: readonly WorkspaceConversation[]): string {
    const dir = this.sandboxDir(sandboxId);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, AGENT_SERVER_LOG), LOG_TEXT);
    }
    for (const conversation of conversations) {
      const conversationDir = path.join(dir, persistenceDir(conversation.hex));
      if (existsSync(conversationDir)) continue;
      mkdirSync(conversationDir, { recursive: true });
      const id = dashedUuid(conversation.hex);
      const meta = { id, title: conversation.title, created_at: conversation.created_at };
      writeFileSync(path.join(conversationDir, 'meta.json'), JSON.stringify(meta, null, 2));
      const state = { id, workspace: { working_dir: PROCESS_WORKING_DIR, kind: 'LocalWorkspace' } };
      writeFileSync(path.join(conversationDir, 'base_state.json'), JSON.stringify(state));
    }
    if (conversations.length > 0 && !existsSync(path.join(dir, '.git')))
      this.git.runSync(['init', '-q'], dir);
    return dir;
  }

  /** True for the sandbox directory itself and anything below it. */
  contains(sandboxId: string, target: string): boolean {
    const dir = this.sandboxDir(sandboxId);
    return target === dir || target.startsWith(`${dir}${path.sep}`);
  }

  /** The process sandbox service removes the directory when the sandbox is deleted. */
  remove(sandboxId: string): void {
    rmSync(this.sandboxDir(sandboxId), { recursive: true, force: true });
  }

  /** Every sandbox directory goes (reset: the seeded sandboxes start afresh). */
  clear(): void {
    rmSync(this.sandboxesDir, { recursive: true, force: true });
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
