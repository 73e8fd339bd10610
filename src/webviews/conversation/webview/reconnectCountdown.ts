/**
 * The seconds until the feed tries to reconnect, as the banner counts them down: from the delay the host
 * gave in the header, looked at four times a second, and said to the page when the whole seconds change.
 */
import type { Header } from '../shared/protocol';
import { secondsLeft } from './text';

/** How often the clock is looked at: a whole second is shown late by this much at most. */
const TICK_MS = 250;
/** A longer delay is counted down from this (a server's wild value never overflows the timer). */
const MAX_DELAY_MS = 24 * 3600_000;

export class ReconnectCountdown {
  private deadline: number | null = null;
  private shown: number | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly changed: () => void) {}

  /** The whole seconds left, or null when no reconnect is waiting. */
  get seconds(): number | null {
    return this.shown;
  }

  follow(header: Header): void {
    const retryIn = header.retryInMs;
    this.deadline =
      header.feed === 'reconnecting' && retryIn !== null && Number.isFinite(retryIn) && retryIn > 0
        ? Date.now() + Math.min(retryIn, MAX_DELAY_MS)
        : null;
    this.tick();
    if (this.deadline !== null && !this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  private tick(): void {
    const seconds = this.deadline === null ? null : secondsLeft(this.deadline, Date.now());
    if (seconds === null || seconds === 0) {
      if (this.timer) clearInterval(this.timer);
      this.timer = undefined;
    }
    if (seconds !== this.shown) {
      this.shown = seconds;
      this.changed();
    }
  }
}
