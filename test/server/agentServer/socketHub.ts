// Who listens to which conversation: the subscribers a published event goes to (authenticated,
// subscribed sockets), every open socket (for counts and drops, auth still pending included), and
// the conversations whose new connections are refused for a while after a drop.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { AgentEvent } from './events';

export type Subscriber = (event: AgentEvent) => void;

/** AS/event_service.py: a conversation accepts at most this many subscribers (the next gets 1013). */
export const MAX_SUBSCRIBERS = 50;

export class SocketHub {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly refusedUntil = new Map<string, number>();
  /** The connection under each open socket, to cut it off (`silence`). */
  private readonly transports = new WeakMap<WebSocket, Duplex>();
  /** Sockets cut off by `silence`: no longer counted, still to be ended by `terminateAll`. */
  private readonly silenced = new Set<WebSocket>();

  /** Returns the unsubscribe function. */
  subscribe(conversationHex: string, subscriber: Subscriber): () => void {
    const set = this.subscribers.get(conversationHex) ?? new Set<Subscriber>();
    set.add(subscriber);
    this.subscribers.set(conversationHex, set);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(conversationHex) === set)
        this.subscribers.delete(conversationHex);
    };
  }

  subscriberCount(conversationHex: string): number {
    return this.subscribers.get(conversationHex)?.size ?? 0;
  }

  publish(conversationHex: string, event: AgentEvent): void {
    for (const subscriber of [...(this.subscribers.get(conversationHex) ?? [])]) subscriber(event);
  }

  /** Counts the socket until it closes; `transport` is the connection under it. */
  track(conversationHex: string, socket: WebSocket, transport: Duplex): void {
    const set = this.sockets.get(conversationHex) ?? new Set<WebSocket>();
    set.add(socket);
    this.sockets.set(conversationHex, set);
    this.transports.set(socket, transport);
    socket.once('close', () => {
      this.silenced.delete(socket);
      set.delete(socket);
      if (set.size === 0 && this.sockets.get(conversationHex) === set) this.sockets.delete(conversationHex);
    });
  }

  socketCount(conversationHex: string): number {
    return this.sockets.get(conversationHex)?.size ?? 0;
  }

  socketCounts(): Record<string, number> {
    return Object.fromEntries([...this.sockets].map(([id, set]) => [id, set.size]));
  }

  /** Kills every socket of the conversation without a close frame (the client sees 1006). */
  drop(conversationHex: string, refuseMs = 0): number {
    const set = this.sockets.get(conversationHex);
    const count = set?.size ?? 0;
    // Counted as gone at once, not when the 'close' event comes round.
    this.sockets.delete(conversationHex);
    for (const socket of [...(set ?? [])]) socket.terminate();
    if (refuseMs > 0) this.refusedUntil.set(conversationHex, Date.now() + refuseMs);
    return count;
  }

  /**
   * A half-open connection: the sandbox is gone but nobody closed the TCP connection. Each socket of
   * the conversation stops reading (so no pong) and writing (events, pings and closes stay queued), and
   * is counted as gone at once; the client can only notice by the silence.
   */
  silence(conversationHex: string): number {
    const set = this.sockets.get(conversationHex);
    const count = set?.size ?? 0;
    this.sockets.delete(conversationHex);
    for (const socket of [...(set ?? [])]) {
      this.silenced.add(socket);
      const transport = this.transports.get(socket);
      transport?.pause();
      // ws uncorks after each frame it writes; one cork more keeps everything queued
      transport?.cork();
    }
    return count;
  }

  isRefused(conversationHex: string): boolean {
    const until = this.refusedUntil.get(conversationHex);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.refusedUntil.delete(conversationHex);
    return false;
  }

  clearRefusals(): void {
    this.refusedUntil.clear();
  }

  /** Ends the sockets `silence` cut off (they would otherwise stay subscribed until the server stops). */
  terminateSilenced(): void {
    for (const socket of [...this.silenced]) socket.terminate();
  }

  terminateAll(): void {
    for (const set of this.sockets.values()) for (const socket of [...set]) socket.terminate();
    this.terminateSilenced();
  }
}
