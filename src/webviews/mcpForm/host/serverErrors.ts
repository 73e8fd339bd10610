/**
 * Reads a failed server call the way the form needs it: which field a 422 names, which provider a
 * rejected token belongs to, and a secret-free sentence for the form and the log.
 */
import { isApiError, messageOf, type ApiError } from '../../../api';
import { fieldForServerLoc } from '../shared/fieldPath';
import type { FieldErrors } from '../shared/formSchema';

/**
 * add-git-providers answers a token the provider does not accept with 401
 * `{"error":"Invalid token. Please make sure it is a valid <provider> token."}`; a wrong session
 * key is a 401 too, but with another message.
 */
export function rejectedTokenProvider(error: unknown): string | undefined {
  if (!isApiError(error) || error.kind !== 'unauthorized') return undefined;
  return /valid ([a-z_]+) token/i.exec(error.serverMessage ?? '')?.[1]?.toLowerCase();
}

/** The field errors a 422 carries, by the request's list positions. */
export function validationFieldErrors(
  error: unknown,
  envNames: (stdioIndex: number) => readonly string[],
  scrub: (text: string) => string,
): FieldErrors {
  const errors: FieldErrors = {};
  if (!isApiError(error) || error.kind !== 'validation') return errors;
  for (const issue of error.issues) {
    const path = fieldForServerLoc(issue.loc, envNames);
    if (path !== undefined) errors[path] ??= scrub(issue.msg);
  }
  return errors;
}

/** A 422 about `mcp_config` means the MCP part itself is wrong, not only the provider tokens. */
export function concernsMcpConfig(error: unknown): boolean {
  return (
    isApiError(error) && error.kind === 'validation' && error.issues.some((i) => i.loc.includes('mcp_config'))
  );
}

export function concernsProviderTokens(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.kind === 'validation' &&
    error.issues.some((i) => i.loc.includes('provider_tokens'))
  );
}

/** A readable, secret-free sentence for the form and the log. */
export function describeError(error: unknown, scrub: (text: string) => string): string {
  if (isApiError(error)) return scrub(describeApiError(error));
  return scrub(messageOf(error));
}

function describeApiError(error: ApiError): string {
  if (error.kind === 'unauthorized' && error.serverMessage && rejectedTokenProvider(error)) {
    return error.serverMessage;
  }
  return error.message;
}
