// The event socket's keepalive against real servers: a connection that goes silent while still open
// (a half-open socket: no frame, no ping, no pong) is given up by the ping's deadline, while a quiet
// agent is not: answered pings, the server's own pings and a large frame still arriving keep it live.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { inspect } from 'node:util';
import { WebSocketServer, type WebSocket } from 'ws';
import { openEventSocket, SilentSocketError, type AgentEvent, type EventSocket } from '../../../../src/api';
import { acceptUpgrade, settlesWithin } from '../../../shared/rawWebSocket';

const KEY = 'sandbox-key-keepalive-0123456789';
const CONVERSATION = '0123456789abcdef0123456789abcdef';
const PING_INTERVAL_MS = 50;
const PONG_TIMEOUT_MS = 100;

const STATE = JSON.stringify({
  id: 's',
  timestamp: '',
  source: 'environment',
  key: 'full_state',
  value: {},
  kind: 'ConversationStateUpdateEvent',
});
const eventFrame = (id: string, text = '') =>
  JSON.stringify({ id, timestamp: '2026-11-23T10:00:00', source: 'agent', kind: 'MessageEvent', text });

interface Listening {
  url: string;
  close(): Promise<void>;
}

/** `endUpgraded` ends the connections that are the server's no more (upgraded to sockets). */
async function listen(server: Server, endUpgraded: () => void): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      endUpgraded();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A ws server (answering pings unless `autoPong` is false) whose connection handler is the scenario. */
async function wsServer(onConnection: (socket: WebSocket) => void, autoPong = true): Promise<Listening> {
  const server = createServer();
  const wss = new WebSocketServer({ server, autoPong });
  wss.on('connection', (socket) => {
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  return listen(server, () => {
    for (const client of wss.clients) client.terminate();
  });
}

/** The server's side of the connection under a ws socket, for frames written a piece at a time. */
const transportOf = (socket: WebSocket): Socket => (socket as unknown as { _socket: Socket })._socket;

function open(baseUrl: string, onEvent: (event: AgentEvent) => void): Promise<EventSocket> {
  return openEventSocket({
    endpoint: { baseUrl, conversationId: CONVERSATION, sessionApiKey: KEY },
    auth: 'first-message',
    connectTimeoutMs: 2000,
    pingIntervalMs: PING_INTERVAL_MS,
    pongTimeoutMs: PONG_TIMEOUT_MS,
    maxFrameBytes: 1024 * 1024,
    onEvent,
  });
}

/** Opens a socket and resolves with it and the first event with id `awaited`, and whether it had ended by then. */
async function openUntil(
  url: string,
  awaited: string,
): Promise<{ socket: EventSocket; event: AgentEvent; endedBefore: boolean }> {
  let arrived!: (event: AgentEvent) => void;
  const late = new Promise<AgentEvent>((resolve) => (arrived = resolve));
  let ended = false;
  const socket = await open(url, (event) => {
    if (event.id === awaited) arrived(event);
  });
  void socket.ended.then(() => (ended = true));
  const event = await settlesWithin(late, 5000);
  return { socket, event, endedBefore: ended };
}

describe('event socket keepalive', function () {
  this.timeout(10_000);
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a server that goes silent with the connection open (no frame, no pong) is given up by the ping deadline', async () => {
    // a raw server: completes the handshake, sends the snapshot, then neither reads nor writes again
    const raw = createServer();
    const upgraded: Socket[] = [];
    raw.on('upgrade', (request, socket: Socket) => {
      upgraded.push(socket);
      acceptUpgrade(request, socket);
      socket.write(Buffer.concat([Buffer.from([0x81, Buffer.byteLength(STATE)]), Buffer.from(STATE)]));
      socket.pause();
    });
    server = await listen(raw, () => {
      for (const socket of upgraded) socket.destroy();
    });
    const events: AgentEvent[] = [];
    const socket = await open(server.url, (event) => events.push(event));
    const why = await settlesWithin(socket.ended, 3000);
    assert.deepEqual(
      events.map((event) => event.id),
      ['s'],
    );
    assert.ok(why instanceof SilentSocketError, String(why));
    assert.equal(why.kind, 'timeout');
    assert.match(why.message, /went silent .* not even an answer to a ping/);
    // not before the ping had its whole time to be answered
    assert.ok(why.silentMs >= PING_INTERVAL_MS + PONG_TIMEOUT_MS, `given up after ${why.silentMs} ms`);
    for (const text of [String(why), inspect(why, { depth: 6 }), why.stack ?? ''])
      assert.ok(!text.includes(KEY), 'the key leaked');
  });

  it('a server that answers one ping and then goes silent is given up one interval and one deadline after', async () => {
    let pings = 0;
    server = await wsServer((socket) => {
      socket.once('message', () => socket.send(STATE));
      socket.on('ping', () => {
        if (++pings > 1) return;
        socket.pong();
        transportOf(socket).pause();
      });
    }, false);
    const socket = await openEventSocket({
      endpoint: { baseUrl: server.url, conversationId: CONVERSATION, sessionApiKey: KEY },
      auth: 'first-message',
      pingIntervalMs: 100,
      pongTimeoutMs: 1000,
      onEvent: () => undefined,
    });
    const why = await settlesWithin(socket.ended, 5000);
    assert.ok(why instanceof SilentSocketError, String(why));
    // from the pong: the next ping after 100 ms, given up 1000 ms later; were the next ping timed
    // from the answered ping's deadline instead, 2000 ms (the margin is for a loaded machine)
    assert.ok(why.silentMs >= 1100 && why.silentMs < 1600, `given up after ${why.silentMs} ms`);
  });

  it('a quiet agent is not a drop: a server that answers pings stays live through many rounds of silence', async () => {
    let pings = 0;
    server = await wsServer((socket) =>
      socket.once('message', () => {
        socket.send(STATE);
        // the agent thinks for ten rounds of the client's keepalive, then speaks
        socket.on('ping', () => {
          if (++pings === 10) socket.send(eventFrame('after-thinking'));
        });
      }),
    );
    const { socket, endedBefore } = await openUntil(server.url, 'after-thinking');
    assert.equal(endedBefore, false, 'the socket was given up while the agent was quiet');
    assert.ok(pings >= 10);
    socket.close();
    assert.equal((await settlesWithin(socket.ended, 500)).kind, 'cancelled');
  });

  it('a server that pings but answers no ping stays live: its pings are word enough', async () => {
    let sent = 0;
    server = await wsServer(
      (socket) =>
        socket.once('message', () => {
          socket.send(STATE);
          const pinger = setInterval(() => {
            socket.ping();
            // 30 pings of 20 ms: four times the client's deadline
            if (++sent === 30) socket.send(eventFrame('after-pings'));
          }, 20);
          socket.on('close', () => clearInterval(pinger));
        }),
      false,
    );
    const { socket, endedBefore } = await openUntil(server.url, 'after-pings');
    assert.equal(endedBefore, false, 'the socket was given up while the server pinged');
    socket.close();
  });

  it('a large frame still arriving on a slow link is not silence, though no pong can pass it', async () => {
    const text = 'x'.repeat(32 * 1024);
    const frame = Buffer.from(eventFrame('large', text));
    server = await wsServer(
      (socket) =>
        socket.once('message', () => {
          socket.send(STATE);
          // one text frame, 1 KB every 20 ms: about 650 ms in all, twice the client's deadline
          const transport = transportOf(socket);
          transport.write(Buffer.from([0x81, 126, frame.length >> 8, frame.length & 0xff]));
          let at = 0;
          const trickle = setInterval(() => {
            transport.write(frame.subarray(at, at + 1024));
            at += 1024;
            if (at >= frame.length) clearInterval(trickle);
          }, 20);
          socket.on('close', () => clearInterval(trickle));
        }),
      false,
    );
    const { socket, event, endedBefore } = await openUntil(server.url, 'large');
    assert.equal(endedBefore, false, 'the socket was given up while the frame arrived');
    assert.equal(event['text'], text);
    socket.close();
  });
});
