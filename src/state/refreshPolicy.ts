/** Pure: when the next background refresh should happen. No vscode import, so it is unit-tested in Node. */
export interface RefreshInputs {
  anyViewVisible: boolean;
  windowFocused: boolean;
  /** Something is changing (a transition in flight, a sandbox STARTING): poll fast. */
  busy: boolean;
  /** Failed refreshes in a row. */
  errorStreak: number;
  activeMs: number;
  idleMs: number;
  maxBackoffMs?: number;
}

/** Milliseconds until the next refresh, or undefined for none (no view visible: zero requests). */
export function nextRefreshDelay(inputs: RefreshInputs): number | undefined {
  if (!inputs.anyViewVisible) return undefined;
  if (inputs.errorStreak > 0) {
    // back off from the idle interval, doubling per failure, so an offline server is not hammered
    const max = inputs.maxBackoffMs ?? 5 * 60_000;
    return Math.min(max, inputs.idleMs * 2 ** Math.min(inputs.errorStreak - 1, 16));
  }
  if (inputs.busy) return inputs.activeMs;
  // an unfocused window still refreshes, just less often
  return inputs.windowFocused ? inputs.idleMs : inputs.idleMs * 4;
}
