/**
 * The page never holds a secret: an agent can print the sandbox's key (`env`), and a server can echo
 * the API key, so every text of a row or of the header is scrubbed of the secrets the extension knows.
 */
import { scrubSecrets } from '../../../api/redact';
import type { Header } from '../shared/protocol';

/** Every string inside `value` scrubbed (a copy; strings without a secret kept as they are). */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  return scrubValue(value, secrets) as T;
}

/** The header scrubbed, but the user's own unsent words: they go back into the input as typed. */
export function scrubHeader(header: Header, secrets: readonly string[]): Header {
  if (secrets.length === 0) return header;
  const scrubbed = scrubDeep(header, secrets);
  scrubbed.controls.outbox = header.controls.outbox.map((entry) => ({
    ...entry,
    reason: entry.reason === null ? null : scrubSecrets(entry.reason, secrets),
  }));
  return scrubbed;
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string')
    return secrets.some((secret) => value.includes(secret)) ? scrubSecrets(value, secrets) : value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = scrubValue(child, secrets);
  return copy;
}
