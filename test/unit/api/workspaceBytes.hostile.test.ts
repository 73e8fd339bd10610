// The agent server's byte routes (the git-delta patch, a file's download) against a hostile server:
// every reply is either the exact bytes sent or an ApiError, settled by its deadline, with neither the
// sandbox's key nor a secret the server echoes in it.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { AgentServerClient, ApiError, type RequestLogEntry } from '../../../src/api';
import { useHostileServer } from './http/hostile/hostileServer';

const SESSION_KEY = 'sess-key-workspace-bytes-7f3a9c21';
const TIMEOUT_MS = 800;
/** Event-loop slack on a busy 2-core machine. */
const SLACK_MS = 1500;
const MAX_BYTES = 64 * 1024;

/** A patch with split UTF-8 (sent one byte at a time around it), a NUL, and bytes that are not UTF-8. */
const PATCH = Buffer.concat([
  Buffer.from('diff --git a/caf\u00e9.txt b/caf\u00e9.txt\n+\u65e5\u672c\u8a9e \ud83d\ude80\n', 'utf8'),
  Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0x0a]),
]);

function head(status: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status}\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`;
}

interface Scenario {
  name: string;
  respond(socket: Socket): void;
  /** The ApiError kind expected; none: the exact bytes. */
  kind?: string;
  /** What its message must say. */
  says?: RegExp;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'answers the bytes, some split one byte per write',
    respond: (socket) => {
      socket.write(
        head('200 OK', {
          'Content-Type': 'text/x-patch',
          'Content-Length': PATCH.length,
          'X-Archive-Base-Commit': 'a'.repeat(40),
        }),
      );
      let at = 0;
      const timer = setInterval(() => {
        if (socket.destroyed) return clearInterval(timer);
        const next = Math.min(PATCH.length, at + (at < 40 ? 1 : 16));
        socket.write(PATCH.subarray(at, next));
        at = next;
        if (at >= PATCH.length) {
          clearInterval(timer);
          socket.end();
        }
      }, 2);
    },
  },
  {
    name: 'answers the bytes gzipped',
    respond: (socket) => {
      const zipped = gzipSync(PATCH);
      socket.write(head('200 OK', { 'Content-Encoding': 'gzip', 'Content-Length': zipped.length }));
      socket.end(zipped);
    },
  },
  {
    // a lenient gunzip reads a cut stream as a shorter file: a truncated patch or file taken as whole
    name: 'answers the bytes gzipped, cut short (Content-Length matching the cut)',
    respond: (socket) => {
      const zipped = gzipSync(PATCH);
      const cut = zipped.subarray(0, zipped.length - 12);
      socket.write(head('200 OK', { 'Content-Encoding': 'gzip', 'Content-Length': cut.length }));
      socket.end(cut);
    },
    kind: 'invalid_response',
    says: /could not be decompressed/,
  },
  {
    name: 'answers a gzip bomb (a small body that unpacks past the size limit)',
    respond: (socket) => {
      const zipped = gzipSync(Buffer.alloc(MAX_BYTES * 16, 0x61));
      socket.write(head('200 OK', { 'Content-Encoding': 'gzip', 'Content-Length': zipped.length }));
      socket.end(zipped);
    },
    kind: 'invalid_response',
    says: /larger than/,
  },
  {
    name: 'answers in an encoding it was not offered',
    respond: (socket) => {
      socket.write(head('200 OK', { 'Content-Encoding': 'x-squash', 'Content-Length': PATCH.length }));
      socket.end(PATCH);
    },
    kind: 'invalid_response',
    says: /x-squash/,
  },
  {
    name: 'answers 500 in an encoding it was not offered',
    respond: (socket) => {
      socket.write(
        head('500 Internal Server Error', { 'Content-Encoding': 'x-squash', 'Content-Length': 4 }),
      );
      socket.end('\u0000\u0001\u0002\u0003');
    },
    kind: 'server',
  },
  {
    name: 'redirects elsewhere',
    respond: (socket) =>
      socket.end(head('302 Found', { Location: 'http://198.51.100.7/steal', 'Content-Length': 0 })),
    kind: 'invalid_response',
    says: /redirect/,
  },
  {
    name: 'cuts the body short',
    respond: (socket) => {
      socket.write(head('200 OK', { 'Content-Type': 'text/x-patch', 'Content-Length': 5000 }));
      socket.end(PATCH);
    },
    kind: 'network',
  },
  {
    name: 'sends more than the limit',
    respond: (socket) => {
      socket.write(head('200 OK', { 'Content-Type': 'text/x-patch' }));
      socket.end(Buffer.alloc(MAX_BYTES * 3, 0x61));
    },
    kind: 'invalid_response',
    says: /larger than/,
  },
  {
    name: 'stalls after its headers',
    respond: (socket) =>
      socket.write(head('200 OK', { 'Content-Type': 'text/x-patch', 'Content-Length': 100 })),
    kind: 'timeout',
  },
  {
    name: 'never answers',
    respond: () => undefined,
    kind: 'timeout',
  },
  {
    name: 'answers 500 echoing the session key',
    respond: (socket) => {
      const body = JSON.stringify({ detail: `Internal Server Error: key ${SESSION_KEY} rejected` });
      socket.end(
        head('500 Internal Server Error', {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        }) + body,
      );
    },
    kind: 'server',
  },
  {
    name: 'answers 400 with deep JSON',
    respond: (socket) => {
      const body = '{"detail":'.repeat(5000) + '1' + '}'.repeat(5000);
      socket.end(
        head('400 Bad Request', { 'Content-Type': 'application/json', 'Content-Length': body.length }) + body,
      );
    },
    kind: 'validation',
  },
  {
    name: 'answers broken HTTP',
    respond: (socket) => socket.end('HTTP/1.1 2OO NOPE\r\n\r\n\u0000garbage'),
    kind: 'invalid_response',
    says: /malformed HTTP reply/,
  },
];

describe('AgentServerClient byte routes against a hostile server', () => {
  const hostile = useHostileServer();

  for (const scenario of SCENARIOS) {
    for (const route of ['workspaceDelta', 'downloadFile'] as const) {
      it(`${route}: the server ${scenario.name}`, async () => {
        const logs: RequestLogEntry[] = [];
        const client = new AgentServerClient({
          endpoint: {
            baseUrl: hostile.callUrl((socket) => scenario.respond(socket)),
            sessionApiKey: SESSION_KEY,
            conversationId: 'f'.repeat(32),
          },
          timeoutMs: TIMEOUT_MS,
          archiveTimeoutMs: TIMEOUT_MS,
          maxResponseBytes: MAX_BYTES,
          onLog: (entry) => logs.push(entry),
          logBodies: true,
        });
        const started = Date.now();
        const call =
          route === 'workspaceDelta'
            ? client.workspaceDelta('/sandbox/dir', { exclude: ['a/'] }).then((delta) => delta.patch)
            : client.downloadFile('/sandbox/dir/file.bin');
        const outcome = await call.then(
          (bytes) => ({ bytes, error: undefined as unknown }),
          (error: unknown) => ({ bytes: undefined, error }),
        );
        assert.ok(Date.now() - started < TIMEOUT_MS + SLACK_MS, `settled after ${Date.now() - started} ms`);
        if (!scenario.kind) {
          assert.equal(outcome.error, undefined, `unexpected failure: ${String(outcome.error)}`);
          assert.ok(outcome.bytes && outcome.bytes.equals(PATCH), 'the exact bytes, split characters intact');
        } else {
          assert.ok(outcome.error instanceof ApiError, `expected an ApiError, got ${String(outcome.error)}`);
          assert.equal(outcome.error.kind, scenario.kind, outcome.error.message);
          if (scenario.says) assert.match(outcome.error.message, scenario.says);
        }
        for (const text of [
          String(outcome.error),
          inspect(outcome.error, { depth: 6 }),
          JSON.stringify(logs),
        ])
          assert.ok(!text.includes(SESSION_KEY), `the session key leaked: ${text.slice(0, 300)}`);
        assert.deepEqual(hostile.server.strays, [], 'a redirect was followed');
      });
    }
  }
});
