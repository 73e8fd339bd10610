/**
 * Ids for the form's MCP entries, derived from what the server holds (a remote server's URL, a stdio
 * server's name, a variable's name) so the same entry has the same id on every read, with nothing
 * stored to map one to the other. The webview sends them back to say which entry a kept secret is of.
 */
import { createHash } from 'node:crypto';
import { urlIdentity } from '../shared/validation';

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22);
}

export const entryId = {
  remote: (kind: 'sse' | 'shttp', url: string) => digest(kind, urlIdentity(url)),
  stdio: (name: string) => digest('stdio', name),
  env: (stdioName: string, variable: string) => digest('env', stdioName, variable),
};
