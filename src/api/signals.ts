/** What every client call takes: the caller's signal, which cancels it. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Aborts when the caller's signal aborts or the deadline passes, and says which happened. */
export interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

export function withDeadline(callerSignal: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** A sleep that ends early (rejecting with `onAbort()`) when the signal aborts. */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  onAbort: () => Error = () => new Error('The wait was cancelled.'),
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * `work`, or a rejection the moment `signal` aborts, whichever comes first: the abort settles the wait
 * even when the work never does (a read from a server that stalled mid-body). The work is still
 * followed afterwards: a value it gives late goes to `disposeLate` (so nothing stays open), a late
 * failure is dropped (never unhandled).
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  disposeLate: (value: T) => void = () => {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const abort = () => {
      settled = true;
      reject(signal.reason instanceof Error ? signal.reason : new Error('The operation was aborted.'));
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        if (settled) disposeLate(value);
        else resolve(value);
        settled = true;
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        if (!settled) reject(error);
        settled = true;
      },
    );
  });
}
