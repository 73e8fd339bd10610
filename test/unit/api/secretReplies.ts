// What the tests of secrets in replies share: a reply written on the raw socket of the hostile server,
// and every way an error and the request log could be printed, serialised or shown.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { inspect } from 'node:util';
import { ApiError, type RequestLogEntry } from '../../../src/api';

export function respond(socket: Socket, status: number, contentType: string, body: string): void {
  const bytes = Buffer.from(body, 'utf8');
  socket.end(
    `HTTP/1.1 ${status} X\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

export function respondJson(socket: Socket, value: unknown): void {
  respond(socket, 200, 'application/json', JSON.stringify(value));
}

/** Every way an error and the log could be printed, serialised or shown. */
export function renderings(error: unknown, logs: RequestLogEntry[]): Record<string, string> {
  const shown: Record<string, string> = {
    'String(error)': String(error),
    'JSON.stringify(logs)': JSON.stringify(logs),
    'inspect(logs)': inspect(logs, { depth: 8 }),
  };
  if (error instanceof Error) {
    shown['error.message'] = error.message;
    shown['JSON.stringify(error)'] = JSON.stringify(error);
    shown['inspect(error)'] = inspect(error, { depth: 6 });
    shown['error.stack'] = error.stack ?? '';
  }
  if (error instanceof ApiError) {
    shown['error.serverMessage'] = error.serverMessage ?? '';
    shown['error.issues'] = JSON.stringify(error.issues);
  }
  return shown;
}

/** None of the texts holds any of the secrets. */
export function assertNoCopy(shown: Record<string, string>, secrets: readonly string[]): void {
  for (const [where, text] of Object.entries(shown))
    for (const secret of secrets)
      assert.ok(!text.includes(secret), `${secret} shows in ${where}: ${text.slice(0, 2000)}`);
}
