// The git providers' repositories the double stands in for (nothing here can reach github.com): a
// control-API map from a provider's `owner/name` to a local bare repository, and the URL 1.11 builds
// for a start's `selected_repository` (integrations/provider.py `verify_repo_provider` and
// `get_authenticated_git_url`).
import { providerAcceptsToken } from './gitProviders';
import type { ProviderTokenRecord, ProviderType } from './models';

export interface ProviderRepositoryRecord {
  provider: ProviderType;
  /** `owner/name` as the provider's API spells it (`Repository.full_name`). */
  full_name: string;
  /** The local bare repository that holds it. */
  path: string;
}

/** `ProviderHandler.PROVIDER_DOMAINS` (GITLAB_HOST unset); enterprise_sso has none. */
const PROVIDER_DOMAINS: Partial<Record<ProviderType, string>> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/** `get_authenticated_git_url` raises this when no provider's API answers for the repository. */
export const UNREACHABLE_REPOSITORY = 'Git provider authentication issue when getting remote URL';
/** …and this for a token host written `http://` (the double never sets ALLOW_INSECURE_GIT_ACCESS). */
export const INSECURE_HOST =
  "Attempting to connect to an insecure git repository over HTTP. If you'd like to allow this nonetheless, set ALLOW_INSECURE_GIT_ACCESS=true as an environment variable.";

export type ResolvedRepository =
  { ok: true; url: string; repository: ProviderRepositoryRecord } | { ok: false; detail: string };

/**
 * The repository as 1.11 finds it: each provider the server holds a token for is asked in turn (the
 * request's `git_provider` is not passed on), a rejected token answers nothing, the name matches
 * case-insensitively as GitHub's API does, and the URL carries the token in the provider's form.
 */
export function resolveRepository(
  name: string,
  tokens: Partial<Record<ProviderType, ProviderTokenRecord>>,
  repositories: readonly ProviderRepositoryRecord[],
): ResolvedRepository {
  for (const [provider, token] of Object.entries(tokens) as [ProviderType, ProviderTokenRecord][]) {
    if (!providerAcceptsToken(provider, token.token)) continue;
    const repository = repositories.find(
      (candidate) =>
        candidate.provider === provider && candidate.full_name.toLowerCase() === name.toLowerCase(),
    );
    if (!repository) continue;
    const host = token.host || PROVIDER_DOMAINS[provider] || '';
    if (host.trim().startsWith('http://')) return { ok: false, detail: INSECURE_HOST };
    return { ok: true, repository, url: authenticatedUrl(provider, token.token, host, repository.full_name) };
  }
  return { ok: false, detail: UNREACHABLE_REPOSITORY };
}

function authenticatedUrl(provider: ProviderType, token: string, host: string, fullName: string): string {
  const domain = host
    .trim()
    .replaceAll('https://', '')
    .replaceAll('http://', '')
    .replace(/\/api\/(?:v\d+|graphql)\/?$/, '')
    .replace(/\/+$/, '');
  const tail = `${domain}/${fullName}.git`;
  if (provider === 'gitlab') return `https://oauth2:${token}@${tail}`;
  if (provider === 'bitbucket') {
    const colon = token.indexOf(':');
    return colon === -1
      ? `https://x-token-auth:${pyQuote(token)}@${tail}`
      : `https://${pyQuote(token.slice(0, colon))}:${pyQuote(token.slice(colon + 1))}@${tail}`;
  }
  return `https://${token}@${tail}`;
}

/** `urllib.parse.quote(text, safe='')`: encodeURIComponent, which leaves `!'()*` alone where Python does not. */
function pyQuote(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
