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
  type AgentEndpoint,
  type AgentServerClient,
  type AppConversation,
  type OpenHandsClient,
} from '../api';
import { AgentAddresses, isStaleAddress } from './agentAddresses';

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
