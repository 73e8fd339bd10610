/**
 * Held events as the server stored them: the log cuts long strings and images on the way in, so an
 * event shown whole (a picture, a long output) is read again from the agent server by its id.
 */
import { messageOf } from '../errors';
import type { AgentServerClient } from './agentServerClient';
import type { EventLog } from './eventLog';
import type { AgentEvent } from './events';

export interface WholeEventsOptions {
  events: EventLog;
  /** The REST client of the connection of the moment; undefined before the first. */
  client(): AgentServerClient | undefined;
  /** How the read reaches the agent server, starting at `client` (the state layer's locator). */
  reach<T>(call: (client: AgentServerClient) => Promise<T>, client: AgentServerClient): Promise<T>;
  /** Ends every read (the feed is disposed). */
  signal: AbortSignal;
  log(message: string): void;
}

export class WholeEvents {
  constructor(private readonly options: WholeEventsOptions) {}

  /**
   * The events with these ids as the server stored them: held ones as they are, ones whose strings
   * were cut read again (when the agent server can be reached; else as held).
   */
  async read(ids: readonly string[]): Promise<AgentEvent[]> {
    const whole: AgentEvent[] = [];
    for (const id of ids) {
      const event = (await this.one(id)) ?? this.held(id);
      if (event) whole.push(event);
    }
    return whole;
  }

  /**
   * One held event whole: as held when nothing of it was cut, else read again from the agent server;
   * undefined when it is not held, or is held cut and cannot be read (no agent server now, a failure).
   */
  async one(id: string): Promise<AgentEvent | undefined> {
    const event = this.held(id);
    if (!event || !this.options.events.wasCut(id)) return event;
    const client = this.options.client();
    if (!client) return undefined;
    const read = (from: AgentServerClient) => from.getEvent(id, { signal: this.options.signal });
    try {
      return await this.options.reach(read, client);
    } catch (error) {
      this.options.log(`Conversation feed: event ${id} could not be read whole: ${messageOf(error)}`);
      return undefined;
    }
  }

  private held(id: string): AgentEvent | undefined {
    const log = this.options.events;
    if (!log.has(id)) return undefined;
    // newest first: what is asked for again is mostly what the user just saw
    const events = log.events;
    for (let index = events.length - 1; index >= 0; index--)
      if (events[index]?.id === id) return events[index];
    return undefined;
  }
}
