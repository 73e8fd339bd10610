/**
 * A conversation followed live: its history read over REST (newest page first, so the end shows at
 * once, then older pages), its new events from the socket, each event once and in storage order.
 * When the socket breaks it reconnects with backoff and reads back what it missed; while it cannot,
 * it says so and keeps what it had. Pure: the extension's state layer supplies where the agent
 * server is (`resolve`, asked again on every reconnect, since a resumed sandbox has a new URL and key).
 *
 * Why REST for history rather than the socket's replay: live frames interleave with a replay, so
 * arrival order is not storage order; paging back from the newest event until a known one is exact.
 *
 * Against a broken or hostile server everything is bounded: reconnects follow an exponential
 * schedule until a connection has stayed healthy (`reconnectPolicy.ts`), history reading stops when a
 * page brings nothing new (and at a ceiling, `historyReader.ts`), and live events held while the
 * history is read, like the log, are capped in bytes. What was not read or kept is said in `notice`,
 * never dropped silently. What the events say beside themselves (status, policy, the streaming reply)
 * is `feedState.ts`; an event read again whole, `wholeEvents.ts`.
 */
import { ApiError, messageOf } from '../errors';
import { scrubSecrets } from '../redact';
import { showable } from '../serverText';
import { sleep } from '../signals';
import type { TlsOptions } from '../tls';
import type { AgentServerClient } from './agentServerClient';
import type { AgentEndpoint } from './endpoint';
import { EventLog, type EventLogChange } from './eventLog';
import { isFullState, type AgentEvent } from './events';
import {
  openEventSocket,
  SilentSocketError,
  type EventSocket,
  type EventSocketOptions,
  type SocketAuth,
} from './eventSocket';
import { followEvent, guessFromStored, initialFeedState, withNotice, type FeedState } from './feedState';
import { readMissing, readOlder } from './historyReader';
import { markOpening } from '../../common/openingMarks';
import { HistoryPages } from './historyPages';
import { ReconnectPolicy, type ReconnectOptions } from './reconnectPolicy';
import { WholeEvents } from './wholeEvents';

/** Where to follow the conversation now, or why there is nothing to follow. */
export type FeedTarget = { endpoint: AgentEndpoint } | { endpoint: undefined; reason: string };

export interface EventFeedOptions extends ReconnectOptions {
  resolve(signal: AbortSignal): Promise<FeedTarget>;
  clientFor(endpoint: AgentEndpoint): AgentServerClient;
  /**
   * How a read beside the connection (an event whole, for its pictures) reaches the agent server,
   * starting at `client`: the state layer's locator, which finds the server again when it moved.
   * Unset: `client` alone.
   */
  reach?<T>(call: (client: AgentServerClient) => Promise<T>, client: AgentServerClient): Promise<T>;
  tls?: TlsOptions;
  connectTimeoutMs?: number;
  /** The socket's keepalive (`EventSocketOptions`): ping after this much silence… */
  pingIntervalMs?: number;
  /** …and give the socket up when the ping has no answer for this long. */
  pongTimeoutMs?: number;
  /** A larger live frame ends the socket; its event is then read over REST (the socket's default when unset). */
  maxFrameBytes?: number;
  /** Live frames held while the history is read, in bytes (frame or heap); past it the connection starts over. */
  maxBufferedBytes?: number;
  /** Pages one history read takes at most. */
  maxHistoryPages?: number;
  maxStringChars?: number;
  maxEvents?: number;
  /** The event log's budget in bytes. */
  maxEventBytes?: number;
  /** What an earlier feed of this conversation held: shown at once, and only what is newer is read. */
  events?: EventLog;
  log?(message: string): void;
  /** For tests: how a socket is opened. */
  openSocket?: (options: EventSocketOptions) => Promise<EventSocket>;
}

type Listener<T> = (value: T) => void;

/**
 * Live frames held while the history is read (each its frame's length or its weight on the heap,
 * whichever is more): an agent writes far less in the seconds a read takes; a flood past it ends
 * the connection, and the next one reads it over REST.
 */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** 200,000 events at 100 a page (the log's own cap): a server that needs more is not paging honestly. */
const MAX_HISTORY_PAGES = 2000;
/** The longest older pages wait for a panel's first rows (`holdOlderUntil`). */
const OLDER_HOLD_MS = 3000;

export class EventFeed {
  readonly events: EventLog;
  private state: FeedState;
  private readonly eventListeners = new Set<Listener<EventLogChange>>();
  private readonly stateListeners = new Set<Listener<FeedState>>();
  private auth: SocketAuth = 'first-message';
  private socket: EventSocket | undefined;
  /** The REST client of the connection of the moment (for reading an event whole). */
  private client: AgentServerClient | undefined;
  private readonly whole: WholeEvents;
  /** Live events that arrived while the history was being read; applied after it. */
  private pending: AgentEvent[] | undefined;
  /** What `pending` weighs (each event its frame's length or its heap weight, whichever is more). */
  private pendingBytes = 0;
  /** Aborts the history read of the connection of the moment (its live buffer overflowed). */
  private reading = new AbortController();
  /** Why the connection of the moment was cut short by the feed itself. */
  private cutShort: ApiError | undefined;
  /** When the connection of the moment went live. */
  private liveSince: number | undefined;
  private lifetime = new AbortController();
  /** Aborted to cut a backoff short (`wake`). */
  private nap = new AbortController();
  private running = false;
  private readingOlder = false;
  /** Older pages wait for this (a panel painting its first rows), `OLDER_HOLD_MS` at most. */
  private olderHeld: Promise<unknown> | undefined;
  /** The socket is being closed to ask again where the agent server is (`recheck`), not to stop. */
  private rechecking = false;
  private disposed = false;

  constructor(private readonly options: EventFeedOptions) {
    this.events =
      options.events ?? new EventLog(options.maxStringChars, options.maxEvents, options.maxEventBytes);
    // what an earlier feed held says the last known status until the server says more
    this.state = initialFeedState(this.events.events);
    this.whole = new WholeEvents({
      events: this.events,
      client: () => this.client,
      reach: (call, client) => (options.reach ? options.reach(call, client) : call(client)),
      signal: this.lifetime.signal,
      log: (message) => options.log?.(message),
    });
  }

  get current(): FeedState {
    return this.state;
  }

  /** The bytes of live frames held until the history read ends. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  onEvents(listener: Listener<EventLogChange>): { dispose(): void } {
    this.eventListeners.add(listener);
    return { dispose: () => this.eventListeners.delete(listener) };
  }

  onState(listener: Listener<FeedState>): { dispose(): void } {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  /** Starts following; a no-op while it already does. */
  start(): void {
    if (this.running || this.disposed) return;
    this.running = true;
    void this.follow().finally(() => (this.running = false));
  }

  /**
   * Older pages wait until `until` settles (a panel has shown its first rows): reading them competes
   * with the page's start for the CPU, and the newest page is what shows first. Never longer than
   * `OLDER_HOLD_MS`, so the history is read even if the page never says.
   */
  holdOlderUntil(until: Promise<unknown>): void {
    const held = Promise.race([until, sleep(OLDER_HOLD_MS, this.lifetime.signal)]).catch(() => undefined);
    this.olderHeld = held;
    void held.then(() => {
      if (this.olderHeld === held) this.olderHeld = undefined;
    });
  }

  /** Try now: skips a backoff, or starts again after `offline`/`failed`. */
  wake(): void {
    if (this.disposed) return;
    this.nap.abort();
    this.start();
  }

  /**
   * Ask again where the agent server is, now: the app server says the sandbox is no longer running
   * (a paused process or container keeps its socket open but silent until the keepalive gives it up).
   */
  recheck(): void {
    if (this.disposed) return;
    if (!this.socket) return this.wake();
    this.rechecking = true;
    this.socket.close();
  }

  /** The events with these ids as the server stored them (`WholeEvents.read`). */
  wholeEvents(ids: readonly string[]): Promise<AgentEvent[]> {
    return this.whole.read(ids);
  }

  /** One held event whole, or undefined when it is not held or cannot be read whole now (`WholeEvents.one`). */
  wholeEvent(id: string): Promise<AgentEvent | undefined> {
    return this.whole.one(id);
  }

  /** Drops the socket and stops for good; the events held stay readable. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.lifetime.abort();
    this.nap.abort();
    this.socket?.close();
    this.eventListeners.clear();
    this.stateListeners.clear();
  }

  private async follow(): Promise<void> {
    const reconnects = new ReconnectPolicy(this.options);
    while (!this.disposed) {
      this.setState({ status: reconnects.retrying ? 'reconnecting' : 'connecting', retryAt: undefined });
      let why: ApiError;
      try {
        const target = await this.options.resolve(this.lifetime.signal);
        markOpening('agentResolved');
        if (!target.endpoint) {
          this.setState({
            status: 'offline',
            detail: target.reason,
            failure: undefined,
            streaming: undefined,
          });
          return;
        }
        this.events.addSessionKey(target.endpoint.sessionApiKey);
        why = await this.session(target.endpoint);
        if (this.rechecking && !this.disposed) {
          this.rechecking = false;
          reconnects.restart();
          continue;
        }
        if (why.kind === 'cancelled') return;
        // a frame over the socket's cap: the next connection reads its event over REST, at once
        if (reconnects.ended(why, this.liveSince, Date.now())) {
          this.options.log?.(`Conversation feed: ${why.message} Reading its event over REST.`);
          continue;
        }
      } catch (error) {
        if (this.disposed) return;
        why = this.cutShort ?? asApiError(error);
        this.cutShort = undefined;
      }
      const delay = reconnects.failed(why);
      if (delay === undefined) {
        this.setState({ status: 'failed', detail: why.message, failure: why.kind, streaming: undefined });
        return;
      }
      this.options.log?.(`Conversation feed: ${why.message} Retrying in ${Math.round(delay / 100) / 10} s.`);
      this.setState({
        status: 'reconnecting',
        detail: why.message,
        failure: why.kind,
        silentMs: why instanceof SilentSocketError ? why.silentMs : undefined,
        retryAt: Date.now() + delay,
        streaming: undefined,
      });
      this.nap = new AbortController();
      await sleep(delay, this.nap.signal).catch(() => undefined);
    }
  }

  /** One connection: open the socket, read what is missing, then live until the socket ends. */
  private async session(endpoint: AgentEndpoint): Promise<ApiError> {
    const client = this.options.clientFor(endpoint);
    this.client = client;
    this.liveSince = undefined;
    this.cutShort = undefined;
    this.reading = new AbortController();
    this.pending = [];
    this.pendingBytes = 0;
    const socket = await this.openSocket(endpoint);
    markOpening('socketOpen');
    this.socket = socket;
    try {
      // one reader for the connection: the older pages start at the page size the newest ones found
      const history = new HistoryPages(client);
      const older = await this.readMissing(
        history,
        AbortSignal.any([this.lifetime.signal, this.reading.signal]),
      );
      const buffered = this.pending ?? [];
      this.pending = undefined;
      this.pendingBytes = 0;
      // every buffered event says what the status is now, also one the history page held already
      this.take(buffered, true);
      this.liveSince = Date.now();
      this.setState({
        status: 'live',
        detail: undefined,
        failure: undefined,
        silentMs: undefined,
        retryAt: undefined,
      });
      // until the history is whole (a first read stopped after its newest page, an earlier read of
      // older pages failed, or an earlier feed's events stop short of the start), older pages go on
      // from the oldest event held (its page repeats that one event; one short page when nothing is older)
      const from = older ?? (this.state.historyComplete ? undefined : this.events.events[0]?.id);
      if (from !== undefined) void this.readOlder(history, from);
    } catch (error) {
      socket.close();
      this.pending = undefined;
      this.pendingBytes = 0;
      throw error;
    }
    const why = await socket.ended;
    this.socket = undefined;
    return why;
  }

  private async openSocket(endpoint: AgentEndpoint): Promise<EventSocket> {
    const open = this.options.openSocket ?? openEventSocket;
    const attempt = (auth: SocketAuth) =>
      open({
        endpoint,
        auth,
        tls: this.options.tls,
        connectTimeoutMs: this.options.connectTimeoutMs,
        pingIntervalMs: this.options.pingIntervalMs,
        pongTimeoutMs: this.options.pongTimeoutMs,
        maxFrameBytes: this.options.maxFrameBytes,
        signal: this.lifetime.signal,
        onEvent: (event, frameBytes) => this.received(event, frameBytes),
        onProblem: (problem) => this.options.log?.(`Conversation feed: ${problem.message}`),
      });
    try {
      return await attempt(this.auth);
    } catch (error) {
      // An agent server older than first-message auth refuses a socket that brings no key.
      if (
        this.auth === 'first-message' &&
        error instanceof ApiError &&
        error.kind === 'unauthorized' &&
        error.status !== undefined
      ) {
        this.options.log?.(
          'Conversation feed: the agent server refused first-message auth; using the older query-parameter auth.',
        );
        this.auth = 'query';
        return attempt('query');
      }
      throw error;
    }
  }

  /** What is missing, back from the newest event (`readMissing`); returns where the older history goes on. */
  private async readMissing(history: HistoryPages, signal: AbortSignal): Promise<string | undefined> {
    const read = await readMissing(history, this.events, this.maxHistoryPages, signal);
    for (const notice of read.notices) this.addNotice(notice);
    this.apply('end', read.events);
    markOpening('newestPageRead');
    if (read.complete) this.setState({ historyComplete: true });
    return read.older;
  }

  /** The rest of the history, older pages one after another while the feed goes on (`readOlder`). */
  private async readOlder(history: HistoryPages, from: string): Promise<void> {
    if (this.readingOlder) return;
    this.readingOlder = true;
    try {
      const whole = await readOlder(
        history,
        this.events,
        from,
        {
          done: () => this.disposed,
          held: () => this.olderHeld,
          prepend: (events) => this.apply('start', events),
          notice: (text) => this.addNotice(text),
        },
        this.maxHistoryPages,
        this.lifetime.signal,
      );
      if (whole) {
        markOpening('historyComplete');
        this.setState({ historyComplete: true });
      }
    } catch (error) {
      // the next connection carries on from the oldest event held
      if (this.disposed) return;
      this.options.log?.(`Conversation feed: older events could not be read: ${messageOf(error)}`);
      // an event no skim can step past: said, as the next connection will stop there again
      if (error instanceof ApiError && error.overLimitBytes !== undefined) this.addNotice(error.message);
    } finally {
      this.readingOlder = false;
    }
  }

  /** `frameBytes`: the raw frame's length; a socket that does not say is measured by the event's JSON. */
  private received(event: AgentEvent, frameBytes = JSON.stringify(event).length): void {
    if (isFullState(event) || event.kind === 'StreamingDeltaEvent') return this.follows(event);
    if (event.kind === 'ServerErrorEvent') {
      // the server's words: masked and cut like every text of a server the log holds
      const code = showable(scrubSecrets(String(event['code'] ?? ''), this.events.sessionKeys), 200);
      this.options.log?.(`Conversation feed: the agent server reported ${code || 'an error'}.`);
      return;
    }
    if (!this.pending) return this.take([event]);
    if (this.cutShort) return;
    const max = this.options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
    // held whole until the log cuts it: its frame's length, or what its values cost on the heap
    // (a frame of 9 KB of empty arrays weighs 170 KB), whichever is more
    const bytes = Math.max(frameBytes, this.events.sizeOf(event));
    if (this.pendingBytes + bytes <= max) {
      this.pending.push(event);
      this.pendingBytes += bytes;
      return;
    }
    // a flood while the history is slow: let it all go, and read it over REST on the next connection
    this.pending = [];
    this.pendingBytes = 0;
    this.cutShort = new ApiError({
      kind: 'server',
      message: `More than ${sizeText(max)} of live events came while the history was read (the buffer's limit); they will be read again.`,
    });
    this.reading.abort();
  }

  private take(events: readonly AgentEvent[], followAll = false): void {
    const added = this.apply('end', events);
    for (const event of followAll ? events : added) this.follows(event);
  }

  private apply(at: 'start' | 'end', events: readonly AgentEvent[]): AgentEvent[] {
    const refused = this.events.refused;
    const added = at === 'end' ? this.events.append(events) : this.events.prepend(events);
    if (this.events.refused > refused)
      this.addNotice(
        `The transcript reached its limit of ${sizeText(this.events.maxBytes)}; some events are not shown.`,
      );
    if (added.length === 0) return added;
    const change: EventLogChange =
      at === 'end' ? { prepended: [], appended: added } : { prepended: added, appended: [] };
    if (at === 'end') this.replaceState(guessFromStored(this.state, added));
    for (const listener of this.eventListeners) listener(change);
    return added;
  }

  /** What a live event changes beyond the log (`followEvent`): the status, the streaming bubble. */
  private follows(event: AgentEvent): void {
    this.replaceState(followEvent(this.state, event));
  }

  private get maxHistoryPages(): number {
    return this.options.maxHistoryPages ?? MAX_HISTORY_PAGES;
  }

  private addNotice(text: string): void {
    this.replaceState(withNotice(this.state, text));
  }

  private setState(patch: Partial<FeedState>): void {
    this.replaceState({ ...this.state, ...patch });
  }

  /** Tells the listeners of a new state; the same object is no change. */
  private replaceState(next: FeedState): void {
    if (this.disposed || next === this.state) return;
    this.state = next;
    for (const listener of this.stateListeners) listener(this.state);
  }
}

/** `256 KB`, `64 MB`: a limit as the panel says it. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({
    kind: 'invalid_response',
    message: `The conversation feed failed (${messageOf(error)}).`,
  });
}
