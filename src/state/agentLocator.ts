/**
 * Where a conversation's agent server is, for every REST call to it (steering, the changes list and
 * its files, the feed's connections), under one rule: use the address remembered while the sandbox
 * runs (`AgentAddresses`); without one, ask the app server; when a call to a remembered address finds
 * it gone (refused, 401, 404: nothing was done), forget it, ask the app server once and call again.
 * So a call from an open panel is one request. Addresses and keys stay in memory only.
 * No vscode import: unit-tested in Node against the test server.
 */
import {
  agentEndpointOf,
  ApiError,
  sleep,
  type AgentEndpoint,
  type AgentServerClient,
  type AppConversation,
  type OpenHandsClient,
} from '../api';
import { AgentAddresses, isStaleAddress } from './agentAddresses';

/** The time a just-started conversation's wait sleeps by: the system's, or a test's that sleeps no real time. */
export interface LocatorClock {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const SYSTEM_CLOCK: LocatorClock = {
  sleep: (ms, signal) =>
    sleep(ms, signal, () => new ApiError({ kind: 'cancelled', message: 'Stopped waiting for the sandbox.' })),
};

/**
 * A conversation that has just started is asked for this many times at most, this far apart. 1.11 works out
 * a sandbox's status on each request with a health check of its agent server (`/alive`, 5 s), and one that
 * misses makes it STARTING or ERROR, without an address, for that reply only: a few seconds outlast it.
 */
export const JUST_STARTED_ASKS = 5;
export const JUST_STARTED_INTERVAL_MS = 1000;

/** Failures of a request to the app server that the same request may not meet a moment later. */
const PASSING_KINDS = new Set(['network', 'timeout', 'server', 'rate_limited']);
/** What 1.11 says of a running sandbox whose health check missed (RUNNING: without its address). */
const MISSED_STATUSES = new Set(['STARTING', 'ERROR', 'RUNNING']);

export interface AgentLocatorDeps {
  /** The app server's client of the moment (throws when there is none). */
  appClient(): OpenHandsClient;
  /** A REST client of an agent server. */
  clientFor(endpoint: AgentEndpoint): AgentServerClient;
  /** Why a conversation cannot be reached now: unknown to the app server, or its sandbox not running. */
  unreachable(conversation: AppConversation | undefined): Error;
}

export class AgentLocator {
  /** Where the agent servers of running sandboxes are, as the feeds and the last calls read it. */
  readonly addresses = new AgentAddresses();

  constructor(private readonly deps: AgentLocatorDeps) {}

  /** A client of the remembered address, without a request; undefined when none is known. */
  remembered(conversationId: string): AgentServerClient | undefined {
    const endpoint = this.addresses.get(conversationId);
    return endpoint ? this.deps.clientFor(endpoint) : undefined;
  }

  /** The app server's view of a conversation now (undefined: it does not know it); its address is remembered. */
  async ask(conversationId: string, signal?: AbortSignal): Promise<AppConversation | undefined> {
    const [conversation] = await this.deps.appClient().getConversations([conversationId], { signal });
    if (conversation) this.addresses.remember(conversation);
    return conversation ?? undefined;
  }

  /** Why a conversation cannot be reached now (undefined: the app server does not know it). */
  unreachable(conversation: AppConversation | undefined): Error {
    return this.deps.unreachable(conversation);
  }

  /** The agent server of a conversation as the app server says now, or why it cannot be reached. */
  async locate(conversationId: string, signal?: AbortSignal): Promise<AgentServerClient> {
    const conversation = await this.ask(conversationId, signal);
    const endpoint = conversation && agentEndpointOf(conversation);
    if (conversation?.sandbox_status !== 'RUNNING' || !endpoint) throw this.deps.unreachable(conversation);
    return this.deps.clientFor(endpoint);
  }

  /**
   * The agent server of a conversation whose start task is READY. The app server reached it a moment ago
   * (1.11 turns READY only after its own call to it), so a reply that names the conversation without it
   * (STARTING or ERROR: the health check missed; unknown), or a request that failed on the way, is asked
   * again, `JUST_STARTED_ASKS` times in all; then it fails as `locate` does. A paused or missing sandbox
   * fails at once.
   */
  async locateJustStarted(
    conversationId: string,
    options: { signal?: AbortSignal; clock?: LocatorClock } = {},
  ): Promise<AgentServerClient> {
    const clock = options.clock ?? SYSTEM_CLOCK;
    for (let asked = 1; ; asked++) {
      const last = asked >= JUST_STARTED_ASKS;
      let conversation: AppConversation | undefined;
      try {
        conversation = await this.ask(conversationId, options.signal);
      } catch (error) {
        if (last || !(error instanceof ApiError && PASSING_KINDS.has(error.kind))) throw error;
      }
      const endpoint = conversation && agentEndpointOf(conversation);
      if (conversation?.sandbox_status === 'RUNNING' && endpoint) return this.deps.clientFor(endpoint);
      if (last || (conversation && !MISSED_STATUSES.has(conversation.sandbox_status)))
        throw this.deps.unreachable(conversation);
      await clock.sleep(JUST_STARTED_INTERVAL_MS, options.signal);
    }
  }

  /**
   * A call to the conversation's agent server: `client` when given (one just located), else the
   * remembered address, else where the app server says it is. A call to a remembered address that
   * finds the server moved or gone goes once more, to the address the app server gives now (not
   * again to the same one: that would fail the same way).
   */
  async withAgent<T>(
    conversationId: string,
    call: (client: AgentServerClient) => Promise<T>,
    options: { client?: AgentServerClient; signal?: AbortSignal } = {},
  ): Promise<T> {
    const first = options.client ?? this.remembered(conversationId);
    if (!first) return call(await this.locate(conversationId, options.signal));
    try {
      return await call(first);
    } catch (error) {
      if (!isStaleAddress(error)) throw error;
      this.addresses.forget(conversationId);
      const now = await this.locate(conversationId, options.signal);
      if (sameEndpoint(now.endpoint, first.endpoint)) throw error;
      return call(now);
    }
  }
}

function sameEndpoint(a: AgentEndpoint, b: AgentEndpoint): boolean {
  return a.baseUrl === b.baseUrl && a.sessionApiKey === b.sessionApiKey;
}
