/** Pure: turns a git remote URL into what the server's start request wants. */
export interface RemoteRepository {
  /** `owner/name` (GitLab subgroups keep their full path). */
  repository: string;
  provider: 'github' | 'gitlab' | 'bitbucket' | undefined;
  host: string;
}

export function parseGitRemote(remote: string): RemoteRepository | undefined {
  const trimmed = remote.trim();
  // scp-like: git@github.com:owner/repo.git
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(trimmed);
  let host: string;
  let path: string;
  if (scp && !/^[a-z+]+:\/\//i.test(trimmed)) {
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  } else {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      return undefined;
    }
    host = url.hostname;
    path = url.pathname;
  }
  const repository = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  if (!host || !repository.includes('/')) return undefined;
  return { repository, host: host.toLowerCase(), provider: providerOf(host.toLowerCase()) };
}

function providerOf(host: string): RemoteRepository['provider'] {
  if (host === 'github.com' || host.startsWith('github.')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  if (host === 'bitbucket.org' || host.startsWith('bitbucket.')) return 'bitbucket';
  return undefined;
}
