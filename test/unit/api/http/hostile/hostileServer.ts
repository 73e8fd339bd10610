// A loopback server that speaks just enough HTTP to answer each request the way a scenario says:
// correctly, or with redirects, broken framing, lies, cut bodies, deep JSON, echoed secrets, silence.
// Raw sockets, so that it can send what no HTTP library would.
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path after the `/c<call id>` prefix, with the query. */
  path: string;
  /** Header lines as received (names lower-cased). */
  headers: Record<string, string>;
  body: string;
}

/** Writes a reply (or none) for one request; `attempt` counts this call's requests, from 1. */
export type Responder = (socket: Socket, request: ReceivedRequest, attempt: number) => void;

export interface HostileServer {
  url: string;
  port: number;
  /** Routes `/c<id>/…` to that call's responder. */
  register(callId: number, responder: Responder): void;
  /** Requests that named no registered call (a followed redirect lands here). */
  strays: ReceivedRequest[];
  close(): Promise<void>;
}

const CALL_PREFIX = /^\/c(\d+)(\/.*)$/;

/** A describe block's hostile server: started before its tests, closed after them. */
export interface HostileServerUse {
  /** The running server (its strays, its URL). */
  readonly server: HostileServer;
  /** Registers `responder` for a new call and returns that call's base URL. */
  callUrl(responder: Responder): string;
}

export function useHostileServer(): HostileServerUse {
  let started: HostileServer | undefined;
  let callId = 0;
  before(async () => {
    started = await startHostileServer();
  });
  after(async () => {
    await started?.close();
  });
  const running = (): HostileServer => {
    if (!started) throw new Error('the hostile server is used before it started');
    return started;
  };
  return {
    get server() {
      return running();
    },
    callUrl(responder) {
      const id = ++callId;
      running().register(id, responder);
      return `${running().url}/c${id}`;
    },
  };
}

export async function startHostileServer(): Promise<HostileServer> {
  const responders = new Map<number, Responder>();
  const attempts = new Map<number, number>();
  const sockets = new Set<Socket>();
  const strays: ReceivedRequest[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    readRequest(socket, (request) => {
      const match = CALL_PREFIX.exec(request.path);
      const responder = match ? responders.get(Number(match[1])) : undefined;
      if (!match || !responder) {
        strays.push(request);
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const id = Number(match[1]);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      responder(socket, { ...request, path: match[2] ?? '/' }, attempt);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    register: (callId, responder) => responders.set(callId, responder),
    strays,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads one request (head and Content-Length body), then hands it over; later bytes are ignored. */
function readRequest(socket: Socket, onRequest: (request: ReceivedRequest) => void): void {
  let buffer = Buffer.alloc(0);
  let done = false;
  const onData = (chunk: Buffer) => {
    if (done) return;
    buffer = Buffer.concat([buffer, chunk]);
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd === -1) return;
    const lines = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const [method = '', target = '/'] = (lines[0] ?? '').split(' ');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = buffer.subarray(headEnd + 4);
    if (bodyBytes.length < length) return;
    done = true;
    socket.off('data', onData);
    onRequest({ method, path: target, headers, body: bodyBytes.subarray(0, length).toString('utf8') });
  };
  socket.on('data', onData);
}
