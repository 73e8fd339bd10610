/**
 * Pure: what New Conversation offers when the workspace repository holds work the remote lacks, and
 * whether the server can clone the repository at all (it clones only through a git provider it holds
 * a token for). The words are the command's (`commands/handoffStep.ts`).
 */
import type { RemoteRepository } from './gitRemote';

/** The slice of `changes/localState` the choice reads (the commands import only its type). */
export interface HandoffSituation {
  cleanAndPushed: boolean;
  branch?: string;
  detached: boolean;
  upstream?: { name: string; remote?: string; branch?: string; commit?: string };
  ahead?: number;
}

export type HandoffChoice =
  /** `git push` of the branch to its upstream (no force), then start as today. */
  | { kind: 'push'; branch: string; upstream: string }
  /** The sandbox clones the upstream and receives the commits ahead and the edits. */
  | { kind: 'commits' }
  /** No git provider: the tracked files at HEAD and the edits. */
  | { kind: 'archive' }
  /** Today's behaviour: the sandbox clones the remote's branch, nothing local goes. */
  | { kind: 'remote-only'; upstream?: string }
  /**
   * No git provider: start as before, nothing local goes (the server may still clone a public repository,
   * or the agent starts without it). Never a dead end for a user who does not want to send their code.
   */
  | { kind: 'without-local-work' };

/**
 * The choices, in the order offered; empty when there is nothing to ask (all is on a remote the server
 * can clone from). Without a provider, bringing the repository replaces pushing and bringing changes.
 */
export function handoffChoices(situation: HandoffSituation, hasProvider: boolean): HandoffChoice[] {
  const upstream = situation.upstream;
  const onRemote = upstream?.remote !== undefined && upstream.remote !== '.';
  if (situation.cleanAndPushed && hasProvider) return [];
  const remoteOnly: HandoffChoice[] =
    hasProvider && onRemote ? [{ kind: 'remote-only', upstream: upstream?.name }] : [];
  if (!hasProvider) return [{ kind: 'archive' }, { kind: 'without-local-work' }];
  const choices: HandoffChoice[] = [];
  if (situation.branch && !situation.detached && onRemote && upstream && (situation.ahead ?? 0) > 0) {
    choices.push({ kind: 'push', branch: situation.branch, upstream: upstream.name });
  }
  if (upstream?.commit && onRemote) choices.push({ kind: 'commits' });
  // a branch with no upstream on the provider: the sandbox can only get the whole repository
  else choices.push({ kind: 'archive' });
  return [...choices, ...(remoteOnly.length > 0 ? remoteOnly : [{ kind: 'remote-only' as const }])];
}

/**
 * Whether the server holds a token for the repository's host: `provider_tokens_set` maps a provider to
 * its host (null: the provider's own, github.com…). No remote, or a host no provider names: false.
 */
export function serverHasProvider(
  repository: RemoteRepository | undefined,
  tokensSet: Readonly<Record<string, string | null>> | null | undefined,
): boolean {
  if (!repository || !tokensSet) return false;
  for (const [provider, host] of Object.entries(tokensSet)) {
    if (host === null || host === '') {
      if (provider === repository.provider && isDefaultHost(repository.host)) return true;
    } else if (hostOf(host) === repository.host) {
      return true;
    }
  }
  return false;
}

const DEFAULT_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org']);
const isDefaultHost = (host: string) => DEFAULT_HOSTS.has(host);

/** A host as the settings may write it (`https://git.example.com/`, `git.example.com:8443`). */
function hostOf(written: string): string {
  const trimmed = written.trim().toLowerCase();
  try {
    return new URL(trimmed.includes('://') ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return trimmed;
  }
}
