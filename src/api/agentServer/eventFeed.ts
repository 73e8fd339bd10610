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
 * schedule until a connection has stayed healthy, history reading stops when a page brings nothing
 * new (and at a ceiling), and live events held while the history is read, like the log, are capped in
 * bytes. What was not read or kept is said in `notice`, never dropped silently.
 */
import { ApiError, messageOf, type ApiErrorKind } from '../errors';
import { scrubSecrets } from '../redact';
import { showable } from '../serverText';
import { sleep } from '../signals';
import type { TlsOptions } from '../tls';
import type { AgentServerClient } from './agentServerClient';
import type { AgentEndpoint } from './endpoint';
import { EventLog, type EventLogChange } from './eventLog';
import { isFullState, isStatusUpdate, type AgentEvent, type AgentEventPage } from './events';
import { HistoryPages } from './historyPages';
import {
  openEventSocket,
  SilentSocketError,
  type EventSocket,
  type EventSocketOptions,
  type SocketAuth,
} from './eventSocket';
import { isRecord } from '../records';
import { markOpening } from '../../common/openingMarks';

/** Where to follow the conversation now, or why there is nothing to follow. */
export type FeedTarget = { endpoint: AgentEndpoint } | { endpoint: undefined; reason: string };

export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'failed';

export interface FeedState {
  status: FeedStatus;
  /** Why it is not live (secret-free), when it is not. */
  detail: string | undefined;
  /** What kind of failure `detail` tells, while reconnecting or failed (the detail has the technical words). */
  failure?: ApiErrorKind;
  /** How long the sandbox had said nothing, not even a pong, when its socket was given up; while not live. */
  silentMs?: number;
  /** When the next attempt starts (epoch ms), while reconnecting. */
  retryAt: number | undefined;
  executionStatus: string | undefined;
  /** The confirmation policy's kind (`NeverConfirm`, `AlwaysConfirm`, `ConfirmRisky`), when known. */
  confirmationPolicy: string | undefined;
  model: string | undefined;
  /** The reply the model is streaming now (socket only, never stored). */
  streaming: { id: string; text: string; reasoning: string } | undefined;
  /** Every older page has been read. */
  historyComplete: boolean;
  /** Why the transcript is not the whole conversation (paging stopped, a cap reached); secret-free. */
  notice: string | undefined;
}

export interface EventFeedOptions {
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
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A connection that stayed live this long starts the backoff schedule again when it ends. */
  healthyAfterMs?: number;
  /** Live frames held while the history is read, in bytes (frame or heap); past it the connection starts over. */
  maxBufferedBytes?: number;
  /** Pages one history read takes at most. */
  maxHistoryPages?: number;
  /** After this many refusals in a row (bad key, unknown conversation) the feed stops until woken. */
  maxRefusals?: number;
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

/** The first wait after a failure, doubled each time up to the ceiling (the SDK's own client: 1 to 30 s). */
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/**
 * A server that lets a socket go live and closes it (1011, 1013, a protocol error, at once) must not
 * reset the schedule: only a connection that stayed live this long does.
 */
const HEALTHY_AFTER_MS = 10_000;
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
  private state: FeedState = {
    status: 'connecting',
    detail: undefined,
    retryAt: undefined,
    executionStatus: undefined,
    confirmationPolicy: undefined,
    model: undefined,
    streaming: undefined,
    historyComplete: false,
    notice: undefined,
  };
  private readonly eventListeners = new Set<Listener<EventLogChange>>();
  private readonly stateListeners = new Set<Listener<FeedState>>();
  private auth: SocketAuth = 'first-message';
  private socket: EventSocket | undefined;
  /** The REST client of the connection of the moment (for reading an event whole). */
  private client: AgentServerClient | undefined;
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
    const status = [...this.events.events].reverse().find(isStatusUpdate)?.['value'];
    if (typeof status === 'string') this.state = { ...this.state, executionStatus: status };
    const policy = policyKind([...this.events.events].reverse().find(isPolicyUpdate)?.['value']);
    if (policy) this.state = { ...this.state, confirmationPolicy: policy };
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

  /**
   * The events with these ids as the server stored them: held ones as they are, ones whose strings
   * were cut read again (when the agent server can be reached; else as held).
   */
  async wholeEvents(ids: readonly string[]): Promise<AgentEvent[]> {
    const whole: AgentEvent[] = [];
    for (const id of ids) {
      const event = (await this.wholeEvent(id)) ?? this.heldEvent(id);
      if (event) whole.push(event);
    }
    return whole;
  }

  /**
   * One held event whole: as held when nothing of it was cut, else read again from the agent server;
   * undefined when it is not held, or is held cut and cannot be read (no agent server now, a failure).
   */
  async wholeEvent(id: string): Promise<AgentEvent | undefined> {
    const event = this.heldEvent(id);
    if (!event || !this.events.wasCut(id)) return event;
    if (!this.client) return undefined;
    const read = (client: AgentServerClient) => client.getEvent(id, { signal: this.lifetime.signal });
    try {
      return await (this.options.reach ? this.options.reach(read, this.client) : read(this.client));
    } catch (error) {
      this.options.log?.(`Conversation feed: event ${id} could not be read whole: ${messageOf(error)}`);
      return undefined;
    }
  }

  private heldEvent(id: string): AgentEvent | undefined {
    if (!this.events.has(id)) return undefined;
    // newest first: what is asked for again is mostly what the user just saw
    const events = this.events.events;
    for (let index = events.length - 1; index >= 0; index--)
      if (events[index]?.id === id) return events[index];
    return undefined;
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
    let failures = 0;
    let refusals = 0;
    /** Reconnects without a wait after a frame over the cap, since the last healthy connection. */
    let quickReconnects = 0;
    const maxRefusals = this.options.maxRefusals ?? 3;
    while (!this.disposed) {
      this.setState({ status: failures === 0 ? 'connecting' : 'reconnecting', retryAt: undefined });
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
          failures = 0;
          continue;
        }
        if (why.kind === 'cancelled') return;
        const healthyAfter = this.options.healthyAfterMs ?? HEALTHY_AFTER_MS;
        if (this.liveSince !== undefined && Date.now() - this.liveSince >= healthyAfter) {
          failures = 0;
          quickReconnects = 0;
        }
        // A frame over the socket's cap: the next connection reads its event over REST, at once. Once
        // per healthy connection only, so a server that sends nothing else cannot spin the feed.
        if (why.overLimitBytes !== undefined && this.liveSince !== undefined && quickReconnects === 0) {
          quickReconnects++;
          this.options.log?.(`Conversation feed: ${why.message} Reading its event over REST.`);
          continue;
        }
      } catch (error) {
        if (this.disposed) return;
        why = this.cutShort ?? asApiError(error);
        this.cutShort = undefined;
      }
      refusals = why.kind === 'unauthorized' || why.kind === 'not_found' ? refusals + 1 : 0;
      if (refusals >= maxRefusals) {
        this.setState({ status: 'failed', detail: why.message, failure: why.kind, streaming: undefined });
        return;
      }
      failures++;
      const delay = this.backoff(failures);
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

  /**
   * Pages back from the newest stored event until one already held (or the start). The first read
   * of a conversation stops after one page, so the newest part shows at once; returns where the
   * older history continues in that case. A page that brings nothing new, the page ceiling or the
   * log's budget end the read with what it has (and a notice).
   */
  private async readMissing(history: HistoryPages, signal: AbortSignal): Promise<string | undefined> {
    const firstRead = this.events.size === 0;
    const missing: AgentEvent[] = [];
    const missingIds = new Set<string>();
    let missingBytes = 0;
    const seenPages = new Set<string>();
    let pageId: string | undefined;
    let stuck = false;
    for (let pageCount = 1; ; pageCount++) {
      let page: AgentEventPage;
      try {
        page = await history.read(pageId, signal);
      } catch (error) {
        // an event larger than a skim may read: what is newer than it is shown, and the gap said
        if (!(error instanceof ApiError) || error.overLimitBytes === undefined) throw error;
        this.addNotice(error.message);
        stuck = true;
        break;
      }
      let reachedKnown = false;
      let fresh = 0;
      for (const event of page.items) {
        if (this.events.has(event.id)) {
          reachedKnown = true;
          break;
        }
        if (missingIds.has(event.id)) continue;
        missingIds.add(event.id);
        missing.push(event);
        missingBytes += this.events.sizeOf(event);
        fresh++;
      }
      const next = page.next_page_id ?? undefined;
      if (reachedKnown || next === undefined) break;
      if (fresh === 0) {
        this.addNotice(ENDLESS_PAGES);
        break;
      }
      // the log takes what fits and says it is full
      if (missingBytes >= this.events.maxBytes - this.events.bytes) break;
      if (missing.length >= this.events.maxEvents - this.events.size) break;
      if (pageCount >= this.maxHistoryPages) {
        this.addNotice(pageCeiling(this.maxHistoryPages));
        break;
      }
      if (seenPages.has(next)) throw this.pagingLoop();
      seenPages.add(next);
      if (firstRead) {
        this.apply('end', missing.reverse());
        markOpening('newestPageRead');
        return next;
      }
      pageId = next;
    }
    this.apply('end', missing.reverse());
    markOpening('newestPageRead');
    if (firstRead && !stuck) this.setState({ historyComplete: true });
    return undefined;
  }

  /** The rest of the history, older pages one after another, while the feed goes on. */
  private async readOlder(history: HistoryPages, from: string | undefined): Promise<void> {
    if (this.readingOlder) return;
    this.readingOlder = true;
    const seenPages = new Set<string>();
    let pageId = from;
    /** The next page, asked for while this one is applied: one request ahead at most. */
    let ahead: Promise<AgentEventPage> | undefined;
    try {
      for (let pages = 0; pageId !== undefined && !this.disposed && !this.events.full; pages++) {
        if (this.olderHeld) await this.olderHeld;
        if (this.disposed) return;
        if (pages >= this.maxHistoryPages) return this.addNotice(pageCeiling(this.maxHistoryPages));
        const page = await (ahead ?? history.read(pageId, this.lifetime.signal));
        ahead = undefined;
        const next = page.next_page_id ?? undefined;
        const loops = next !== undefined && seenPages.has(next);
        if (next !== undefined && !loops && !this.olderHeld && pages + 1 < this.maxHistoryPages) {
          ahead = history.read(next, this.lifetime.signal);
          ahead.catch(() => undefined); // awaited next turn, or dropped when the reading stops here
        }
        const refused = this.events.refused;
        const added = this.apply('start', [...page.items].reverse());
        // each honest page but the last brings older events; the one it starts from is held already
        // (a page of that one event alone, when the events are large, is a step all the same)
        const startOnly = page.items.length === 1 && page.items[0]?.id === pageId;
        if (next !== undefined && added.length === 0 && !startOnly && this.events.refused === refused)
          return this.addNotice(ENDLESS_PAGES);
        if (loops) throw this.pagingLoop();
        if (next !== undefined) seenPages.add(next);
        pageId = next;
      }
      markOpening('historyComplete');
      this.setState({ historyComplete: true });
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
    if (isFullState(event)) return this.takeSnapshot(event);
    if (event.kind === 'StreamingDeltaEvent') return this.stream(event);
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
    if (at === 'end' && this.state.executionStatus === undefined) {
      // before the first snapshot, the newest stored status is the best guess
      const status = [...added].reverse().find(isStatusUpdate)?.['value'];
      if (typeof status === 'string') this.setState({ executionStatus: status });
    }
    if (at === 'end' && this.state.confirmationPolicy === undefined) {
      const policy = policyKind([...added].reverse().find(isPolicyUpdate)?.['value']);
      if (policy) this.setState({ confirmationPolicy: policy });
    }
    for (const listener of this.eventListeners) listener(change);
    return added;
  }

  /** What a live event changes beyond the log: the status, the streaming bubble. */
  private follows(event: AgentEvent): void {
    if (isStatusUpdate(event) && typeof event['value'] === 'string') {
      const status = event['value'];
      this.setState({ executionStatus: status, ...(status !== 'running' ? { streaming: undefined } : {}) });
    } else if (isPolicyUpdate(event)) {
      const policy = policyKind(event['value']);
      if (policy) this.setState({ confirmationPolicy: policy });
    } else if ((event.kind === 'MessageEvent' && event.source === 'agent') || event.kind === 'ActionEvent') {
      if (this.state.streaming) this.setState({ streaming: undefined });
    }
  }

  private takeSnapshot(event: AgentEvent): void {
    const value = event['value'];
    if (!isRecord(value)) return;
    const status = value['execution_status'];
    const agent = value['agent'];
    const llm = isRecord(agent) ? agent['llm'] : undefined;
    const model = isRecord(llm) ? llm['model'] : undefined;
    const policy = policyKind(value['confirmation_policy']);
    this.setState({
      ...(typeof status === 'string' ? { executionStatus: status } : {}),
      ...(policy ? { confirmationPolicy: policy } : {}),
      ...(typeof model === 'string' ? { model } : {}),
    });
  }

  private stream(event: AgentEvent): void {
    const content = typeof event['content'] === 'string' ? event['content'] : '';
    const reasoning = typeof event['reasoning_content'] === 'string' ? event['reasoning_content'] : '';
    if (!content && !reasoning) return;
    const now = this.state.streaming ?? { id: event.id, text: '', reasoning: '' };
    // a bubble is bounded like any stored string
    const max = 256 * 1024;
    this.setState({
      streaming: {
        id: now.id,
        text: (now.text + content).slice(-max),
        reasoning: (now.reasoning + reasoning).slice(-max),
      },
    });
  }

  private get maxHistoryPages(): number {
    return this.options.maxHistoryPages ?? MAX_HISTORY_PAGES;
  }

  /** Says once why the transcript is not whole (notices add up: a log can be cut and its history too). */
  private addNotice(text: string): void {
    const notice = this.state.notice;
    if (notice?.includes(text)) return;
    this.setState({ notice: notice ? `${notice} ${text}` : text });
  }

  private backoff(failures: number): number {
    const initial = this.options.initialBackoffMs ?? INITIAL_BACKOFF_MS;
    const max = this.options.maxBackoffMs ?? MAX_BACKOFF_MS;
    const base = Math.min(max, initial * 2 ** (failures - 1));
    // jitter, so many panels do not reconnect in step after a server restart
    return Math.round(base * (0.75 + Math.random() * 0.5));
  }

  private pagingLoop(): ApiError {
    return new ApiError({
      kind: 'invalid_response',
      message: 'The sandbox sent the same part of the history twice; the history was not read further.',
    });
  }

  private setState(patch: Partial<FeedState>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.stateListeners) listener(this.state);
  }
}

const ENDLESS_PAGES =
  'The history shown is incomplete: the sandbox kept offering more of it without sending anything new.';

function pageCeiling(pages: number): string {
  return `The history shown is incomplete: it was read up to its limit of ${pages} pages.`;
}

/** `256 KB`, `64 MB`: a limit as the panel says it. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function isPolicyUpdate(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'confirmation_policy';
}

function policyKind(value: unknown): string | undefined {
  const kind = isRecord(value) ? value['kind'] : undefined;
  return typeof kind === 'string' && kind.length <= 100 ? kind : undefined;
}

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({
    kind: 'invalid_response',
    message: `The conversation feed failed (${messageOf(error)}).`,
  });
}
