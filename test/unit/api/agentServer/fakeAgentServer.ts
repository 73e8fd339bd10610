// An agent server in memory for EventFeed tests that need to control each call: the REST half pages
// its events as 1.34 does (`page_id` inclusive, newest first for TIMESTAMP_DESC, an unknown page id
// starts from the newest), and each socket the feed opens is handed to the test, to feed or to end.
import {
  ApiError,
  EventFeed,
  type EventFeedOptions,
  type AgentEndpoint,
  type AgentEvent,
  type AgentEventPage,
  type AgentServerClient,
  type EventSearchQuery,
  type EventSocket,
  type EventSocketOptions,
} from '../../../../src/api';
import { userMessage, withEnvelope } from '../../../shared/agentEvents';

export interface FakeSocket {
  options: EventSocketOptions;
  closed: boolean;
  /** Ends the socket as the server would (the feed then reconnects). */
  end(why?: ApiError): void;
}

export interface FakeAgentServer {
  /** Stored events, in storage order. */
  events: AgentEvent[];
  sockets: FakeSocket[];
  /** Every page read, by where it started (`undefined`: the newest). */
  searches: (string | undefined)[];
  /** Runs before each page is read: throw to fail it, or return a promise to hold it. */
  beforeSearch?: (query: EventSearchQuery, signal: AbortSignal | undefined) => Promise<void> | void;
  /** Runs before one event is read whole: return a promise to hold the read. */
  beforeGetEvent?: (id: string) => Promise<void> | void;
  clientFor(endpoint: AgentEndpoint): AgentServerClient;
  openSocket(options: EventSocketOptions): Promise<EventSocket>;
}

export function fakeAgentServer(events: AgentEvent[]): FakeAgentServer {
  const fake: FakeAgentServer = {
    events,
    sockets: [],
    searches: [],
    clientFor: () =>
      ({
        searchEvents: async (query: EventSearchQuery = {}, options: { signal?: AbortSignal } = {}) => {
          fake.searches.push(query.pageId);
          await fake.beforeSearch?.(query, options.signal);
          options.signal?.throwIfAborted();
          return page(fake.events, query);
        },
        getEvent: async (id: string) => {
          await fake.beforeGetEvent?.(id);
          const event = fake.events.find((candidate) => candidate.id === id);
          if (!event) throw new ApiError({ kind: 'server', message: `Unknown event ${id}.` });
          return event;
        },
      }) as unknown as AgentServerClient,
    openSocket: async (options) => {
      if (options.signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'cancelled' });
      let endWith!: (why: ApiError) => void;
      const ended = new Promise<ApiError>((resolve) => (endWith = resolve));
      const socket: FakeSocket = {
        options,
        closed: false,
        end: (why = new ApiError({ kind: 'network', message: 'The socket dropped.' })) => {
          if (socket.closed) return;
          socket.closed = true;
          endWith(why);
        },
      };
      options.signal?.addEventListener('abort', () =>
        socket.end(new ApiError({ kind: 'cancelled', message: 'cancelled' })),
      );
      fake.sockets.push(socket);
      return {
        ended,
        send: () => !socket.closed,
        close: () => socket.end(new ApiError({ kind: 'cancelled', message: 'closed' })),
      };
    },
  };
  return fake;
}

function page(events: readonly AgentEvent[], query: EventSearchQuery): AgentEventPage {
  const limit = query.limit ?? 100;
  const descending = query.sortOrder === 'TIMESTAMP_DESC';
  let start = query.pageId ? events.findIndex((event) => event.id === query.pageId) : -1;
  if (start < 0) start = descending ? events.length - 1 : 0;
  const step = descending ? -1 : 1;
  const items: AgentEvent[] = [];
  for (let index = start; index >= 0 && index < events.length; index += step) {
    const event = events[index] as AgentEvent;
    if (items.length >= limit) return { items, next_page_id: event.id };
    items.push(event);
  }
  return { items, next_page_id: null };
}

/** `count` stored user messages, `m1`…: plain events the transcript shows one row each. */
export function userMessages(count: number, from = 1): AgentEvent[] {
  return Array.from({ length: count }, (_, i) =>
    withEnvelope(userMessage(`message ${from + i}`), `m${from + i}`),
  );
}

/** A feed that follows `endpoint` through this agent server (`options` add or replace settings). */
export function feedOver(
  agent: FakeAgentServer,
  endpoint: AgentEndpoint,
  options: Partial<EventFeedOptions> = {},
): EventFeed {
  return new EventFeed({
    resolve: async () => ({ endpoint }),
    clientFor: (target) => agent.clientFor(target),
    openSocket: (socket) => agent.openSocket(socket),
    ...options,
  });
}
