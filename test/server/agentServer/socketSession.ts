// One accepted `/sockets/events/{id}` connection, as AS/sockets.py runs it: first-message auth when
// the handshake carried no key, then (after the conversation check) subscribe, one synthetic
// full_state, the replay in pages of 100 (live events interleave and may duplicate it), then
// inbound Message frames, each sent with run=true. A hostile setting ends each socket once connected.
import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import type { AgentConversations } from './conversations';
import type { AgentEvent } from './events';
import { messageSchema, toMessageContent, validationErrorText } from './requests';
import type { AgentRunner } from './runner';
import type { AgentServerSettings, SocketHostility } from './settings';
import { MAX_SUBSCRIBERS, type SocketHub } from './socketHub';
import { startKeepalive } from './keepalive';

export type ReplayMode = { kind: 'none' } | { kind: 'all' } | { kind: 'since'; after: string };

export interface SessionContext {
  conversations: AgentConversations;
  runner: AgentRunner;
  hub: SocketHub;
  settings: AgentServerSettings;
}

export interface SessionParams {
  sandboxId: string;
  conversationHex: string;
  /** The key the first auth frame must carry (the sandbox's, read at upgrade time). */
  sessionApiKey: string;
  /** True when the handshake already carried a valid key (query or header). */
  authenticated: boolean;
  replay: ReplayMode;
  /** The connection under the WebSocket, for frames `ws` would refuse to send (a protocol error). */
  transport: Duplex;
}

/** A text frame with the reserved opcode 3: a client must fail the connection (RFC 6455 §5.2). */
const RESERVED_OPCODE_FRAME = Buffer.from([0x83, 0x00]);

/** page_iterator's page size. */
const REPLAY_PAGE = 100;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `_is_auth_control_message`: an auth frame with nothing else in it, ignored once authenticated. */
function isAuthControl(value: unknown): boolean {
  return (
    isObject(value) &&
    value['type'] === 'auth' &&
    Object.keys(value).every((key) => key === 'type' || key === 'session_api_key')
  );
}

function firstFrameAuthenticates(text: string, key: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return false;
  }
  return isObject(data) && data['type'] === 'auth' && data['session_api_key'] === key;
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

export function runSession(socket: WebSocket, params: SessionParams, context: SessionContext): void {
  const { conversations, hub, runner, settings } = context;
  let phase: 'auth' | 'connecting' | 'open' | 'closed' = params.authenticated ? 'connecting' : 'auth';
  const queued: string[] = [];
  let unsubscribe = (): void => undefined;
  let authTimer: NodeJS.Timeout | undefined;

  hub.track(params.conversationHex, socket, params.transport);
  const stopKeepalive = startKeepalive(socket, settings.wsPingMs);
  socket.on('error', () => undefined);
  socket.once('close', () => {
    phase = 'closed';
    clearTimeout(authTimer);
    stopKeepalive();
    unsubscribe();
  });

  const send = (event: AgentEvent): void => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(event));
  };
  const failAuth = (): void => socket.close(4001, 'Authentication failed');

  const replay = async (mode: ReplayMode): Promise<void> => {
    if (mode.kind === 'none') return;
    let index = 0;
    for (;;) {
      // Re-read the log every page: events stored meanwhile are replayed too (and also arrive live).
      const target = conversations.find(params.conversationHex, params.sandboxId);
      if (!target) return;
      const events = target.agent.events;
      let sent = 0;
      while (index < events.length && sent < REPLAY_PAGE) {
        const event = events[index++];
        if (!event || (mode.kind === 'since' && event.timestamp < mode.after)) continue;
        send(event);
        sent++;
      }
      if (index >= events.length) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (socket.readyState !== WebSocket.OPEN) return;
    }
  };

  const handleFrame = (text: string): void => {
    const { factory } = conversations;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return send(factory.serverError('JSONDecodeError', 'Expecting value: line 1 column 1 (char 0)'));
    }
    if (isAuthControl(data)) return;
    const parsed = messageSchema.safeParse(data);
    if (!parsed.success)
      return send(factory.serverError('ValidationError', validationErrorText(parsed.error, 'Message')));
    // EventService.send_message asserts the role.
    if (parsed.data.role !== 'user') return send(factory.serverError('AssertionError', ''));
    const target = conversations.find(params.conversationHex, params.sandboxId);
    if (target) runner.sendMessage(target, toMessageContent(parsed.data.content), true);
  };

  const misbehave = (hostility: SocketHostility): void => {
    const timer = setTimeout(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (hostility.kind === 'close') socket.close(hostility.code, hostility.reason);
      else params.transport.write(RESERVED_OPCODE_FRAME);
    }, hostility.afterMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };

  const connect = async (): Promise<void> => {
    const target = conversations.find(params.conversationHex, params.sandboxId);
    if (!target) return socket.close(4004, 'Conversation not found');
    if (hub.subscriberCount(params.conversationHex) >= MAX_SUBSCRIBERS) {
      return socket.close(1013, 'Too many connections for this conversation');
    }
    unsubscribe = hub.subscribe(params.conversationHex, send);
    if (!settings.wsDropFullState) send(conversations.fullState(target));
    if (settings.wsHostility) misbehave(settings.wsHostility);
    await replay(params.replay);
    if (phase !== 'connecting') return;
    phase = 'open';
    for (const text of queued.splice(0)) handleFrame(text);
  };

  socket.on('message', (data) => {
    const text = frameText(data);
    if (phase === 'auth') {
      clearTimeout(authTimer);
      if (!firstFrameAuthenticates(text, params.sessionApiKey)) return failAuth();
      phase = 'connecting';
      void connect();
    } else if (phase === 'connecting') {
      queued.push(text);
    } else if (phase === 'open') {
      handleFrame(text);
    }
  });

  if (phase === 'auth') {
    authTimer = setTimeout(failAuth, settings.wsAuthTimeoutMs);
    authTimer.unref();
  } else {
    void connect();
  }
}
