// The event socket as the host bundle has it: ws without its permessage-deflate (esbuild.mjs leaves it
// out, scripts/build/packagesLeftOut.mjs). The socket offers no compression, so ws never builds the
// left-out part: a compressed frame and a handshake that answers with an extension nobody offered end
// as the same errors in the bundle as in the source. A socket that offered compression would reach the
// stand-in, which throws, and these tests would fail.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { WebSocketServer } from 'ws';
import * as source from '../../../../src/api';
import { packagesLeftOut, wsClientAlias } from '../../../../scripts/build/packagesLeftOut.mjs';
import { acceptUpgrade } from '../../../shared/rawWebSocket';

type Api = Pick<typeof source, 'openEventSocket'>;

const KEY = 'sandbox-key-0123456789abcdef';
const CONVERSATION = '0123456789abcdef0123456789abcdef';
/** src/api bundled as the host bundles it, loaded from a folder of its own. */
async function bundledApi(dir: string): Promise<Api> {
  const outfile = path.join(dir, 'api.js');
  await esbuild.build({
    entryPoints: ['src/api/index.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    alias: wsClientAlias,
    plugins: [packagesLeftOut],
    logLevel: 'silent',
  });
  return createRequire(import.meta.url)(outfile) as Api;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function open(
  api: Api,
  baseUrl: string,
  extra: Partial<Pick<source.EventSocketOptions, 'onEvent' | 'pingIntervalMs' | 'pongTimeoutMs'>> = {},
) {
  return api.openEventSocket({
    endpoint: { baseUrl, conversationId: CONVERSATION, sessionApiKey: KEY },
    auth: 'first-message',
    connectTimeoutMs: 1000,
    pongTimeoutMs: 2000,
    maxFrameBytes: 1024 * 1024,
    onEvent: () => undefined,
    onProblem: () => undefined,
    ...extra,
  });
}

/** What an end says, comparable across the two copies of ApiError. */
function outcome(error: unknown): { name: string; kind: string; message: string } {
  const { name, kind, message } = error as { name: string; kind: string; message: string };
  return { name, kind, message };
}

/** A handshake that accepts the socket and answers with `permessage-deflate`, never offered. */
async function unaskedExtension(api: Api) {
  const server = createServer();
  const upgraded: Socket[] = [];
  server.on('upgrade', (request, socket: Socket) => {
    upgraded.push(socket);
    acceptUpgrade(request, socket, 'Sec-WebSocket-Extensions: permessage-deflate\r\n');
  });
  try {
    return outcome(await open(api, await listen(server)).catch((thrown: unknown) => thrown));
  } finally {
    // an upgraded socket is the server's no more: closed by hand
    for (const socket of upgraded) socket.destroy();
    await close(server);
  }
}

/** After the auth frame, a text frame with RSV1 set (compressed), which no extension allows. */
async function compressedFrame(api: Api) {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (socket) =>
    socket.once('message', () =>
      (socket as unknown as { _socket: Socket })._socket.write(Buffer.from([0xc1, 0x01, 0x78])),
    ),
  );
  try {
    return outcome(await open(api, await listen(server)).catch((thrown: unknown) => thrown));
  } finally {
    for (const client of wss.clients) client.terminate();
    await close(server);
  }
}

/**
 * After the auth frame, one large frame a piece at a time (about 650 ms, four times the keepalive's
 * deadline), then nothing: no frame, no pong. The keepalive must see the frame arriving through the
 * connection ws hands over on 'upgrade', and then give the silent socket up.
 */
async function trickleThenSilence(api: Api) {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false, autoPong: false });
  const text = 'x'.repeat(32 * 1024);
  const frame = Buffer.from(
    JSON.stringify({ id: 'large', timestamp: '', source: 'agent', kind: 'MessageEvent', text }),
  );
  wss.on('connection', (socket) =>
    socket.once('message', () => {
      const transport = (socket as unknown as { _socket: Socket })._socket;
      transport.write(Buffer.from([0x81, 126, frame.length >> 8, frame.length & 0xff]));
      let at = 0;
      const trickle = setInterval(() => {
        transport.write(frame.subarray(at, at + 1024));
        at += 1024;
        if (at < frame.length) return;
        clearInterval(trickle);
        transport.pause();
      }, 20);
      socket.on('close', () => clearInterval(trickle));
    }),
  );
  try {
    let arrived = '';
    const socket = await open(api, await listen(server), {
      onEvent: (event) => (arrived = String(event['text']).length === text.length ? event.id : 'cut'),
      pingIntervalMs: 50,
      pongTimeoutMs: 100,
    });
    const { kind, message } = outcome(await socket.ended);
    return { arrived, kind, message: message.replace(/\d+ s/, 'N s') };
  } finally {
    for (const client of wss.clients) client.terminate();
    await close(server);
  }
}

describe('event socket in the host bundle (permessage-deflate left out)', function () {
  this.timeout(30_000);
  let dir = '';
  let bundled: Api;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-api-'));
    bundled = await bundledApi(dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('leaves permessage-deflate out of the bundle', () => {
    const text = fs.readFileSync(path.join(dir, 'api.js'), 'utf8');
    assert.ok(!text.includes('permessage-deflate.js'), 'ws/lib/permessage-deflate.js is bundled');
    assert.match(text, /permessage-deflate is not in this build/);
  });

  it('refuses an extension the server was not offered, as the source does', async () => {
    const fromSource = await unaskedExtension(source);
    const fromBundle = await unaskedExtension(bundled);
    assert.equal(fromSource.name, 'ApiError');
    assert.match(fromSource.message, /Sec-WebSocket-Extensions/);
    assert.deepEqual(fromBundle, fromSource);
  });

  it('keeps a socket live while a large frame arrives, then gives it up when silent, as the source does', async () => {
    const fromSource = await trickleThenSilence(source);
    const fromBundle = await trickleThenSilence(bundled);
    assert.equal(fromSource.arrived, 'large');
    assert.equal(fromSource.kind, 'timeout');
    assert.match(fromSource.message, /went silent/);
    assert.deepEqual(fromBundle, fromSource);
  });

  it('refuses a compressed frame, as the source does', async () => {
    const fromSource = await compressedFrame(source);
    const fromBundle = await compressedFrame(bundled);
    assert.equal(fromSource.name, 'ApiError');
    assert.match(fromSource.message, /RSV1/);
    assert.deepEqual(fromBundle, fromSource);
  });
});
