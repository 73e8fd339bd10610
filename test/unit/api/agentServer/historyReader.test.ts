import assert from 'node:assert/strict';
import { ApiError, EventLog, type AgentEvent, type AgentEventPage } from '../../../../src/api';
import { readMissing, readOlder, type OlderSink } from '../../../../src/api/agentServer/historyReader';
import { numberedEvents, userMessage } from '../../../shared/agentEvents';

/** A history of `count` events, oldest first, paged newest first `size` at a time as the agent server does. */
function history(count: number, size: number) {
  const event = numberedEvents();
  const events = Array.from({ length: count }, (_, index) => event(userMessage(`message ${index + 1}`)));
  const asked: (string | undefined)[] = [];
  const pages = {
    async read(pageId: string | undefined): Promise<AgentEventPage> {
      asked.push(pageId);
      const newestFirst = [...events].reverse();
      const start = pageId === undefined ? 0 : newestFirst.findIndex((e) => e.id === pageId);
      const items = newestFirst.slice(start, start + size);
      return { items, next_page_id: newestFirst[start + size]?.id ?? null };
    },
  };
  return { events, pages, asked };
}

function sinkInto(log: EventLog): OlderSink & { notices: string[] } {
  const notices: string[] = [];
  return {
    notices,
    done: () => false,
    held: () => undefined,
    prepend: (events: readonly AgentEvent[]) => log.prepend(events),
    notice: (text: string) => notices.push(text),
  };
}

const signal = new AbortController().signal;

describe('historyReader: a followed conversation’s history, page by page', () => {
  it('a first read takes the newest page alone and says where the older history goes on', async () => {
    const { events, pages } = history(25, 10);
    const log = new EventLog();
    const read = await readMissing(pages, log, 100, signal);
    assert.deepEqual(
      read.events.map((e) => e.id),
      events.slice(15).map((e) => e.id),
    );
    assert.equal(read.older, 'e15');
    assert.equal(read.complete, false);
    log.append(read.events);

    const sink = sinkInto(log);
    assert.equal(await readOlder(pages, log, 'e16', sink, 100, signal), true);
    assert.deepEqual(
      log.events.map((e) => e.id),
      events.map((e) => e.id),
    );
    assert.deepEqual(sink.notices, []);
  });

  it('after a reconnect, pages back to the first event held, and only what is newer comes', async () => {
    const { events, pages, asked } = history(45, 10);
    const log = new EventLog();
    log.append(events.slice(0, 20));
    const read = await readMissing(pages, log, 100, signal);
    assert.deepEqual(
      read.events.map((e) => e.id),
      events.slice(20).map((e) => e.id),
    );
    assert.equal(read.older, undefined);
    assert.equal(read.complete, false, 'only a first read says the history is whole');
    assert.deepEqual(asked, [undefined, 'e35', 'e25']);
  });

  it('stops at the page ceiling and says so', async () => {
    const { pages } = history(100, 10);
    const log = new EventLog();
    log.append([numberedEvents('x')(userMessage('held'))]);
    const read = await readMissing(pages, log, 3, signal);
    assert.equal(read.events.length, 30);
    assert.deepEqual(read.notices, [
      'The history shown is incomplete: it was read up to its limit of 3 pages.',
    ]);
  });

  it('older pages that bring nothing new stop the read with a notice; a page named twice fails it', async () => {
    const event = numberedEvents('o');
    const stale = [event(userMessage('one')), event(userMessage('two'))];
    const log = new EventLog();
    log.append(stale);
    let fresh = 0;
    const endless = {
      read: async (): Promise<AgentEventPage> => ({ items: stale, next_page_id: `p${++fresh}` }),
    };
    const sink = sinkInto(log);
    assert.equal(await readOlder(endless, log, 'o1', sink, 100, signal), false);
    assert.match(sink.notices[0] ?? '', /kept offering more of it without sending anything new/);

    let step = 0;
    const loop = {
      read: async (): Promise<AgentEventPage> => ({
        items: [event(userMessage(`older ${++step}`))],
        next_page_id: 'same',
      }),
    };
    await assert.rejects(
      readOlder(loop, log, 'o1', sinkInto(log), 100, signal),
      (error: unknown) => error instanceof ApiError && /same part of the history twice/.test(error.message),
    );
  });

  it('an event no skim can read ends a first read with what is newer, said, and not whole', async () => {
    const { events, pages } = history(5, 10);
    const tooLarge = new ApiError({
      kind: 'invalid_response',
      message: 'One event of the history is larger than 64 MB.',
      overLimitBytes: 64 * 1024 * 1024,
    });
    let first = true;
    const stuck = {
      read: async (pageId: string | undefined): Promise<AgentEventPage> => {
        if (!first) throw tooLarge;
        first = false;
        const page = await pages.read(pageId);
        return { items: page.items.slice(0, 2), next_page_id: 'e3' };
      },
    };
    const log = new EventLog();
    log.append([numberedEvents('x')(userMessage('held'))]);
    const read = await readMissing(stuck, log, 100, signal);
    assert.deepEqual(
      read.events.map((e) => e.id),
      events.slice(3).map((e) => e.id),
    );
    assert.deepEqual(read.notices, [tooLarge.message]);
    assert.equal(read.complete, false);
  });
});
