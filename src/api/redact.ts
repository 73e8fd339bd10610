/**
 * Secret-free copies of what goes over the wire, for logs. Anything that can carry a credential is
 * masked: API keys, provider tokens, MCP `api_key`s, stdio `env` values, session keys, and the
 * `tkn=` that the server puts in VS Code URLs.
 */
export const REDACTED = '[redacted]';

const SECRET_KEY =
  /^(api_?key|token|session_api_key|llm_api_key|search_api_key|sandbox_api_key|password|secret|authorization|x-session-api-key|x-access-token|tkn)$/i;
const SECRET_QUERY_PARAM = /([?&](?:tkn|token|api_key|session_api_key|key)=)[^&#\s]*/gi;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAM, `$1${REDACTED}`);
}

export function redactJson(value: unknown, parentKey = ''): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (parentKey === 'env' && typeof child === 'string') {
      // stdio env values are secrets by convention (tokens for the MCP server), the names are not
      copy[key] = REDACTED;
    } else if (isSecretKey(key) && child !== null && child !== '' && typeof child !== 'object') {
      copy[key] = REDACTED;
    } else {
      copy[key] = redactJson(child, key);
    }
  }
  return copy;
}

/** Removes every occurrence of the given secret values from free text (error messages, server text). */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let scrubbed = redactUrl(text);
  for (const secret of secrets) {
    if (secret && secret.length >= 4) scrubbed = scrubbed.split(secret).join(REDACTED);
  }
  return scrubbed;
}
