// The WebSocket handshake of `<agent-server base>/sockets/events/{conversation_id}`: what is refused
// before the socket is accepted, and how. uvicorn turns a close before accept (bad query/header key,
// invalid parameters) into an HTTP 403 handshake rejection; a sandbox that is not running has no
// agent server to answer (503, like the `health` route).
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { normalizeUuid } from '../scalars';
import { findSandbox, type ServerState } from '../state';
import { normalizeTimestampParam } from './naiveTime';
import { runSession, type ReplayMode, type SessionContext } from './socketSession';

const EVENTS_SOCKET_PATH =
  /^\/__sandboxes\/(?<sandboxId>[^/]+)\/agent-server\/sockets\/events\/(?<conversationId>[^/]+)$/;
/** uvicorn's `ws_max_size`. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const TRUE_VALUES = new Set(['1', 'true', 't', 'on', 'yes', 'y']);
const FALSE_VALUES = new Set(['0', 'false', 'f', 'off', 'no', 'n']);

export interface UpgradeContext extends SessionContext {
  state: ServerState;
}

function refuse(socket: Duplex, status: number, body = ''): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The replay the query asks for; `null` when a parameter fails validation (a 403 handshake). */
function replayMode(query: URLSearchParams, legacy: boolean): ReplayMode | null {
  const resendAllRaw = query.getAll('resend_all').pop();
  let resendAll = false;
  if (resendAllRaw !== undefined) {
    const lowered = resendAllRaw.toLowerCase();
    if (TRUE_VALUES.has(lowered)) resendAll = true;
    else if (!FALSE_VALUES.has(lowered)) return null;
  }
  // Older servers know only `resend_all`.
  if (legacy) return resendAll ? { kind: 'all' } : { kind: 'none' };
  const mode = query.getAll('resend_mode').pop();
  const afterRaw = query.getAll('after_timestamp').pop();
  const after = afterRaw === undefined ? undefined : normalizeTimestampParam(afterRaw);
  if (after === null) return null;
  if (mode !== undefined && mode !== 'all' && mode !== 'since') return null;
  const effective = mode ?? (resendAll ? 'all' : undefined);
  if (effective === 'all') return { kind: 'all' };
  // `since` without after_timestamp only logs a warning: nothing is replayed.
  if (effective === 'since' && after !== undefined) return { kind: 'since', after };
  return { kind: 'none' };
}

export class AgentSocketServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  constructor(private readonly context: UpgradeContext) {}

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    const url = new URL(request.url ?? '/', 'http://server.invalid');
    const match = EVENTS_SOCKET_PATH.exec(url.pathname);
    if (!match?.groups) return refuse(socket, 404, 'Not Found');
    const sandboxId = decode(match.groups['sandboxId'] ?? '');
    const sandbox = findSandbox(this.context.state, sandboxId);
    if (sandbox?.status !== 'RUNNING') return refuse(socket, 503, 'Sandbox is not running');
    const conversationHex = normalizeUuid(decode(match.groups['conversationId'] ?? ''));
    if (conversationHex === null) return refuse(socket, 403);
    // After a control "drop": the connection fails at the network level.
    if (this.context.hub.isRefused(conversationHex)) {
      socket.destroy();
      return;
    }
    const { legacy } = this.context.settings;
    const replay = replayMode(url.searchParams, legacy);
    if (replay === null) return refuse(socket, 403);
    const queryKey = url.searchParams.getAll('session_api_key').pop();
    // Query wins over the header; older servers read the query only.
    const presented = legacy ? queryKey : (queryKey ?? headerValue(request, 'x-session-api-key'));
    if (presented === undefined ? legacy : presented !== sandbox.session_api_key) return refuse(socket, 403);
    this.wss.handleUpgrade(request, socket, head, (webSocket) =>
      runSession(
        webSocket,
        {
          sandboxId,
          conversationHex,
          sessionApiKey: sandbox.session_api_key,
          authenticated: presented !== undefined,
          replay,
          transport: socket,
        },
        this.context,
      ),
    );
  }

  close(): void {
    this.wss.close();
  }
}
