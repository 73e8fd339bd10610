/**
 * Ids for the form's MCP entries, derived from what the server holds (a remote server's URL, a stdio
 * server's name and command, a variable's name) so the same entry has the same id on every read, with
 * nothing stored to map one to the other. The webview sends them back to say which entry a kept secret
 * is of. Never derived from a secret: a URL counts with its credentials masked (two URLs that differ
 * only there look the same in the form, whose validation then refuses the second).
 */
import { createHash } from 'node:crypto';
import { maskCredentials } from '../shared/credentials';
import { urlIdentity } from '../shared/validation';

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22);
}

export const entryId = {
  remote: (kind: 'sse' | 'shttp', url: string) => digest(kind, urlIdentity(maskCredentials(url))),
  /** With the command: env kept for `fetch` run by uvx is not handed to another `fetch` set up elsewhere. */
  stdio: (name: string, command: string) => digest('stdio', name, command),
  env: (stdioName: string, variable: string) => digest('env', stdioName, variable),
};
