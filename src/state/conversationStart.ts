/**
 * A conversation while its start task runs: what the start says now (in words), and the messages the
 * user typed meanwhile, queued on the server (OpenHands 1.11's pending messages, keyed `task-<hex>`)
 * for the agent to take once the start finishes. Its panel follows it. No vscode import.
 */
import { isApiError, MAX_QUEUED_MESSAGES, messageOf, type Offered, type PendingMessageReply } from '../api';

/** `starting` until the start task ends: `started` (READY), `failed` (ERROR) or `stopped` (the wait was cancelled). */
export type StartPhase = 'starting' | 'started' | 'failed' | 'stopped';

export interface StartView {
  phase: StartPhase;
  /** The start task's status in words while it starts; why it failed after. */
  words: string;
}

/** A message queued (the agent takes it when the start finishes), refused with why, or too late to queue. */
export type QueueOutcome =
  { kind: 'queued'; position: number } | { kind: 'refused'; reason: string } | { kind: 'notStarting' };

/** What a panel needs of a conversation that is starting. */
export interface StartSource {
  view(): StartView;
  /** The task that went with the start request: the agent gets it first, once the start ends. */
  readonly task: string;
  onDidChange(listener: () => void): { dispose(): void };
  queue(text: string): Promise<QueueOutcome>;
}

export interface ConversationStartDeps {
  /** `client.manage.queueMessage`. */
  queueMessage(conversationId: string, text: string): Promise<Offered<PendingMessageReply>>;
}

export class ConversationStart implements StartSource {
  private phase: StartPhase = 'starting';
  private words: string;
  private readonly listeners = new Set<() => void>();
  /** The start task's id once the server answered the start request; queued messages wait for it. */
  private readonly taskId: Promise<string | undefined>;
  private knowTask!: (taskId: string | undefined) => void;
  /** Queued or on their way: the server keeps at most `MAX_QUEUED_MESSAGES` for a start. */
  private held = 0;

  constructor(
    private readonly deps: ConversationStartDeps,
    words: string,
    readonly task = '',
  ) {
    this.words = words;
    this.taskId = new Promise((resolve) => (this.knowTask = resolve));
  }

  view(): StartView {
    return { phase: this.phase, words: this.words };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The server answered the start request with its task. */
  taskCreated(taskId: string): void {
    this.knowTask(taskId);
  }

  /** The start task's status, in words. */
  report(words: string): void {
    if (this.phase !== 'starting' || words === this.words) return;
    this.words = words;
    this.fire();
  }

  /** READY: the server hands the queued messages to the agent now. */
  started(): void {
    this.end('started', this.words);
  }

  /** The start failed (`reason` in words): nothing queued reaches an agent. */
  failed(reason: string): void {
    this.end('failed', reason);
  }

  /** The user stopped waiting; the server may still start it (and deliver what was queued). */
  stopped(): void {
    this.end('stopped', this.words);
  }

  async queue(text: string): Promise<QueueOutcome> {
    if (this.phase !== 'starting') return { kind: 'notStarting' };
    if (this.held >= MAX_QUEUED_MESSAGES)
      return {
        kind: 'refused',
        reason: `OpenHands holds at most ${MAX_QUEUED_MESSAGES} messages while a conversation starts. Send this one once it has started.`,
      };
    this.held++;
    let queued = false;
    try {
      const taskId = await this.taskId;
      // read again: the start may have ended while the task's id was awaited
      const now = this.view();
      if (now.phase === 'failed') return { kind: 'refused', reason: now.words };
      // after READY the server delivers nothing more: the message goes the usual way
      if (!taskId || now.phase !== 'starting') return { kind: 'notStarting' };
      const reply = await this.deps.queueMessage(`task-${taskId}`, text);
      if (!reply.offered)
        return {
          kind: 'refused',
          reason:
            'This OpenHands server cannot hold messages while a conversation starts. Send it once the conversation has started.',
        };
      queued = true;
      return { kind: 'queued', position: reply.value.position };
    } catch (error) {
      // the client's words already say what to do (the limit, a refusal); never a secret (the request path masks them)
      const said = isApiError(error) ? error.message : messageOf(error);
      return { kind: 'refused', reason: `The server did not queue it: ${said}` };
    } finally {
      if (!queued) this.held--;
    }
  }

  private end(phase: Exclude<StartPhase, 'starting'>, words: string): void {
    if (this.phase !== 'starting') return;
    this.phase = phase;
    this.words = words;
    // a start that ended before the server named its task: nothing waits for it any more
    this.knowTask(undefined);
    this.fire();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
