// Polls a URL until it answers, so callers do not race a server that is still starting.

export interface WaitOptions {
  timeoutMs?: number;
  /** Stops waiting early when the process behind the URL has died. */
  stillStarting?: () => string | undefined;
}

export async function waitForHttp(url: string, options: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    const died = options.stillStarting?.();
    if (died) throw new Error(`${url} will not answer: ${died}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in time (${lastError})`);
}
