/**
 * When a followed conversation connects again after its socket ended: at once after a frame over the
 * socket's cap (once per healthy connection), else after a wait that doubles with each failure, with
 * jitter; never again after the server refused it several times in a row. Pure: the feed tells it how
 * each connection ended and waits as it says.
 */
import type { ApiError } from '../errors';

export interface ReconnectOptions {
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A connection that stayed live this long starts the backoff schedule again when it ends. */
  healthyAfterMs?: number;
  /** After this many refusals in a row (bad key, unknown conversation) the feed stops until woken. */
  maxRefusals?: number;
}

/** The first wait after a failure, doubled each time up to the ceiling (the SDK's own client: 1 to 30 s). */
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/**
 * A server that lets a socket go live and closes it (1011, 1013, a protocol error, at once) must not
 * reset the schedule: only a connection that stayed live this long does.
 */
const HEALTHY_AFTER_MS = 10_000;
const MAX_REFUSALS = 3;

export class ReconnectPolicy {
  private failures = 0;
  private refusals = 0;
  /** Reconnects without a wait after a frame over the cap, since the last healthy connection. */
  private quickReconnects = 0;

  constructor(
    private readonly options: ReconnectOptions = {},
    /** For tests: the jitter's source. */
    private readonly random: () => number = Math.random,
  ) {}

  /** Whether the next connection is a retry after a failure (not the first try, nor one after a healthy end). */
  get retrying(): boolean {
    return this.failures > 0;
  }

  /** The feed asks again where the agent server is (not a failure): the schedule starts over. */
  restart(): void {
    this.failures = 0;
  }

  /**
   * A connection that went live at `liveSince` (undefined: never) ended with `why` at `now`. A healthy
   * one starts the schedule over; true when the next connection should start at once (its frame over
   * the cap is read over REST).
   */
  ended(why: ApiError, liveSince: number | undefined, now: number): boolean {
    const healthyAfter = this.options.healthyAfterMs ?? HEALTHY_AFTER_MS;
    if (liveSince !== undefined && now - liveSince >= healthyAfter) {
      this.failures = 0;
      this.quickReconnects = 0;
    }
    // once per healthy connection only, so a server that sends nothing else cannot spin the feed
    if (why.overLimitBytes !== undefined && liveSince !== undefined && this.quickReconnects === 0) {
      this.quickReconnects++;
      return true;
    }
    return false;
  }

  /** The connection failed with `why`: the wait before the next one, or undefined to give up. */
  failed(why: ApiError): number | undefined {
    this.refusals = why.kind === 'unauthorized' || why.kind === 'not_found' ? this.refusals + 1 : 0;
    if (this.refusals >= (this.options.maxRefusals ?? MAX_REFUSALS)) return undefined;
    this.failures++;
    const initial = this.options.initialBackoffMs ?? INITIAL_BACKOFF_MS;
    const max = this.options.maxBackoffMs ?? MAX_BACKOFF_MS;
    const base = Math.min(max, initial * 2 ** (this.failures - 1));
    // jitter, so many panels do not reconnect in step after a server restart
    return Math.round(base * (0.75 + this.random() * 0.5));
  }
}
