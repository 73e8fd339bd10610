import { ApiError } from './errors';
import type { AppConversationStartTask } from './models';
import { echoForms, redactJson, scrubSecrets, secretsIn } from './redact';
import { showable } from './serverText';
import { sleep } from './signals';
import { normalizeUuid } from './uuid';

export interface WaitForStartTaskOptions {
  signal?: AbortSignal;
  /** Called whenever the task's status changes (and once with the first status seen). */
  onProgress?: (task: AppConversationStartTask) => void;
  /** Delay between polls; the web UI uses 3 s. */
  intervalMs?: number;
  /** Give up after this long; the server's own sandbox wait is 120 s. */
  timeoutMs?: number;
  /** Transient failures (network, 5xx, timeouts) tolerated in a row before giving up. */
  maxConsecutiveErrors?: number;
}

/**
 * A start task that ended in ERROR. `detail` is the server's text (possibly empty), masked like every
 * call failure: it arrives in a successful reply, so no call failure has masked it.
 */
export class StartTaskFailedError extends ApiError {
  /**
   * The task as the server sent it, with every secret masked and without its `request` (the initial
   * message, and whatever else the start carried).
   */
  readonly task: AppConversationStartTask;

  /**
   * @param secrets every secret the client knows (`HttpTransport.knownSecrets`); those inside the task
   *   itself (a session key, a URL's credentials) are masked as well
   */
  constructor(task: AppConversationStartTask, secrets: readonly string[] = []) {
    const masked = [...secrets, ...echoForms(secretsIn(task))];
    const detail = task.detail === null ? undefined : showable(scrubSecrets(task.detail, masked));
    super({
      kind: 'server',
      message: detail
        ? `The conversation could not be started: ${detail}`
        : 'The conversation could not be started (the server gave no reason).',
      serverMessage: detail,
    });
    this.name = 'StartTaskFailedError';
    // the copy keeps the task's shape: masking replaces strings with strings
    this.task = redactJson({ ...task, request: null }, masked) as AppConversationStartTask;
  }
}

const TRANSIENT = new Set(['network', 'timeout', 'server', 'rate_limited', 'invalid_response']);

export async function waitForStartTask(
  getStartTasks: (
    ids: string[],
    signal: AbortSignal | undefined,
  ) => Promise<(AppConversationStartTask | null)[]>,
  taskId: string,
  options: WaitForStartTaskOptions = {},
  /** Every secret the client knows, asked when a failure is built from a task (see `StartTaskFailedError`). */
  knownSecrets: () => readonly string[] = () => [],
): Promise<AppConversationStartTask> {
  const intervalMs = options.intervalMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  const maxErrors = options.maxConsecutiveErrors ?? 3;
  const id = normalizeUuid(taskId);
  const cancelled = () =>
    new ApiError({ kind: 'cancelled', message: 'Stopped waiting for the conversation to start.' });
  let lastStatus: string | undefined;
  let errorsInARow = 0;
  for (;;) {
    let task: AppConversationStartTask | null = null;
    try {
      [task = null] = await getStartTasks([id], options.signal);
      errorsInARow = 0;
    } catch (error) {
      if (!(error instanceof ApiError) || !TRANSIENT.has(error.kind) || ++errorsInARow > maxErrors)
        throw error;
    }
    if (task === null && errorsInARow === 0) {
      throw new ApiError({ kind: 'not_found', message: `The server does not know start task ${id}.` });
    }
    if (task) {
      if (task.status !== lastStatus) {
        lastStatus = task.status;
        options.onProgress?.(task);
      }
      if (task.status === 'READY') return task;
      if (task.status === 'ERROR') throw new StartTaskFailedError(task, knownSecrets());
    }
    if (Date.now() + intervalMs > deadline) {
      throw new ApiError({
        kind: 'timeout',
        message: `The conversation is still starting (${
          lastStatus === undefined
            ? 'unknown status'
            : showable(scrubSecrets(lastStatus, knownSecrets()), 100)
        }) after ${Math.round((options.timeoutMs ?? 600_000) / 1000)} s; it may still finish on the server.`,
      });
    }
    await sleep(intervalMs, options.signal, cancelled);
  }
}
