// How the hostile server answers one call. Each scenario writes raw bytes to the socket, and says what
// the client must make of it beyond the rules every call obeys (an ApiError or a correct value, settled
// by its deadline, no secret anywhere).
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { ApiError } from '../../../../../src/api';
import type { Prng } from '../../../../server/prng';
import type { ReceivedRequest } from './hostileServer';
import type { Operation } from './operations';

export interface ScenarioContext {
  rng: Prng;
  operation: Operation;
  /** Text with multibyte characters that a correct reply carries; must come back intact. */
  text: string;
  /** Where a cross-origin redirect points (a server that records whatever reaches it). */
  elsewhereUrl: string;
  callId: number;
  /** Client timeout, for scenarios that must stay just under or go just over it. */
  timeoutMs: number;
  /**
   * Secrets a scenario put into its replies (a sandbox's session key): the client reads them, so they
   * must stay out of every error and log entry just like what it sent.
   */
  received: string[];
}

/** The client's timeouts for a call; scenarios that must run into them use short ones. */
export interface Timing {
  timeoutMs: number;
  streamTimeoutMs: number;
}

/** Generous, so that a loaded machine never makes a correct exchange time out. */
export const DEFAULT_TIMING: Timing = { timeoutMs: 4000, streamTimeoutMs: 8000 };
/** For silence and drips: the deadline is what is being tested, and waiting for it costs the run. */
const SHORT_TIMING: Timing = { timeoutMs: 300, streamTimeoutMs: 1000 };

export interface Scenario {
  name: string;
  /** The client's timeouts for this scenario and operation; `DEFAULT_TIMING` when absent. */
  timing?(operation: Operation): Timing;
  /** `ok` must give the operation's correct value; `error` must give an ApiError. */
  outcome: 'ok' | 'error';
  respond(socket: Socket, request: ReceivedRequest, attempt: number, context: ScenarioContext): void;
  /** Further checks of the error this scenario must produce; returns what is wrong, or undefined. */
  checkError?(error: ApiError): string | undefined;
  /**
   * The reply is not the stream (an error status, a page): a streamed call must settle by the request
   * deadline like any other, not the stream's.
   */
  notTheStream?: boolean;
  /**
   * The reply may be a well-framed 2xx of the wrong content (a page, cut or malformed JSON): a byte call
   * (a file, a patch) takes it as it is, where a JSON call must fail.
   */
  bytesMayPass?: boolean;
}

const JSON_TYPE = 'application/json';

function head(status: number | string, headers: Record<string, string | number>): string {
  const reason = typeof status === 'number' ? 'X' : '';
  const lines = [`HTTP/1.1 ${status} ${reason}`.trimEnd(), 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A whole reply with a body, sent in small random pieces (so UTF-8 characters split across packets). */
function reply(
  socket: Socket,
  context: ScenarioContext,
  status: number,
  contentType: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  const bytes = Buffer.from(body, 'utf8');
  socket.write(head(status, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...extra }));
  writeInPieces(socket, context, bytes, () => socket.end());
}

function writeInPieces(socket: Socket, context: ScenarioContext, bytes: Buffer, done: () => void): void {
  let offset = 0;
  const step = () => {
    if (socket.destroyed) return;
    if (offset >= bytes.length) return done();
    // small pieces where the text is (the start), then the rest at once: thousands of writes per reply
    // would measure the server, not the client
    const size = offset < 2048 ? context.rng.int(1, 64) : bytes.length - offset;
    socket.write(bytes.subarray(offset, offset + size));
    offset += size;
    // yielding between pieces makes them separate reads on the client's side
    setImmediate(step);
  };
  step();
}

function chunked(parts: string[]): string {
  return parts.map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`).join('') + '0\r\n\r\n';
}

/** A correct reply: a JSON value, or for a stream its elements as a chunked JSON array. */
function correct(
  socket: Socket,
  attempt: number,
  context: ScenarioContext,
  silenceMs = 0,
  value = context.operation.reply(context.text, attempt),
): void {
  if (!context.operation.streamed) {
    reply(socket, context, 200, JSON_TYPE, JSON.stringify(value));
    return;
  }
  const elements = (value as unknown[]).map((element) => JSON.stringify(element));
  socket.write(head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }));
  const body = Buffer.from(chunked(['[\n', elements.join(',\n'), '\n]']), 'utf8');
  setTimeout(() => writeInPieces(socket, context, body, () => socket.end()), silenceMs);
}

function deepJson(depth: number): string {
  return `{"items":${'['.repeat(depth)}${']'.repeat(depth)},"next_page_id":null}`;
}

/** Everything the server received, as a hostile server would repeat it back. */
function echo(request: ReceivedRequest): string {
  return `Invalid credentials ${Object.values(request.headers).join(' ')} for ${request.path} with ${request.body}`;
}

/** A fresh session key for one reply, recorded as a secret the client received. */
function sessionKey(context: ScenarioContext): string {
  const key = `sess-${context.rng.hex(24)}`;
  context.received.push(key);
  return key;
}

/** The value with a field of the wrong type, the session key kept: every operation's schema refuses it. */
function wrongShape(value: unknown, key: string): unknown {
  const echo = `sandbox answers with ${key}`;
  if (Array.isArray(value)) return value.map((item: object) => ({ ...item, id: 42, path: 42, detail: echo }));
  return {
    ...(value as object),
    next_page_id: 7,
    message: 7,
    success: 'yes',
    llm_model: 5,
    modified: 7,
    detail: echo,
  };
}

function notCannotReach(error: ApiError): string | undefined {
  return /Cannot reach/.test(error.message)
    ? `says "Cannot reach" for a server that answered: ${error.message}`
    : undefined;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'correct',
    outcome: 'ok',
    respond: (socket, _request, attempt, context) => correct(socket, attempt, context),
  },
  {
    name: 'correct, after a silence longer than the timeout (streams only wait between items)',
    outcome: 'ok',
    // only a stream may be silent past the request timeout; a plain request gets a plain correct reply
    timing: (operation) => (operation.streamed ? { timeoutMs: 1500, streamTimeoutMs: 8000 } : DEFAULT_TIMING),
    respond: (socket, _request, attempt, context) =>
      context.operation.streamed
        ? correct(socket, attempt, context, context.timeoutMs * 1.5)
        : correct(socket, attempt, context),
  },
  {
    name: 'redirect to another origin',
    outcome: 'error',
    respond: (socket, request, _attempt, context) => {
      const status = context.rng.pick([301, 302, 303, 307, 308]);
      const location = `${context.elsewhereUrl}/c${context.callId}${request.path}`;
      socket.end(head(status, { Location: location, 'Content-Length': 0 }));
    },
    checkError: (error) =>
      error.kind === 'invalid_response' && /redirect/.test(error.message)
        ? undefined
        : `redirect reported as ${error.kind}: ${error.message}`,
  },
  {
    name: 'redirect to the same origin, echoing the key in the Location',
    outcome: 'error',
    respond: (socket, request, _attempt, context) => {
      const key =
        request.headers['x-session-api-key'] ??
        request.headers['x-access-token'] ??
        request.headers.authorization ??
        '';
      // outside every call's prefix: a followed redirect shows up among the server's strays
      socket.end(
        head(context.rng.pick([302, 303, 308]), {
          Location: `/moved/${encodeURIComponent(key)}?token=${key}`,
          'Content-Length': 0,
        }),
      );
    },
    checkError: (error) =>
      /redirect/.test(error.message) ? undefined : `redirect not named: ${error.message}`,
  },
  {
    name: 'bad chunk size',
    outcome: 'error',
    respond: (socket) =>
      socket.end(
        `${head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' })}zz\r\n{}\r\n0\r\n\r\n`,
      ),
    checkError: notCannotReach,
  },
  {
    name: 'bad header line',
    outcome: 'error',
    respond: (socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nBad Header Without Colon\r\n\r\n{}'),
    checkError: notCannotReach,
  },
  {
    name: 'invalid status line',
    outcome: 'error',
    respond: (socket, _request, _attempt, context) =>
      socket.end(
        context.rng.pick([
          'HTTP/1.1 abc OK\r\n\r\n{}',
          'HTTP/9.9 200\r\n\r\n',
          'SMTP ready\r\n\r\n',
          'HTTP/1.1 2000 OK\r\n\r\n',
        ]),
      ),
    checkError: notCannotReach,
  },
  {
    name: 'gzip lie',
    outcome: 'error',
    respond: (socket, _request, attempt, context) => {
      const body = JSON.stringify(context.operation.reply(context.text, attempt));
      socket.end(
        head(200, {
          'Content-Type': JSON_TYPE,
          'Content-Encoding': 'gzip',
          'Content-Length': Buffer.byteLength(body),
        }) + body,
      );
    },
    checkError: notCannotReach,
  },
  {
    name: 'gzip cut short',
    outcome: 'error',
    respond: (socket, _request, attempt, context) => {
      const zipped = gzipSync(JSON.stringify(context.operation.reply(context.text, attempt)));
      const cut = zipped.subarray(0, Math.max(1, zipped.length - 12));
      socket.write(
        head(200, { 'Content-Type': JSON_TYPE, 'Content-Encoding': 'gzip', 'Content-Length': cut.length }),
      );
      socket.end(cut);
    },
  },
  {
    name: 'body cut mid-way (Content-Length promises more)',
    outcome: 'error',
    respond: (socket, _request, attempt, context) => {
      const body = Buffer.from(JSON.stringify(context.operation.reply(context.text, attempt)));
      socket.write(head(200, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length + 500 }));
      socket.write(body.subarray(0, Math.floor(body.length / 2)));
      setTimeout(() => socket.destroy(), 5);
    },
  },
  {
    name: 'chunked body cut mid-way',
    outcome: 'error',
    respond: (socket, _request, attempt, context) => {
      const body = JSON.stringify(context.operation.reply(context.text, attempt));
      socket.write(head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }));
      socket.write(`${Buffer.byteLength(body).toString(16)}\r\n${body.slice(0, 10)}`);
      setTimeout(() => socket.destroy(), 5);
    },
  },
  {
    name: 'stream that ends cleanly before its array closes',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, attempt, context) => {
      const value = context.operation.reply(context.text, attempt);
      const first = JSON.stringify(Array.isArray(value) ? value[0] : value);
      socket.end(
        head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }) + chunked(['[', first]),
      );
    },
  },
  {
    name: 'deeply nested JSON',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, _attempt, context) => {
      const depth = context.rng.int(2_000, 120_000);
      const status = context.rng.pick([200, 200, 422, 500]);
      if (context.operation.streamed && status === 200) {
        socket.end(
          head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }) +
            chunked(['[', '['.repeat(depth)]),
        );
      } else reply(socket, context, status, JSON_TYPE, deepJson(depth));
    },
  },
  {
    name: "a reply too deep to parse, quoting an MCP stdio server's env as one string",
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, _attempt, context) => {
      // values the client never sent nor read: only their field's name says they are secrets
      const values = [`envs-${context.rng.hex(16)}`, `envs-${context.rng.hex(16)}`];
      context.received.push(...values);
      const depth = context.rng.int(257, 600);
      const server = `{"name":"tools","command":"npx","env":"TOKEN=${values[0]},OTHER=${values[1]}"}`;
      const body = `{"mcp_config":{"stdio_servers":[${server}]},"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const contentType = context.rng.pick([JSON_TYPE, 'text/plain']);
      reply(socket, context, context.rng.pick([200, 200, 400, 500]), contentType, body);
    },
  },
  {
    name: 'echoes every secret it received',
    outcome: 'error',
    respond: (socket, request, _attempt, context) => {
      const said = echo(request);
      const form = context.rng.int(0, 6);
      const status = context.rng.pick([400, 401, 403, 404, 409, 422, 500, 503]);
      if (form === 0) reply(socket, context, status, JSON_TYPE, JSON.stringify({ detail: said }));
      else if (form === 1)
        reply(socket, context, status, JSON_TYPE, JSON.stringify({ error: said, message: said }));
      else if (form === 2) reply(socket, context, status, 'text/plain', said);
      else if (form === 3) reply(socket, context, status, JSON_TYPE, JSON.stringify(said));
      else if (form === 4) {
        const detail = [{ loc: ['body', said], msg: said, type: said, input: request.body }];
        reply(socket, context, 422, JSON_TYPE, JSON.stringify({ detail }));
      } else if (form === 5)
        reply(socket, context, 429, JSON_TYPE, JSON.stringify({ message: said }), { 'Retry-After': '0' });
      else reply(socket, context, 500, JSON_TYPE, JSON.stringify({ items: said, detail: { said } }));
    },
  },
  {
    name: 'echoes the secrets inside a reply of the right shape',
    outcome: 'ok',
    respond: (socket, request, attempt, context) => {
      // the value itself may hold what the server sends; the log must not
      const value = context.operation.reply(context.text, attempt);
      const target = Array.isArray(value) ? value[0] : value;
      if (target !== null && typeof target === 'object') Object.assign(target, { echo: echo(request) });
      if (!context.operation.streamed) reply(socket, context, 200, JSON_TYPE, JSON.stringify(value));
      else correct(socket, attempt, context);
    },
  },
  {
    name: 'a malformed reply that carries a session key (cut, wrong shape, or quoted by an error)',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, attempt, context) => {
      const key = sessionKey(context);
      const value = context.operation.replyWithKey(context.text, attempt, key);
      const json = JSON.stringify(value);
      const form = context.rng.int(0, 3);
      if (form === 0) {
        // cut somewhere after the key, before the end: the part that arrived is what the log quotes
        const end = Math.min(json.length - 1, json.indexOf(key) + key.length + context.rng.int(0, 40));
        const cut = json.slice(0, end);
        if (!context.operation.streamed) reply(socket, context, 200, JSON_TYPE, cut);
        else
          socket.end(
            head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }) + chunked([cut]),
          );
      } else if (form === 1) {
        const wrong = JSON.stringify(wrongShape(value, key));
        if (!context.operation.streamed) reply(socket, context, 200, JSON_TYPE, wrong);
        else
          socket.end(
            head(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' }) + chunked([wrong]),
          );
      } else if (form === 2) {
        const status = context.rng.pick([400, 409, 422, 500, 502, 503]);
        reply(socket, context, status, JSON_TYPE, JSON.stringify({ detail: json }));
      } else reply(socket, context, context.rng.pick([500, 502]), 'text/plain', `upstream answered ${json}`);
    },
  },
  {
    name: 'a correct reply that carries a session key, echoed in free text too',
    outcome: 'ok',
    respond: (socket, _request, attempt, context) => {
      // the value may hold what the server sends; the log (with bodies) must not
      const key = sessionKey(context);
      const value = context.operation.replyWithKey(context.text, attempt, key);
      const target = Array.isArray(value) ? value.at(-1) : value;
      if (target !== null && typeof target === 'object')
        Object.assign(target, { status_detail: `started with session key ${key}` });
      correct(socket, attempt, context, 0, value);
    },
  },
  {
    name: 'huge or odd Retry-After',
    outcome: 'error',
    respond: (socket, _request, _attempt, context) => {
      const retryAfter = context.rng.pick([
        '3600',
        '86400',
        '99999999999',
        'Fri, 31 Dec 9999 23:59:59 GMT',
        '-5',
        'soon',
        '1e400',
      ]);
      reply(socket, context, 429, JSON_TYPE, '{"message":"Too many requests"}', {
        'Retry-After': retryAfter,
      });
    },
    checkError: (error) => {
      if (error.kind !== 'rate_limited') return `429 reported as ${error.kind}`;
      if ((error.retryAfterMs ?? 0) >= 3_600_000 && /in a moment/.test(error.message))
        return `says "in a moment" for ${error.retryAfterMs} ms`;
      return undefined;
    },
  },
  {
    name: 'control characters, escape sequences and a very long message',
    outcome: 'error',
    respond: (socket, _request, _attempt, context) => {
      const said = `line one\r\nline two\u001b[31m red \u0007\u202e txet desrever ${'x'.repeat(context.rng.int(10, 20_000))}`;
      reply(socket, context, context.rng.pick([400, 500]), JSON_TYPE, JSON.stringify({ detail: said }));
    },
    checkError: (error) => {
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f-\u009f\u202e]/.test(error.message))
        return 'control characters in the message';
      if (error.message.length > 1000) return `message of ${error.message.length} characters`;
      return undefined;
    },
  },
  {
    name: 'no content',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket) => socket.end(head(204, {})),
    checkError: (error) =>
      /no content type/.test(error.message) ? `204 reported as: ${error.message}` : undefined,
  },
  {
    name: 'HTML page (SPA fallback)',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, _attempt, context) =>
      reply(socket, context, 200, 'text/html; charset=utf-8', '<!doctype html><title>OpenHands</title>'),
  },
  {
    name: 'JSON of the wrong shape',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, _attempt, context) =>
      reply(
        socket,
        context,
        200,
        JSON_TYPE,
        context.operation.streamed
          ? '[{"id":42}]'
          : '{"items":"nope","message":7,"success":"yes","llm_model":5,"modified":7}',
      ),
  },
  {
    name: 'truncated JSON',
    outcome: 'error',
    bytesMayPass: true,
    respond: (socket, _request, attempt, context) => {
      const body = JSON.stringify(context.operation.reply(context.text, attempt));
      reply(socket, context, 200, JSON_TYPE, body.slice(0, Math.max(1, body.length - 3)));
    },
  },
  {
    name: 'larger than the client accepts',
    outcome: 'error',
    respond: (socket, _request, _attempt, context) =>
      reply(socket, context, 200, JSON_TYPE, `{"items":[],"pad":"${'y'.repeat(300_000)}"}`),
  },
  {
    name: 'never answers',
    outcome: 'error',
    timing: () => SHORT_TIMING,
    respond: () => undefined,
    checkError: (error) => (error.kind === 'timeout' ? undefined : `silence reported as ${error.kind}`),
  },
  {
    name: 'an error status, or a 200 page or text, whose body then stalls or drips',
    outcome: 'error',
    notTheStream: true,
    // a stream deadline far past the request's: a stream call that waits for it is late
    timing: () => ({ timeoutMs: SHORT_TIMING.timeoutMs, streamTimeoutMs: 8000 }),
    respond: (socket, _request, _attempt, context) => {
      const [status, contentType, start] = context.rng.pick([
        [500, JSON_TYPE, '{"detail":"Internal'],
        [404, JSON_TYPE, '{"detail":'],
        [502, 'text/html', '<html><body>Bad'],
        [200, 'text/html; charset=utf-8', '<!doctype html><title>'],
        [200, 'text/plain', 'Starting'],
      ] as const);
      socket.write(head(status, { 'Content-Type': contentType, 'Content-Length': 100_000 }) + start);
      if (context.rng.chance(0.5)) return;
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(' ')), 40);
    },
    checkError: (error) =>
      error.kind === 'timeout' ? undefined : `a stalled body reported as ${error.kind}`,
  },
  {
    name: 'answers the head, then drips forever',
    outcome: 'error',
    timing: () => SHORT_TIMING,
    respond: (socket) => {
      socket.write(head(200, { 'Content-Type': JSON_TYPE, 'Content-Length': 100_000 }));
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(' ')), 40);
    },
  },
  {
    name: 'resets the connection',
    outcome: 'error',
    respond: (socket) => socket.resetAndDestroy(),
  },
  {
    name: 'closes without a word',
    outcome: 'error',
    respond: (socket) => socket.end(),
  },
];
