// A WebSocket handshake written by hand, for servers that then misbehave in ways `ws` would not let them
// (go silent without answering pings, offer an extension the client never asked for).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** Answers the upgrade with 101 and the accept key RFC 6455 asks for, plus any `extraHeaders` lines. */
export function acceptUpgrade(request: IncomingMessage, socket: Socket, extraHeaders = ''): void {
  const accept = createHash('sha1')
    .update(`${String(request.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${accept}\r\n${extraHeaders}\r\n`,
  );
}

/** Resolves as `promise` does, or rejects when it is still pending after `ms`. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
