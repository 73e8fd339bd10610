// The real InMemoryRateLimiter(requests=10, seconds=1): per client IP, a sliding one-second window;
// requests 11-20 are held for a second, beyond 20 get 429. Rejected requests still count.

export type RateDecision = 'allow' | 'delay' | 'reject';

const REQUESTS_PER_WINDOW = 10;
const WINDOW_MS = 1000;

export class RateLimiter {
  private readonly history = new Map<string, number[]>();

  check(clientKey: string, nowMs = Date.now()): RateDecision {
    const recent = (this.history.get(clientKey) ?? []).filter((timestamp) => timestamp > nowMs - WINDOW_MS);
    recent.push(nowMs);
    this.history.set(clientKey, recent);
    if (recent.length > REQUESTS_PER_WINDOW * 2) return 'reject';
    if (recent.length > REQUESTS_PER_WINDOW) return 'delay';
    return 'allow';
  }

  reset(): void {
    this.history.clear();
  }
}
