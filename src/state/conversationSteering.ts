/**
 * What the user tells a conversation's agent: a message, approve or reject what waits for
 * confirmation, pause, stop, continue, the confirmation policy. Each call goes to the agent server
 * through the `AgentLocator` (the address remembered while its sandbox runs; the app server asked
 * when there is none or the call finds it gone: a resumed sandbox has a new URL and key). Sending
 * to a paused sandbox can resume it first and wait until its agent server answers. No UI: callers
 * show progress (`onStep`) and failures (every failure is an `ApiError` or a `SteeringError` whose
 * message is fit for the user and holds no secret).
 */
import * as vscode from 'vscode';
import {
  ApiError,
  sleep,
  type AgentServerClient,
  type AppConversation,
  type ConfirmationPolicy,
} from '../api';
import type { Log } from '../core/log';
import type { ConversationFeeds } from './conversationFeeds';
import type { SandboxActions } from './sandboxActions';
import type { Connection } from './connection';
import { SteeringError } from './steeringError';
import type { OpenHandsStore } from './store';

export { SteeringError };

/** What a send is doing now: resuming the sandbox, waiting for its agent server, sending. */
export type SendStep = 'resuming' | 'connecting' | 'sending';

/**
 * What a panel can tell one conversation's agent (`ConversationSteering` bound to its id); each settles
 * when the server took it, or fails with a readable error.
 */
export interface Steering {
  /** `images`: `data:image/…;base64,` URLs the caller checked. */
  send(
    text: string,
    resume: boolean,
    onStep: (step: SendStep) => void,
    images: readonly string[],
  ): Promise<void>;
  approve(): Promise<void>;
  reject(reason: string | undefined): Promise<void>;
  continue(): Promise<void>;
  pause(): Promise<void>;
  stop(): Promise<void>;
  setConfirmation(on: boolean): Promise<void>;
}

export interface SendOptions {
  /** Resume a paused sandbox first (else a paused one fails with `canResume`). */
  resume?: boolean;
  /** Images sent with the text: `data:image/…;base64,` URLs the caller checked. */
  images?: readonly string[];
  onStep?(step: SendStep): void;
  signal?: AbortSignal;
}

/** How long a resumed sandbox's agent server may take to answer. */
const REACH_TIMEOUT_MS = 120_000;
const REACH_INTERVAL_MS = 1000;

export class ConversationSteering {
  private readonly steered = new vscode.EventEmitter<string>();
  /**
   * The user is about to send a message or let the agent go on (fired with the conversation id, just
   * before the call, so a watcher sees every status the agent goes through): worth watching.
   */
  readonly onWillSteer = this.steered.event;

  constructor(
    private readonly connection: Connection,
    private readonly store: OpenHandsStore,
    private readonly actions: SandboxActions,
    private readonly feeds: ConversationFeeds,
    private readonly log: Log,
  ) {}

  /** Sends a user message and lets the agent run (it also runs any actions waiting for confirmation). */
  async send(conversationId: string, text: string, options: SendOptions = {}): Promise<void> {
    if (!text.trim() && !options.images?.length)
      throw new SteeringError(vscode.l10n.t('The message is empty.'));
    let client: AgentServerClient | undefined;
    try {
      client = this.remembered(conversationId) ?? (await this.locate(conversationId, options.signal));
    } catch (error) {
      if (!(error instanceof SteeringError && error.canResume && options.resume)) throw error;
      client = await this.resumeAndReach(conversationId, options);
    }
    options.onStep?.('sending');
    this.steered.fire(conversationId);
    const sent = client;
    await this.withAgent(
      conversationId,
      (agent) => agent.sendMessage(text, true, { signal: options.signal }, options.images),
      {
        client: sent,
        signal: options.signal,
      },
    );
    this.log.info(`Sent a message to conversation ${conversationId}.`);
    this.feeds.openFeed(conversationId)?.wake();
  }

  async approve(conversationId: string): Promise<void> {
    this.steered.fire(conversationId);
    await this.withAgent(conversationId, (client) => client.respondToConfirmation(true));
  }

  /** Rejects every pending action; the agent then waits (it goes on only when told: `continue`). */
  async reject(conversationId: string, reason?: string): Promise<void> {
    await this.withAgent(conversationId, (client) =>
      client.respondToConfirmation(false, reason?.trim() || undefined),
    );
  }

  /** Lets the agent run again; when it already runs, nothing happens (the server's 409 is no error here). */
  async continue(conversationId: string): Promise<void> {
    this.steered.fire(conversationId);
    try {
      await this.withAgent(conversationId, (client) => client.run());
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      this.log.info(`Conversation ${conversationId} is already running; Continue did nothing.`);
    }
  }

  /** Pauses between steps (the current step finishes). */
  async pause(conversationId: string): Promise<void> {
    await this.withAgent(conversationId, (client) => client.pause());
  }

  /** Stops now: cancels the model call in flight and pauses. */
  async stop(conversationId: string): Promise<void> {
    await this.withAgent(conversationId, (client) => client.interrupt());
  }

  async setConfirmationPolicy(conversationId: string, policy: ConfirmationPolicy): Promise<void> {
    await this.withAgent(conversationId, (client) => client.setConfirmationPolicy(policy));
  }

  private withAgent<T>(
    conversationId: string,
    call: (client: AgentServerClient) => Promise<T>,
    options: { client?: AgentServerClient; signal?: AbortSignal } = {},
  ): Promise<T> {
    return this.feeds.locator.withAgent(conversationId, call, options);
  }

  private remembered(conversationId: string): AgentServerClient | undefined {
    return this.feeds.locator.remembered(conversationId);
  }

  /** The agent server of a conversation now, or why it cannot be reached. */
  locate(conversationId: string, signal?: AbortSignal): Promise<AgentServerClient> {
    return this.feeds.locator.locate(conversationId, signal);
  }

  /** The agent server of a conversation that has just started, asked again a few times (`AgentLocator`). */
  locateJustStarted(conversationId: string, signal?: AbortSignal): Promise<AgentServerClient> {
    return this.feeds.locator.locateJustStarted(conversationId, { signal });
  }

  private async read(conversationId: string, signal?: AbortSignal): Promise<AppConversation> {
    const conversation = await this.feeds.locator.ask(conversationId, signal);
    if (!conversation) throw this.feeds.locator.unreachable(undefined);
    return conversation;
  }

  /** Resumes the conversation's sandbox, then waits until its agent server answers. */
  private async resumeAndReach(conversationId: string, options: SendOptions): Promise<AgentServerClient> {
    options.onStep?.('resuming');
    const conversation = await this.read(conversationId, options.signal);
    // the sandbox as the server says it now (the polled list may not know it was paused)
    const [sandbox] = await this.connection
      .requireClient()
      .getSandboxes([conversation.sandbox_id], { signal: options.signal });
    if (!sandbox) throw new SteeringError(vscode.l10n.t('The sandbox of this conversation is gone.'));
    this.store.upsertSandbox(sandbox);
    if (sandbox.status !== 'RUNNING' || conversation.sandbox_status !== 'RUNNING') {
      const outcome = await this.actions.resume(sandbox);
      if (!outcome.ok) throw new SteeringError(outcome.message);
    }
    options.onStep?.('connecting');
    const deadline = Date.now() + REACH_TIMEOUT_MS;
    let last: unknown;
    for (;;) {
      try {
        const client = await this.locate(conversationId, options.signal);
        await client.getConversation({ signal: options.signal });
        this.feeds.openFeed(conversationId)?.wake();
        return client;
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'cancelled') throw error;
        last = error;
      }
      if (Date.now() > deadline) {
        const why = last instanceof Error ? ` (${last.message})` : '';
        throw new SteeringError(
          vscode.l10n.t('The sandbox resumed, but did not answer within 2 minutes{0}.', why),
        );
      }
      await sleep(REACH_INTERVAL_MS, options.signal);
    }
  }

  dispose(): void {
    this.steered.dispose();
  }
}
