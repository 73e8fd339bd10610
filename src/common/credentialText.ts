/**
 * Credentials written inside text: in a URL (`?api_key=…`, `https://user:password@…`) or a command-line
 * argument (`--token=…`), and the mask that stands for them. One definition for the host, which masks
 * them in every error and log entry (`api/redact.ts`), and for the MCP form's page, which shows them
 * masked and puts them back (`webviews/mcpForm/shared/credentials.ts`): it sits below both because
 * neither may import the other's code. Plain patterns, no imports: a page can bundle it.
 */

export const REDACTED = '[redacted]';

/**
 * Query parameters that carry credentials (`?api_key=…`, `?token=…`, `&access_token=…`), captured as
 * separator, name and value. The one list both masking and the MCP form's unmasking use.
 */
export const QUERY_CREDENTIAL =
  /([?&])(tkn|token|api_?key|session_api_key|key|access_token|auth|auth_token|password|secret|sig|signature)=([^&#\s"'<>]*)/gi;

/** The password of a URL's user info (`https://user:password@host/…`), captured between `scheme://user:` and `@`. */
export const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)([^\s/?#@]+)(@)/gi;

/** `--api-key=…`, `--token=…`, `-password=…`: a command-line argument that carries its own credential. */
export const CREDENTIAL_ARG =
  /^(--?(?:api[-_]?key|token|access[-_]token|auth[-_]token|password|secret)=)(.+)$/i;

/** The text with every URL credential in it (a query parameter's value, a user's password) masked. */
export function redactUrl(url: string): string {
  return url.replace(QUERY_CREDENTIAL, `$1$2=${REDACTED}`).replace(URL_PASSWORD, `$1${REDACTED}$3`);
}
