// Polling assertions for UI state (playwright-core ships no `expect`): retry until the probe returns a
// value, and on timeout say what was expected and what was last seen.

export async function eventually<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; lastSeen?: () => Promise<string> } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const seen = options.lastSeen ? await options.lastSeen().catch(() => 'n/a') : undefined;
      throw new Error(`timed out waiting for ${description}${seen ? `; last seen: ${seen}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}
