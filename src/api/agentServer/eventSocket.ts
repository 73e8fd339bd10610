/**
 * The agent server's event socket (`/sockets/events/<id>`): one JSON event per text frame. Pure
 * Node (`ws`: the extension host has no global WebSocket). Every way it can end is one `ApiError`
 * with the sandbox's key masked, and it ends by its deadlines whatever the server does: a handshake
 * that never completes, an auth frame never answered, a ping never answered, frames too large.
 */
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import { ApiError, messageOf, type ApiErrorInit, type ApiErrorKind } from '../errors';
import { redactUrl, scrubSecrets } from '../redact';
import { MAX_MESSAGE_CHARS, MAX_SERVER_TEXT_CHARS, clip, nestsDeeperThan, showable } from '../serverText';
import type { TlsOptions } from '../tls';
import { eventSocketUrl, type AgentEndpoint } from './endpoint';
import { AgentEventSchema, type AgentEvent } from './events';

/**
 * `first-message`: the key goes in the first frame, never in a URL or header (agent server 1.34).
 * `query`: `?session_api_key=` in the URL, for older agent servers that refuse a socket without it.
 */
export type SocketAuth = 'first-message' | 'query';

/**
 * ws, required when the first socket opens: the extension's build makes it a bundle of its own
 * (dist/ws.js), so a window that never follows a conversation never loads it. Its client module
 * and the whole package both export the class itself.
 */
function loadWebSocket(): typeof WebSocket {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own, loaded on first need
  return require('ws') as typeof WebSocket;
}

/** Stored events the server sends after the snapshot; none by default (the feed reads history over REST). */
export type SocketReplay = { mode: 'all' } | { mode: 'since'; afterTimestamp: string };

export interface EventSocketOptions {
  endpoint: AgentEndpoint;
  auth: SocketAuth;
  replay?: SocketReplay;
  /** From dialling to live: the handshake and, with first-message auth, the server's first frame. */
  connectTimeoutMs?: number;
  /** After this long with no word from the server (no byte: frame, ping or pong), the client pings. */
  pingIntervalMs?: number;
  /** A ping followed by no word at all for this long: the connection is dead (a half-open socket). */
  pongTimeoutMs?: number;
  /** Larger frames end the socket (uvicorn caps its own inbound frames at 16 MiB). */
  maxFrameBytes?: number;
  tls?: TlsOptions;
  signal?: AbortSignal;
  /** Each event, with the length of the frame that brought it (what holding it costs, roughly). */
  onEvent(event: AgentEvent, frameBytes?: number): void;
  /** A frame that was not an event was skipped; the socket goes on. */
  onProblem?(problem: ApiError): void;
}

export interface EventSocket {
  /** Settles (never rejects) when the socket has ended, with why; `cancelled` after `close()`. */
  readonly ended: Promise<ApiError>;
  /** Sends a JSON frame; false when the socket is not open. */
  send(frame: unknown): boolean;
  close(): void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
/**
 * The client's own keepalive, so a half-open connection (the sandbox gone, the TCP connection not
 * closed) is noticed in 15 s rather than never: the agent server (uvicorn 0.54, wsproto) pings every
 * 20 s and answers a ping at once, but a server need not ping, and waiting out its 20 s interval plus a
 * margin would take 30 s or more. A ping after 5 s of silence costs a few bytes, and only while the
 * agent is quiet (a thinking agent keeps the socket live by its pongs, however long it thinks). Ten
 * seconds for the answer is far past a round trip to a remote sandbox and leaves a busy server event
 * loop a few seconds; bytes still arriving (a large frame on a slow link, the pong queued behind it)
 * count as an answer.
 */
const DEFAULT_PING_INTERVAL_MS = 5000;
const DEFAULT_PONG_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
const MAX_JSON_DEPTH = 256;
/**
 * After the auth frame, how long without a close counts as accepted: the agent server refuses a bad
 * key or an unknown conversation at once (within 50 ms locally), but drops its full_state frame when
 * the socket is slow, and then says nothing until the agent does. Two seconds is well past a round
 * trip to a remote sandbox; a refusal that comes later still ends the socket.
 */
const AUTH_ACCEPTED_AFTER_MS = 2000;
/** Close codes the agent server uses. */
const AUTH_FAILED = 4001;
const NOT_FOUND = 4004;
const TRY_AGAIN_LATER = 1013;

/**
 * The socket was given up because the server said nothing for `silentMs`, not even the answer to a
 * ping: the sandbox is gone or cut off while the connection still looks open.
 */
export class SilentSocketError extends ApiError {
  constructor(
    init: ApiErrorInit,
    readonly silentMs: number,
  ) {
    super(init);
  }
}

/** Opens the socket; resolves once it is live, rejects with an `ApiError` by the connect deadline. */
export function openEventSocket(options: EventSocketOptions): Promise<EventSocket> {
  return new Promise((resolve, reject) => new SocketSession(options, resolve, reject).start());
}

class SocketSession implements EventSocket {
  readonly ended: Promise<ApiError>;
  private endWith!: (error: ApiError) => void;
  private socket: WebSocket | undefined;
  private live = false;
  private finished = false;
  private connectTimer: NodeJS.Timeout | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  /** The keepalive's next look (`tick`). */
  private keepaliveTimer: NodeJS.Timeout | undefined;
  /** When the server last said anything (performance.now()). */
  private lastHeardAt = 0;
  /** When the unanswered ping went out, if one did since the server last said anything. */
  private pingSentAt: number | undefined;
  /** The connection under the WebSocket, whose byte count shows a frame still arriving. */
  private transport: Socket | undefined;
  private bytesReadAtLastLook = 0;
  private readonly secrets: string[];
  private readonly path: string;

  constructor(
    private readonly options: EventSocketOptions,
    private readonly onLive: (socket: EventSocket) => void,
    private readonly onFailed: (error: ApiError) => void,
  ) {
    this.ended = new Promise((resolve) => (this.endWith = resolve));
    const key = options.endpoint.sessionApiKey;
    this.secrets = key ? [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)] : [];
    this.path = `/sockets/events/${options.endpoint.conversationId}`;
  }

  start(): void {
    const { signal } = this.options;
    if (signal?.aborted) return this.finish(this.error('cancelled', `${this.where()} was cancelled.`));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.connectTimer = setTimeout(() => {
      const seconds = Math.round((this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 100) / 10;
      this.finish(
        this.error('timeout', `The agent server did not open ${this.where()} within ${seconds} s.`),
      );
    }, this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    let socket: WebSocket;
    try {
      socket = new (loadWebSocket())(this.url(), {
        maxPayload: this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
        followRedirects: false,
        perMessageDeflate: false,
        handshakeTimeout: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        ...(this.options.tls ?? {}),
      });
    } catch (cause) {
      return this.finish(this.error('network', `Cannot open ${this.where()} (${this.reason(cause)}).`));
    }
    this.socket = socket;
    // the connection itself, to see bytes arrive while a frame is still incomplete
    socket.on('upgrade', (response) => (this.transport = response.socket));
    socket.on('open', () => this.opened());
    socket.on('message', (data, isBinary) => this.received(data, isBinary));
    socket.on('ping', () => this.heard());
    socket.on('pong', () => this.heard());
    socket.on('error', (cause) => this.failed(cause));
    socket.on('close', (code, reason) => this.closed(code, reason.toString('utf8')));
  }

  send(frame: unknown): boolean {
    if (this.finished || !this.socket || this.socket.readyState !== this.socket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  close(): void {
    this.finish(this.error('cancelled', `${this.where()} was closed.`));
  }

  private readonly onAbort = (): void => {
    this.finish(this.error('cancelled', `${this.where()} was cancelled.`));
  };

  private url(): string {
    const query = new URLSearchParams();
    const key = this.options.endpoint.sessionApiKey;
    if (this.options.auth === 'query' && key) query.set('session_api_key', key);
    const replay = this.options.replay;
    if (replay?.mode === 'all') {
      query.set('resend_mode', 'all');
      // older agent servers know only the deprecated flag; newer ones take either
      query.set('resend_all', 'true');
    } else if (replay?.mode === 'since') {
      query.set('resend_mode', 'since');
      query.set('after_timestamp', replay.afterTimestamp);
    }
    return eventSocketUrl(this.options.endpoint.baseUrl, this.options.endpoint.conversationId, query);
  }

  private opened(): void {
    this.heard();
    this.armKeepalive(this.pingIntervalMs);
    const key = this.options.endpoint.sessionApiKey;
    if (this.options.auth === 'first-message' && key) {
      this.socket?.send(JSON.stringify({ type: 'auth', session_api_key: key }));
      // live once the server answers: with a wrong key it closes 4001 instead
      this.authTimer = setTimeout(() => this.becomeLive(), AUTH_ACCEPTED_AFTER_MS);
      return;
    }
    this.becomeLive();
  }

  private becomeLive(): void {
    if (this.live || this.finished) return;
    this.live = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.authTimer);
    this.onLive(this);
  }

  private received(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.finished) return;
    this.heard();
    this.becomeLive();
    if (isBinary) return this.problem('a binary frame');
    const frame = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const text = frame.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      return this.problem(`a frame nested deeper than ${MAX_JSON_DEPTH} levels`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.problem(`a frame that is not JSON (${text.length} characters)`);
    }
    const parsed = AgentEventSchema.safeParse(json);
    if (!parsed.success) return this.problem('a frame that is not an event');
    try {
      this.options.onEvent(parsed.data, frame.length);
    } catch {
      // a failing listener must not end the socket
    }
  }

  private problem(what: string): void {
    try {
      this.options.onProblem?.(
        this.error('invalid_response', `The agent server sent ${what} on ${this.where()}; it was skipped.`),
      );
    } catch {
      // as above
    }
  }

  /** Any sign of life: a frame, a ping, a pong. Cheap, since it runs for every frame. */
  private heard(): void {
    this.lastHeardAt = performance.now();
    // the bytes of what was just heard are no news at the next look
    this.bytesReadAtLastLook = this.transport?.bytesRead ?? 0;
    if (this.pingSentAt === undefined) return;
    // answered: the next ping goes one interval from now, not when this one's deadline was due
    this.pingSentAt = undefined;
    this.armKeepalive(this.pingIntervalMs);
  }

  private get pingIntervalMs(): number {
    return this.options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  }

  private get pongTimeoutMs(): number {
    return this.options.pongTimeoutMs ?? DEFAULT_PONG_TIMEOUT_MS;
  }

  private armKeepalive(delayMs: number): void {
    if (this.finished) return;
    clearTimeout(this.keepaliveTimer);
    this.keepaliveTimer = setTimeout(() => this.tick(), Math.max(1, delayMs));
  }

  /**
   * The keepalive's look, one timer rather than one per frame: pings after `pingIntervalMs` of silence
   * and gives the socket up when that ping has had no answer for `pongTimeoutMs`.
   */
  private tick(): void {
    if (this.finished) return;
    this.noticeBytes();
    const now = performance.now();
    const silentMs = now - this.lastHeardAt;
    if (silentMs < this.pingIntervalMs) return this.armKeepalive(this.pingIntervalMs - silentMs);
    if (this.pingSentAt === undefined) {
      // timed from when it went out: a late timer (a busy extension host) must not shorten its wait
      this.pingSentAt = now;
      try {
        this.socket?.ping();
      } catch {
        // not open (closing): the close ends the socket
      }
      return this.armKeepalive(this.pongTimeoutMs);
    }
    const waitedMs = now - this.pingSentAt;
    if (waitedMs < this.pongTimeoutMs) return this.armKeepalive(this.pongTimeoutMs - waitedMs);
    // timers run before I/O in Node's loop: after a stall of this host, a pong may be waiting unread
    setImmediate(() => this.giveUpUnlessHeard(now));
  }

  private giveUpUnlessHeard(lookedAt: number): void {
    if (this.finished) return;
    this.noticeBytes();
    if (this.lastHeardAt >= lookedAt) return this.armKeepalive(this.pingIntervalMs);
    const silentMs = performance.now() - this.lastHeardAt;
    const seconds = Math.round(silentMs / 1000);
    this.finish(
      new SilentSocketError(
        this.errorInit(
          'timeout',
          `The agent server went silent on ${this.where()}: nothing for ${seconds} s, not even an answer to a ping.`,
        ),
        silentMs,
      ),
    );
  }

  /** Bytes that arrived since the last look are a sign of life, even if no frame is whole yet. */
  private noticeBytes(): void {
    if ((this.transport?.bytesRead ?? 0) !== this.bytesReadAtLastLook) this.heard();
  }

  private failed(cause: Error): void {
    const text = this.reason(cause);
    const status = /Unexpected server response: (\d{3})/.exec(cause.message)?.[1];
    if (status) {
      const code = Number(status);
      const kind: ApiErrorKind =
        code === 401 || code === 403
          ? 'unauthorized'
          : code === 404
            ? 'not_found'
            : code >= 500
              ? 'server'
              : 'invalid_response';
      return this.finish(this.error(kind, `The agent server refused ${this.where()} (HTTP ${code}).`, code));
    }
    const wsCode = (cause as { code?: unknown }).code;
    if (wsCode === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
      const limit = this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
      return this.finish(
        this.error(
          'invalid_response',
          `The agent server sent a frame larger than ${Math.round(limit / 1048576)} MB on ${this.where()}.`,
          undefined,
          limit,
        ),
      );
    }
    if (typeof wsCode === 'string' && wsCode.startsWith('WS_ERR_')) {
      return this.finish(
        this.error(
          'invalid_response',
          `The agent server broke the WebSocket protocol on ${this.where()} (${text}).`,
        ),
      );
    }
    this.finish(this.error('network', `Cannot reach the agent server for ${this.where()} (${text}).`));
  }

  private closed(code: number, reason: string): void {
    const said = showable(scrubSecrets(reason, this.secrets), MAX_SERVER_TEXT_CHARS);
    const because = said ? `: ${said}` : '';
    if (code === AUTH_FAILED)
      return this.finish(
        this.error('unauthorized', `The agent server refused the sandbox's key (${code}${because}).`),
      );
    if (code === NOT_FOUND)
      return this.finish(
        this.error('not_found', `The agent server does not know this conversation (${code}${because}).`),
      );
    if (code === TRY_AGAIN_LATER)
      return this.finish(
        this.error(
          'server',
          `The agent server has too many connections to this conversation (${code}${because}).`,
        ),
      );
    this.finish(
      this.error(
        'network',
        this.live
          ? `The agent server closed ${this.where()} (${code}${because}).`
          : `The agent server closed ${this.where()} before it was open (${code}${because}).`,
      ),
    );
  }

  private finish(error: ApiError): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.authTimer);
    clearTimeout(this.keepaliveTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    const socket = this.socket;
    if (socket) {
      socket.removeAllListeners();
      // a late error from the dying socket must not become an uncaught exception
      socket.on('error', () => undefined);
      socket.terminate();
    }
    if (!this.live) this.onFailed(error);
    this.endWith(error);
  }

  private where(): string {
    return `the event socket of conversation ${this.options.endpoint.conversationId}`;
  }

  private reason(cause: unknown): string {
    return showable(scrubSecrets(messageOf(cause), this.secrets), 200) || 'unknown error';
  }

  private error(kind: ApiErrorKind, message: string, status?: number, overLimitBytes?: number): ApiError {
    return new ApiError(this.errorInit(kind, message, status, overLimitBytes));
  }

  private errorInit(
    kind: ApiErrorKind,
    message: string,
    status?: number,
    overLimitBytes?: number,
  ): ApiErrorInit {
    return {
      kind,
      method: 'GET',
      path: redactUrl(this.path),
      status,
      overLimitBytes,
      message: clip(scrubSecrets(message, this.secrets), MAX_MESSAGE_CHARS),
    };
  }
}
