/**
 * How long a "running" agent has left the user's message unanswered. A fresh OpenHands 1.11 sat
 * "running" on a model with no key, with no event and no error (issue 36): past `MODEL_SILENCE_MS`
 * the header says so. The clock is injected: tests move it, nothing waits for real time.
 */
import { MODEL_SILENCE_MS } from './headerModel';

export interface PanelClock {
  now(): number;
  /** Runs `due` once after `ms`; disposing cancels it. */
  after(ms: number, due: () => void): { dispose(): void };
}

export const SYSTEM_CLOCK: PanelClock = {
  now: () => Date.now(),
  after: (ms, due) => {
    const timer = setTimeout(due, ms);
    return { dispose: () => clearTimeout(timer) };
  },
};

export class ModelSilence {
  private since: number | undefined;
  private timer: { dispose(): void } | undefined;

  /** `due`: the bound passed while still silent (the header must say it now). */
  constructor(
    private readonly clock: PanelClock,
    private readonly due: () => void,
  ) {}

  /** Whether the agent is silent now (running, the user's message unanswered); starts or ends the count. */
  follow(silent: boolean): void {
    if (!silent) {
      this.since = undefined;
      this.timer?.dispose();
      this.timer = undefined;
      return;
    }
    if (this.since !== undefined) return;
    this.since = this.clock.now();
    this.timer = this.clock.after(MODEL_SILENCE_MS, () => {
      this.timer = undefined;
      this.due();
    });
  }

  /** How long it has been silent, or undefined when it is not. */
  silentMs(): number | undefined {
    return this.since === undefined ? undefined : this.clock.now() - this.since;
  }

  dispose(): void {
    this.follow(false);
  }
}
