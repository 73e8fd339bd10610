/**
 * Credentials that ride inside plain fields: `?api_key=…` in an MCP server URL, `--token=…` or a URL
 * with one among a stdio server's arguments. The form stores and shows such a field masked; the whole
 * value lives in Secret Storage with the other secrets, and is put back only when sending to the server.
 */
import { CREDENTIAL_ARG, QUERY_CREDENTIAL, REDACTED, redactUrl } from '../../../api/redact';

/** The field as it may be stored and shown: every credential in it replaced by `[redacted]`. */
export function maskCredentials(text: string): string {
  const arg = CREDENTIAL_ARG.exec(text);
  if (arg) return `${arg[1]}${REDACTED}`;
  return redactUrl(text);
}

export function carriesCredentials(text: string): boolean {
  return maskCredentials(text) !== text;
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
  return typed.replace(QUERY_CREDENTIAL, (all, separator: string, name: string, value: string) => {
    const original = known.get(name.toLowerCase());
    return value === REDACTED && original !== undefined ? `${separator}${name}=${original}` : all;
  });
}

/** Secret Storage keys of the credential-bearing plain fields of one MCP entry. */
export const credentialKey = {
  url: (entryId: string) => `${entryId}:url`,
  arg: (entryId: string, index: number) => `${entryId}:arg:${index}`,
};

/** Whether a field still shows a masked credential (`--token=[redacted]`, `?api_key=[redacted]`). */
export function carriesMask(text: string): boolean {
  const arg = CREDENTIAL_ARG.exec(text);
  if (arg) return arg[2] === REDACTED;
  return [...text.matchAll(QUERY_CREDENTIAL)].some((match) => match[3] === REDACTED);
}
