/**
 * The agent's branch and pull requests as the app server lists them (`selected_branch`, `pr_number`),
 * with each PR's web address on its provider. Pure: no vscode, unit-tested. Every value here comes
 * from the server (and the agent wrote the PR numbers through its tools): a link is made only from a
 * repository, host and number of a shape a provider gives, else the PR is named without one.
 */
import type { AppConversation } from '../api';

/** `provider_tokens_set` of the settings: provider → the self-hosted host, null for the public one. */
export type ProviderHosts = Readonly<Record<string, string | null | undefined>>;

export interface PullRequestLink {
  number: number;
  /** `https://…` on the provider; null when the provider, repository or host cannot be linked. */
  url: string | null;
}

/** What the server gives in a list's row at most: a row is not a page of PRs. */
export const MAX_PULL_REQUESTS = 20;

const PUBLIC_HOSTS: Readonly<Record<string, string>> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/** A path segment of an owner, group or repository as the three providers allow them. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
/** A host name with an optional port; the server may write GitLab's with its scheme. */
const HOST =
  /^(?:(https?):\/\/)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*)(?::(\d{1,5}))?\/?$/;

/** The branch the conversation works on, trimmed; undefined when it names none. */
export function agentBranch(conversation: AppConversation): string | undefined {
  return conversation.selected_branch?.trim() || undefined;
}

/** Each PR the agent opened, once, in the server's order, linked where it can be. */
export function pullRequestsOf(conversation: AppConversation, hosts: ProviderHosts = {}): PullRequestLink[] {
  const seen = new Set<number>();
  const links: PullRequestLink[] = [];
  for (const number of conversation.pr_number) {
    if (!isPullRequestNumber(number) || seen.has(number)) continue;
    seen.add(number);
    links.push({
      number,
      url: pullRequestUrl(conversation.git_provider, conversation.selected_repository, number, hosts),
    });
    if (links.length >= MAX_PULL_REQUESTS) break;
  }
  return links;
}

/**
 * The PR's page: GitHub `…/pull/<n>`, GitLab `…/-/merge_requests/<n>` (groups nest), Bitbucket
 * `…/pull-requests/<n>`, on the host the server's provider token names, else the public one.
 */
export function pullRequestUrl(
  provider: string | null | undefined,
  repository: string | null | undefined,
  number: number,
  hosts: ProviderHosts = {},
): string | null {
  if (!provider || !repository || !isPullRequestNumber(number)) return null;
  const publicHost = PUBLIC_HOSTS[provider];
  if (!publicHost) return null;
  const segments = repositorySegments(repository, provider === 'gitlab');
  if (!segments) return null;
  const origin = originOf(hosts[provider] ?? publicHost);
  if (!origin) return null;
  const path = segments.join('/');
  switch (provider) {
    case 'github':
      return `${origin}/${path}/pull/${number}`;
    case 'gitlab':
      return `${origin}/${path}/-/merge_requests/${number}`;
    default:
      return `${origin}/${path}/pull-requests/${number}`;
  }
}

function isPullRequestNumber(number: number): boolean {
  return Number.isSafeInteger(number) && number > 0;
}

/** `owner/name` (GitLab: `group/sub/name`) as its segments, or undefined for anything else. */
function repositorySegments(repository: string, nested: boolean): string[] | undefined {
  const segments = repository.trim().split('/');
  if (segments.length < 2 || (!nested && segments.length !== 2) || segments.length > 20) return undefined;
  // `.`/`..` would leave the repository; a trailing `.git` or `.` is no provider's name either
  const valid = segments.every(
    (segment) => SEGMENT.test(segment) && !segment.endsWith('.') && !segment.includes('..'),
  );
  return valid ? segments : undefined;
}

/** `https://host[:port]` for a host the server named, or undefined when it is not a plain host. */
function originOf(host: string): string | undefined {
  const match = HOST.exec(host.trim());
  if (!match?.[2]) return undefined;
  const port = match[3] === undefined ? '' : Number(match[3]);
  if (port !== '' && (port < 1 || port > 65535)) return undefined;
  const scheme = match[1]?.toLowerCase() ?? 'https';
  return `${scheme}://${match[2].toLowerCase()}${port === '' ? '' : `:${port}`}`;
}
