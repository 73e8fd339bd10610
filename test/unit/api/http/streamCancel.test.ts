// A streamed start the caller cancels must settle at once, whatever the server is doing: silent before
// its headers, silent after them, silent half-way through an element, or dripping a body that never ends.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { ApiError, OpenHandsClient } from '../../../../src/api';
import { useHostileServer } from './hostile/hostileServer';

const ABORT_AFTER_MS = 100;
/** Well under a second: the abort itself must end the call, not a deadline or the server. */
const SETTLE_WITHIN_MS = 500;
const CHUNKED_JSON_HEAD =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';

function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

const STALLS: { name: string; respond: (socket: Socket) => void }[] = [
  { name: 'stalls before its headers', respond: () => undefined },
  { name: 'stalls after its headers (chunked)', respond: (socket) => socket.write(CHUNKED_JSON_HEAD) },
  {
    name: 'stalls half-way through an array element',
    respond: (socket) => socket.write(CHUNKED_JSON_HEAD + chunk('[\n{"id":"fedcba9876543210fedcba98')),
  },
  {
    name: 'stalls after a whole element',
    respond: (socket) =>
      socket.write(
        CHUNKED_JSON_HEAD + chunk('[\n{"id":"fedcba9876543210fedcba9876543210","status":"WORKING"}'),
      ),
  },
  {
    name: 'drips a body that never ends',
    respond: (socket) => {
      socket.write(CHUNKED_JSON_HEAD + chunk('['));
      const timer = setInterval(
        () => (socket.destroyed ? clearInterval(timer) : socket.write(chunk(' '))),
        20,
      );
    },
  },
  {
    name: 'stalls in an error body (500)',
    respond: (socket) =>
      socket.write(
        'HTTP/1.1 500 X\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{"detail":',
      ),
  },
];

describe('createConversationStreaming: cancelled by the caller', () => {
  const hostile = useHostileServer();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  after(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  for (const stall of STALLS) {
    it(`settles as cancelled within ${SETTLE_WITHIN_MS} ms when the server ${stall.name}`, async () => {
      let closed: Promise<void> | undefined;
      const baseUrl = hostile.callUrl((socket) => {
        closed = new Promise((resolve) => socket.once('close', () => resolve()));
        stall.respond(socket);
      });
      const client = new OpenHandsClient({
        baseUrl,
        apiKey: 'key-stream-cancel',
        // far beyond the test: only the abort may end the call
        timeoutMs: 30_000,
        streamTimeoutMs: 60_000,
      });
      const controller = new AbortController();
      const progress: string[] = [];
      const started = Date.now();
      const call = client.createConversationStreaming(
        { initial_message: { content: [{ type: 'text', text: 'Fix the build.' }] } },
        { signal: controller.signal, onProgress: (task) => progress.push(task.status) },
      );
      const settled = call.then(
        () => ({ error: undefined as unknown, at: Date.now() }),
        (error: unknown) => ({ error, at: Date.now() }),
      );
      setTimeout(() => controller.abort(), ABORT_AFTER_MS);
      const timeout = new Promise<'pending'>((resolve) =>
        setTimeout(() => resolve('pending'), ABORT_AFTER_MS + SETTLE_WITHIN_MS).unref(),
      );
      const outcome = await Promise.race([settled, timeout]);
      assert.notEqual(outcome, 'pending', `still pending ${SETTLE_WITHIN_MS} ms after abort()`);
      assert.ok(outcome !== 'pending');
      assert.ok(outcome.error instanceof ApiError, `expected an ApiError, got ${String(outcome.error)}`);
      assert.equal(outcome.error.kind, 'cancelled', outcome.error.message);
      assert.ok(outcome.at - started < ABORT_AFTER_MS + SETTLE_WITHIN_MS);
      // nothing left behind: the connection is closed, and no late rejection from the read loop or the race
      assert.ok(closed, 'the request reached the server');
      const connection = await Promise.race([
        closed.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('open'), SETTLE_WITHIN_MS).unref()),
      ]);
      assert.equal(connection, 'closed', 'the client closed the connection');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(unhandled, []);
    });
  }
});

// Only the stream itself may be silent for long: an error status, or a 200 page or text, is an ordinary
// reply, and a body of one that stalls must end by the request deadline, not the 15-minute stream one.
const REQUEST_TIMEOUT_MS = 300;
/** Event-loop slack on a busy machine; far below the stream deadline. */
const DEADLINE_SLACK_MS = 1500;

const NOT_THE_STREAM: { name: string; respond: (socket: Socket) => void }[] = [
  {
    name: 'a 500 whose JSON body stalls',
    respond: (socket) =>
      socket.write(
        'HTTP/1.1 500 X\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{"detail":"',
      ),
  },
  {
    name: 'a 200 HTML page (the SPA fallback) that stalls',
    respond: (socket) =>
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n<!doctype html>',
      ),
  },
  {
    name: 'a 200 in plain text that drips forever',
    respond: (socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      );
      const timer = setInterval(
        () => (socket.destroyed ? clearInterval(timer) : socket.write(chunk('.'))),
        20,
      );
    },
  },
];

describe('createConversationStreaming: a reply that is not the stream', () => {
  const hostile = useHostileServer();

  function clientFor(respond: (socket: Socket) => void): OpenHandsClient {
    return new OpenHandsClient({
      baseUrl: hostile.callUrl((socket) => respond(socket)),
      apiKey: 'key-not-the-stream',
      timeoutMs: REQUEST_TIMEOUT_MS,
      streamTimeoutMs: 60_000,
    });
  }

  const start = (client: OpenHandsClient) =>
    client
      .createConversationStreaming({
        initial_message: { content: [{ type: 'text', text: 'Fix the build.' }] },
      })
      .then(
        () => assert.fail('a reply that is not the stream must fail'),
        (error: unknown) => error,
      );

  for (const reply of NOT_THE_STREAM) {
    it(`times out by the request deadline on ${reply.name}`, async () => {
      const started = Date.now();
      const error = await start(clientFor(reply.respond));
      const elapsed = Date.now() - started;
      assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
      assert.equal(error.kind, 'timeout', error.message);
      assert.match(error.message, /within 0\.3 s/);
      assert.ok(elapsed < REQUEST_TIMEOUT_MS + DEADLINE_SLACK_MS, `settled after ${elapsed} ms`);
    });
  }

  it('says a whole 200 HTML page is not JSON (not that the server rejected the request)', async () => {
    const page = '<!doctype html><title>OpenHands</title>';
    const error = await start(
      clientFor((socket) =>
        socket.end(
          `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`,
        ),
      ),
    );
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.kind, 'invalid_response');
    assert.match(error.message, /with text\/html instead of JSON/);
  });
});
