/**
 * The keep-alive connections of one server: an app server and its sandboxes' agent servers share one
 * `http` and one `https` agent, so a request reuses an open socket instead of opening a new one.
 * Whoever makes the clients owns the pool and closes it when the server changes or goes.
 */
import { Agent as HttpAgent, type AgentOptions as HttpAgentOptions } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TlsOptions } from './tls';

/**
 * An idle socket is closed after this long, before the server drops it (uvicorn waits 5 s), so a
 * request never goes out on a socket the server is closing; Node's own global agent waits 5 s.
 */
const IDLE_SOCKET_MS = 4000;
/** Sockets open at once per host; more requests wait for one. */
const MAX_SOCKETS_PER_HOST = 16;

export class ConnectionPool {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  private open = true;

  constructor(tls?: TlsOptions) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: MAX_SOCKETS_PER_HOST };
    const isOpen = () => this.open;
    this.http = new PooledHttpAgent(options, isOpen);
    this.https = new PooledHttpsAgent({ ...tls, ...options }, isOpen);
  }

  /**
   * Closes idle sockets now and busy ones as soon as their reply ends: a call in flight when the
   * server changes finishes, and nothing stays open for the old server.
   */
  close(): void {
    this.open = false;
    for (const agent of [this.http, this.https])
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.destroy();
  }

  /** Closes every socket at once, busy or not (the extension is going away). */
  dispose(): void {
    this.open = false;
    this.http.destroy();
    this.https.destroy();
  }
}

// Node destroys a socket whose agent declines to keep it (`keepSocketAlive` returns false).

class PooledHttpAgent extends HttpAgent {
  constructor(
    options: HttpAgentOptions,
    private readonly isOpen: () => boolean,
  ) {
    super(options);
  }

  override keepSocketAlive(socket: Duplex): boolean {
    return this.isOpen() && Boolean(super.keepSocketAlive(socket));
  }
}

class PooledHttpsAgent extends HttpsAgent {
  constructor(
    options: HttpsAgentOptions,
    private readonly isOpen: () => boolean,
  ) {
    super(options);
  }

  override keepSocketAlive(socket: Duplex): boolean {
    return this.isOpen() && Boolean(super.keepSocketAlive(socket));
  }
}
