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
