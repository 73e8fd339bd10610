// The one polling loop of the tests (unit in Node, integration inside VS Code's extension host, e2e in
// Node with Playwright): asks a probe until its value is what the test waits for, and on timeout says
// what was awaited and what was last seen. Node built-ins only, so every side can bundle it.

export interface EventuallyOptions {
  /** What is awaited, for the timeout's message. */
  description?: string;
  timeoutMs?: number;
  /** Between probes; the probes of UI state cost more than a read of the test server's memory. */
  intervalMs?: number;
  /** A probe that throws means "not yet" (a UI element not there yet) rather than a failure at once. */
  retryErrors?: boolean;
  /** What to report on timeout besides the last value (the page's state, say). */
  lastSeen?: () => string | Promise<string>;
}

// The extension host on a busy machine needs this long; a unit test pays it only when it fails.
const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_INTERVAL_MS = 10;
/** The last value is quoted in the message; an event log could be megabytes. */
const MAX_QUOTED_CHARS = 500;

/** Polls `probe` until `done` holds for its value, which it returns. A bare number is the timeout. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: EventuallyOptions | number = {},
): Promise<T> {
  const {
    description,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
    retryErrors,
    lastSeen,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let last: { value: T } | { error: unknown };
  for (;;) {
    try {
      const value = await probe();
      if (done(value)) return value;
      last = { value };
    } catch (error) {
      if (!retryErrors) throw error;
      last = { error };
    }
    if (Date.now() > deadline) {
      const seen = lastSeen
        ? await Promise.resolve()
            .then(lastSeen)
            .catch((error: unknown) => `n/a (${String(error)})`)
        : undefined;
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description ?? 'the condition'}; ` +
          `${describeLast(last)}${seen === undefined ? '' : `; last seen: ${seen}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls `probe` until it returns a value other than `undefined`, which it returns. */
export function eventuallyDefined<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: EventuallyOptions | number = {},
): Promise<T> {
  return eventually(probe, (value) => value !== undefined, options) as Promise<T>;
}

function describeLast(last: { value: unknown } | { error: unknown }): string {
  if ('error' in last)
    return `last error: ${quote(last.error instanceof Error ? last.error.message : String(last.error))}`;
  return `last value: ${quote(stringify(last.value))}`;
}

function stringify(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value); // a cycle, a BigInt
  }
}

function quote(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}… (${text.length} chars)` : text;
}
