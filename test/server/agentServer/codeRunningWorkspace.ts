// The code-running preset (`POST /__control/agent/conversations/:id/workspace/runs-code`): a base commit
// and an agent's change that holds files which can run code on the user's machine beside plain ones:
// a VS Code task that runs when the folder opens, a Makefile changed, a new executable git hook and an
// old script made executable (a mode change the change list cannot show), with a source file updated
// and a note added.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import type { Git } from './git/gitCommand';
import { commitPaths, writeWorkspaceFiles } from './workspaceEdits';

export const CODE_RUNNING_BASE = {
  'src/app.ts': "export const greeting = 'Hello';\n",
  'scripts/build.sh': 'echo building\n',
  Makefile: 'all:\n\techo all\n',
};

export const CODE_RUNNING_AGENT = {
  'src/app.ts': "export const greeting = 'Hello, world';\n",
  'notes/plan.md': '# Plan\n\n- greet the world\n',
  '.vscode/tasks.json':
    '{\n  "version": "2.0.0",\n  "tasks": [\n    { "label": "setup", "type": "shell", "command": "./scripts/build.sh", "runOptions": { "runOn": "folderOpen" } }\n  ]\n}\n',
  Makefile: 'all:\n\t./scripts/build.sh\n',
  '.husky/pre-commit': '#!/bin/sh\nmake\n',
};

/** Made executable by the agent: the new hook, and the base's script (its mode alone changes). */
export const CODE_RUNNING_EXECUTABLES = ['.husky/pre-commit', 'scripts/build.sh'];

export async function buildCodeRunningWorkspace(git: Git, dir: string): Promise<void> {
  const base = writeWorkspaceFiles(dir, CODE_RUNNING_BASE);
  await commitPaths(git, dir, base, 'Code-running base', true);
  writeWorkspaceFiles(dir, CODE_RUNNING_AGENT);
  for (const file of CODE_RUNNING_EXECUTABLES) chmodSync(path.join(dir, file), 0o755);
}
