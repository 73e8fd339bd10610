// What 1.11 does in PREPARING_REPOSITORY for a process sandbox (app_conversation_service_base.py
// `clone_or_init_git_repo`, NO_GROUPING, so the working folder is the sandbox's own, `.`):
// `git clone --depth 1 [--branch <branch>] <authenticated url> <name>` there, then `git checkout
// <branch>` (or `-b openhands-workspace-<random>`) in the clone. A repository no provider answers for
// is an exception, so the start task ends in ERROR with its words; a clone or checkout that fails is
// only logged, so the conversation starts without the clone.
//
// Liberty: the provider is a local bare repository. The clone is asked for at the URL the real server
// builds (so the clone's `origin` is that URL), and a `url.<file://bare>.insteadOf` line in the clone's
// own config sends that URL, and the sandbox's later fetches from origin, to the bare repository.
// `file://`, not a plain path, so `--depth 1` makes a shallow clone as over https.
// Liberty: a double that was given no provider repository emulates no provider at all: a start on a
// repository goes on without a clone (as before this file), so the many tests that name a repository
// and do not care about its files need no token. The first repository added turns the 1.11 rules on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Git } from './agentServer/git/gitCommand';
import type { AppConversationStartRequest } from './models';
import { resolveRepository } from './providerRepositories';
import type { ServerState } from './state';

/** `ensure_valid_git_branch_name`'s words. */
export const INVALID_BRANCH =
  "Invalid git branch name. Common GitHub/GitLab/Bitbucket branch names look like 'main', 'feature/foo', or 'release/1.2.3'.";

export interface RepositoryCloneDeps {
  state: ServerState;
  git: Git;
  /** The sandbox's folder, made when missing (the agent server's cwd). */
  sandboxDir: (sandboxId: string) => string;
  /** base62 text for the branch of a start without one (`base62.encodebytes(os.urandom(16))`). */
  randomName: () => string;
}

/** Runs the clone of a start; the ERROR detail when the start must stop, else undefined. */
export async function cloneSelectedRepository(
  deps: RepositoryCloneDeps,
  sandboxId: string,
  request: AppConversationStartRequest,
): Promise<string | undefined> {
  const name = request.selected_repository;
  // init_git_in_empty_workspace: the agent server's own `git init` of its folder stands for it
  if (!name || deps.state.providerRepositories.length === 0) return undefined;
  const resolved = resolveRepository(name, deps.state.providerTokens, deps.state.providerRepositories);
  if (!resolved.ok) return resolved.detail;
  const dirName = name.split('/').pop() ?? name;
  const branch = request.selected_branch;
  const workingDir = deps.sandboxDir(sandboxId);
  if (branch && (await deps.git.run(['check-ref-format', '--branch', branch], workingDir)).code !== 0)
    return INVALID_BRANCH;

  const rewrite = `url.${pathToFileURL(resolved.repository.path).href}.insteadOf=${resolved.url}`;
  const flags = ['--depth', '1', ...(branch ? ['--branch', branch] : [])];
  await deps.git.run(['clone', ...flags, '-c', rewrite, resolved.url, dirName], workingDir);
  const gitDir = path.join(workingDir, dirName);
  // the checkout runs in the clone's folder: with no clone the agent server cannot start it (exit -1)
  if (!existsSync(gitDir)) return undefined;
  const checkout = branch
    ? ['checkout', branch]
    : ['checkout', '-b', `openhands-workspace-${deps.randomName()}`];
  await deps.git.run(checkout, gitDir);
  return undefined;
}
