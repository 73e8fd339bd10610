// The event socket against a hostile WebSocket server: every end is an ApiError by its deadline, the
// sandbox key appears in no error, frames that are not events are skipped, and nothing hangs.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { inspect } from 'node:util';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiError, openEventSocket, type AgentEvent, type EventSocket } from '../../../../src/api';
import { settlesWithin } from '../../../shared/rawWebSocket';

const KEY = 'sandbox-key-0123456789abcdef';
const CONVERSATION = '0123456789abcdef0123456789abcdef';

interface Hostile {
  url: string;
  server: Server;
  wss: WebSocketServer;
  close(): Promise<void>;
}

/** A WebSocket server whose connection handler is the scenario. */
async function hostile(onConnection: (socket: WebSocket, url: string) => void): Promise<Hostile> {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, request) => onConnection(socket, request.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    wss,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function open(
  baseUrl: string,
  events: AgentEvent[],
  problems: ApiError[],
  extra: {
    connectTimeoutMs?: number;
    pingIntervalMs?: number;
    pongTimeoutMs?: number;
    auth?: 'first-message' | 'query';
  } = {},
): Promise<EventSocket> {
  return openEventSocket({
    endpoint: { baseUrl, conversationId: CONVERSATION, sessionApiKey: KEY },
    auth: extra.auth ?? 'first-message',
    connectTimeoutMs: extra.connectTimeoutMs ?? 1000,
    pingIntervalMs: extra.pingIntervalMs,
    pongTimeoutMs: extra.pongTimeoutMs ?? 2000,
    maxFrameBytes: 1024 * 1024,
    onEvent: (event) => events.push(event),
    onProblem: (problem) => problems.push(problem),
  });
}

function assertNoKey(error: unknown): void {
  const renderings = [String(error), JSON.stringify(error), inspect(error, { depth: 6 })];
  if (error instanceof Error) renderings.push(error.message, error.stack ?? '');
  for (const text of renderings) assert.ok(!text.includes(KEY), `the key leaked: ${text.slice(0, 300)}`);
}

const STATE = JSON.stringify({
  id: 's',
  timestamp: '',
  source: 'environment',
  key: 'full_state',
  value: {},
  kind: 'ConversationStateUpdateEvent',
});
const eventFrame = (id: string) =>
  JSON.stringify({ id, timestamp: '2026-11-23T10:00:00', source: 'agent', kind: 'MessageEvent' });

describe('event socket against a hostile server', function () {
  this.timeout(10_000);
  let server: Hostile | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('goes live after the auth frame; skips invalid JSON, non-events, binary and deep frames', async () => {
    server = await hostile((socket) => {
      socket.once('message', (data) => {
        const auth = JSON.parse(String(data)) as { type: string; session_api_key: string };
        if (auth.type !== 'auth' || auth.session_api_key !== KEY)
          return socket.close(4001, 'Authentication failed');
        socket.send(STATE);
        socket.send('{"id": "cut", "kind": "Mess');
        socket.send('[1,2,3]');
        socket.send(Buffer.from([1, 2, 3]), { binary: true });
        socket.send('['.repeat(10_000) + ']'.repeat(10_000));
        socket.send(eventFrame('good'));
      });
    });
    const events: AgentEvent[] = [];
    const problems: ApiError[] = [];
    const socket = await open(server.url, events, problems);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(
      events.map((event) => event.id),
      ['s', 'good'],
    );
    assert.equal(problems.length, 4);
    for (const problem of problems) assert.equal(problem.kind, 'invalid_response');
    socket.close();
    assert.equal((await settlesWithin(socket.ended, 500)).kind, 'cancelled');
  });

  it('a server that never answers the auth frame: a timeout by the connect deadline', async () => {
    server = await hostile(() => undefined);
    const started = Date.now();
    const error = await open(server.url, [], [], { connectTimeoutMs: 300 }).then(
      () => assert.fail('went live'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ApiError && error.kind === 'timeout', String(error));
    assert.ok(Date.now() - started < 1000);
    assertNoKey(error);
  });

  it('a refused key (4001) and an unknown conversation (4004) say so, without the key', async () => {
    server = await hostile((socket) => socket.close(4001, `Authentication failed for ${KEY}`));
    const refused = await open(server.url, [], []).catch((thrown: unknown) => thrown);
    assert.ok(refused instanceof ApiError && refused.kind === 'unauthorized', String(refused));
    assertNoKey(refused);
    await server.close();
    server = await hostile((socket) =>
      socket.once('message', () => socket.close(4004, 'Conversation not found')),
    );
    const missing = await open(server.url, [], []).catch((thrown: unknown) => thrown);
    assert.ok(missing instanceof ApiError && missing.kind === 'not_found', String(missing));
  });

  it('a refused handshake (403) is unauthorized with its status; a query key never shows in the error', async () => {
    server = await hostile(() => undefined);
    server.wss.removeAllListeners('connection');
    server.server.removeAllListeners('upgrade');
    server.server.on('upgrade', (_request, socket: Socket) =>
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'),
    );
    const error = await open(server.url, [], [], { auth: 'query' }).catch((thrown: unknown) => thrown);
    assert.ok(
      error instanceof ApiError && error.kind === 'unauthorized' && error.status === 403,
      String(error),
    );
    assertNoKey(error);
  });

  it('a 20 MB frame ends the socket as invalid_response, promptly', async () => {
    server = await hostile((socket) => {
      socket.once('message', () => {
        socket.send(STATE);
        socket.send('x'.repeat(20 * 1024 * 1024));
      });
    });
    const socket = await open(server.url, [], []);
    const why = await settlesWithin(socket.ended, 3000);
    assert.equal(why.kind, 'invalid_response');
    assert.match(why.message, /larger than/);
  });

  it('a frame cut off by a dropped connection ends as network, by the deadline', async () => {
    server = await hostile((socket) => {
      socket.once('message', () => {
        socket.send(STATE);
        // a frame header promising 1000 bytes, then 10, then the connection drops
        const raw = (socket as unknown as { _socket: Socket })._socket;
        raw.write(Buffer.from([0x81, 126, 0x03, 0xe8]));
        raw.write('0123456789');
        setTimeout(() => raw.destroy(), 50);
      });
    });
    const socket = await open(server.url, [], []);
    const why = await settlesWithin(socket.ended, 2000);
    assert.equal(why.kind, 'network');
    assertNoKey(why);
  });

  it('a replay that never ends still delivers, and close() settles at once', async () => {
    let n = 0;
    server = await hostile((socket) =>
      socket.once('message', () => {
        socket.send(STATE);
        const flood = setInterval(() => {
          for (let i = 0; i < 200; i++) socket.send(eventFrame(`flood-${n++}`));
        }, 1);
        socket.on('close', () => clearInterval(flood));
      }),
    );
    const events: AgentEvent[] = [];
    const socket = await open(server.url, events, []);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(events.length > 100, `only ${events.length} events`);
    socket.close();
    assert.equal((await settlesWithin(socket.ended, 200)).kind, 'cancelled');
    const held = events.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(events.length, held, 'nothing arrives after close()');
  });

  it('nothing listening: network error by the deadline', async () => {
    server = await hostile(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await settlesWithin(
      open(url, [], []).catch((thrown: unknown) => thrown),
      2000,
    );
    assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
  });
});
