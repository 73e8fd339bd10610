// The real add-git-providers semantics (server/routes/secrets.py): token checks where the last
// provider checked decides the outcome, then a merge that replaces the whole stored map.
import { PROVIDER_TYPES, type ProviderTokenRecord, type ProviderType } from './models';

export interface IncomingProviderToken {
  token: string | null;
  user_id: string | null;
  host: string | null;
}

export type IncomingProviderTokens = Partial<Record<ProviderType, IncomingProviderToken>>;
export type StoredProviderTokens = Partial<Record<ProviderType, ProviderTokenRecord>>;

/**
 * Stands in for asking GitHub/GitLab/Bitbucket which provider a token belongs to: tokens starting
 * with `bad` are rejected everywhere, and nothing ever identifies as `enterprise_sso`.
 */
export function providerAcceptsToken(provider: ProviderType, token: string): boolean {
  return provider !== 'enterprise_sso' && !token.startsWith('bad');
}

function invalidTokenMessage(provider: ProviderType): string {
  return `Invalid token. Please make sure it is a valid ${provider} token.`;
}

/**
 * `check_provider_tokens`: returns the error message, or "" when the request may proceed. The
 * message is overwritten for every provider with a token, so a later valid token hides an earlier
 * invalid one (a real quirk).
 */
export function checkProviderTokens(incoming: IncomingProviderTokens, stored: StoredProviderTokens): string {
  let message = '';
  for (const [provider, value] of Object.entries(incoming) as [ProviderType, IncomingProviderToken][]) {
    if (value.token)
      message = providerAcceptsToken(provider, value.token) ? '' : invalidTokenMessage(provider);
    // A changed host means the stored token is re-validated against it ("" and null differ).
    const existing = stored[provider];
    if (existing && existing.host !== value.host && existing.token) {
      if (!providerAcceptsToken(provider, existing.token)) message = invalidTokenMessage(provider);
    }
  }
  return message;
}

/**
 * The merge: an empty token keeps the stored token and user_id but takes the new host; omitted
 * providers are dropped; entries left without a token are not persisted.
 */
export function mergeProviderTokens(
  incoming: IncomingProviderTokens,
  stored: StoredProviderTokens,
): StoredProviderTokens {
  const merged: StoredProviderTokens = {};
  for (const [provider, value] of Object.entries(incoming) as [ProviderType, IncomingProviderToken][]) {
    const existing = stored[provider];
    if (!value.token && existing?.token) {
      merged[provider] = { token: existing.token, user_id: existing.user_id, host: value.host };
    } else if (value.token) {
      merged[provider] = { token: value.token, user_id: value.user_id, host: value.host };
    }
  }
  return merged;
}

/** `provider_tokens_set` as GET settings shows it: provider → host, for providers with a token or user id. */
export function providerTokensSetOf(
  stored: Partial<Record<ProviderType, ProviderTokenRecord>>,
): Partial<Record<ProviderType, string | null>> {
  const set: Partial<Record<ProviderType, string | null>> = {};
  for (const provider of PROVIDER_TYPES) {
    const token = stored[provider];
    if (token && (token.token || token.user_id)) set[provider] = token.host;
  }
  return set;
}
