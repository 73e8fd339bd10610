/**
 * Credentials that ride inside plain fields: `?api_key=…` or `user:password@` in an MCP server URL,
 * `--token=…` or such a URL among a stdio server's arguments. The form shows such a field masked (in
 * the webview and its saved state); the host puts the whole value, as the server holds it, back when
 * saving.
 */
import {
  CREDENTIAL_ARG,
  QUERY_CREDENTIAL,
  REDACTED,
  redactUrl,
  URL_PASSWORD,
} from '../../../common/credentialText';

/** The field as it may be stored and shown: every credential in it replaced by `[redacted]`. */
export function maskCredentials(text: string): string {
  const arg = CREDENTIAL_ARG.exec(text);
  if (arg) return `${arg[1]}${REDACTED}`;
  return redactUrl(text);
}

/**
 * What the user typed, with each `[redacted]` that stands for a credential of `whole` (the stored,
 * unmasked value) put back; a credential typed anew stays as typed.
 */
export function unmaskCredentials(typed: string, whole: string | undefined): string {
  if (whole === undefined || !typed.includes(REDACTED)) return typed;
  const arg = CREDENTIAL_ARG.exec(typed);
  const wholeArg = CREDENTIAL_ARG.exec(whole);
  if (arg && arg[2] === REDACTED && wholeArg && wholeArg[1]?.toLowerCase() === arg[1]?.toLowerCase()) {
    return `${arg[1]}${wholeArg[2]}`;
  }
  const known = new Map<string, string>();
  for (const match of whole.matchAll(QUERY_CREDENTIAL))
    known.set((match[2] ?? '').toLowerCase(), match[3] ?? '');
  const password = new Map<string, string>();
  for (const match of whole.matchAll(URL_PASSWORD))
    password.set((match[1] ?? '').toLowerCase(), match[2] ?? '');
  return typed
    .replace(QUERY_CREDENTIAL, (all, separator: string, name: string, value: string) => {
      const original = known.get(name.toLowerCase());
      return value === REDACTED && original !== undefined ? `${separator}${name}=${original}` : all;
    })
    .replace(URL_PASSWORD, (all, user: string, value: string, at: string) => {
      // the same scheme and user as stored: the password the mask stands for
      const original = password.get(user.toLowerCase());
      return value === REDACTED && original !== undefined ? `${user}${original}${at}` : all;
    });
}

/** Whether a field still shows a masked credential (`--token=[redacted]`, `?api_key=[redacted]`). */
export function carriesMask(text: string): boolean {
  const arg = CREDENTIAL_ARG.exec(text);
  if (arg) return arg[2] === REDACTED;
  return [...text.matchAll(QUERY_CREDENTIAL), ...text.matchAll(URL_PASSWORD)].some((match) =>
    match.slice(2).includes(REDACTED),
  );
}
