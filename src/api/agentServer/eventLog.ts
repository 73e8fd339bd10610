/**
 * A conversation's events in storage order (the causal order: never sorted by timestamp), each id
 * once. History read backwards arrives as older pages (`prepend`); live events and backfill append.
 * Strings past `maxStringChars` are cut on the way in, so a conversation full of multi-megabyte
 * file edits stays bounded; the event's whole text can be read again from the server by its id.
 * The log is bounded in bytes (each event as V8 holds it once cut, `heldEvent.ts`) and in events;
 * once full it refuses more and counts what it refused, so the panel can say so.
 */
import type { AgentEvent } from './events';
import { heldCopy, type HeldEvent } from './heldEvent';

export interface EventLogChange {
  /** Events added at the start (older history, in order). */
  prepended: readonly AgentEvent[];
  /** Events added at the end (newer, in order). */
  appended: readonly AgentEvent[];
}

export const DEFAULT_MAX_STRING_CHARS = 64 * 1024;
/**
 * An image (a screenshot's base64, an image's data URL) is held as its head: enough to say what it is
 * and its size (`peekImage`); the whole is read from the server by the event's id when it is shown.
 * A conversation of 500 screenshots of 300 KB holds 2 MB instead of 150.
 */
export const IMAGE_HEAD_CHARS = 4096;
/** A hostile server could replay for ever: past this many events the log refuses more. */
export const DEFAULT_MAX_EVENTS = 200_000;
/**
 * The bytes a log may hold on the heap: a long real conversation weighs some MB (the bench's 10,000
 * events weigh 9.9 MB and take 4.3: the weights err high), so 64 MB is ample; counting events alone
 * let 200,000 events of 16 KB hold 3 GB, and counting their JSON let a flood of small values, text in
 * other scripts and images hold 5 times the budget.
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class EventLog {
  private readonly items: AgentEvent[] = [];
  private readonly ids = new Set<string>();
  private readonly cut = new Set<string>();
  /** The sandbox keys the events were read with (see `sessionKeys`). */
  private readonly keys = new Set<string>();
  private heldBytes = 0;
  private readonly measured = new WeakMap<AgentEvent, HeldEvent>();
  /** The objects' shapes weighed so far (`heldEvent.ts`). */
  private readonly shapes = new Set<string>();
  private refusedEvents = 0;

  constructor(
    private readonly maxStringChars = DEFAULT_MAX_STRING_CHARS,
    readonly maxEvents = DEFAULT_MAX_EVENTS,
    readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** What the held events weigh on the heap, once cut (an estimate of V8's layout, `heldEvent.ts`). */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Events offered while the log was full, and not kept. */
  get refused(): number {
    return this.refusedEvents;
  }

  /** What an event would weigh in the log (on the heap, once its strings are cut). */
  sizeOf(event: AgentEvent): number {
    return this.measure(event).bytes;
  }

  get events(): readonly AgentEvent[] {
    return this.items;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Whether an event's strings were cut on the way in (its whole text needs the server). */
  wasCut(id: string): boolean {
    return this.cut.has(id);
  }

  /**
   * Every sandbox key the events were read with: an event can quote one (an agent printing `env`),
   * and no page may show it, even once the sandbox has another key, or none while it is paused.
   */
  get sessionKeys(): readonly string[] {
    return [...this.keys];
  }

  addSessionKey(key: string | undefined): void {
    if (key) this.keys.add(key);
  }

  get full(): boolean {
    return this.items.length >= this.maxEvents || this.heldBytes >= this.maxBytes;
  }

  /** Adds the events not held yet, in the order given; returns those added. */
  append(events: readonly AgentEvent[]): AgentEvent[] {
    const added = this.fresh(events);
    // one by one: spread, a catch-up of some hundred thousand events overflows the call stack
    for (const event of added) this.items.push(event);
    return added;
  }

  /** Adds older events (given oldest first) before every held one. */
  prepend(events: readonly AgentEvent[]): AgentEvent[] {
    const added = this.fresh(events);
    // in place (`events` hands out this array), without spreading a catch-up onto the call stack
    const held = this.items.length;
    this.items.length = held + added.length;
    this.items.copyWithin(added.length, 0, held);
    added.forEach((event, index) => (this.items[index] = event));
    return added;
  }

  /** The newest event with a timestamp, for the header's "last event at". */
  last(): AgentEvent | undefined {
    return this.items.at(-1);
  }

  /**
   * The event as the log would hold it and its weight, worked out once per event: a history read
   * weighs each page's events before it hands them to the log.
   */
  private measure(event: AgentEvent): HeldEvent {
    let measured = this.measured.get(event);
    if (!measured) {
      const imageMax = Math.min(IMAGE_HEAD_CHARS, this.maxStringChars);
      measured = heldCopy(event, this.maxStringChars, imageMax, this.shapes);
      this.measured.set(event, measured);
    }
    return measured;
  }

  private fresh(events: readonly AgentEvent[]): AgentEvent[] {
    const added: AgentEvent[] = [];
    for (const event of events) {
      if (this.ids.has(event.id)) continue;
      const { slim, bytes } = this.measure(event);
      if (this.items.length + added.length >= this.maxEvents || this.heldBytes + bytes > this.maxBytes) {
        this.refusedEvents++;
        continue;
      }
      this.ids.add(event.id);
      this.heldBytes += bytes;
      if (slim !== event) this.cut.add(event.id);
      added.push(slim as AgentEvent);
    }
    return added;
  }
}
