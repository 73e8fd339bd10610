// A whole history for an export: every page in order, and bounded against a server that pages
// dishonestly.
import assert from 'node:assert/strict';
import { readAllEvents, type AgentEvent } from '../../../../src/api';

const event = (id: string): AgentEvent => ({ id, kind: 'MessageEvent', source: 'user', timestamp: '' });

describe('readAllEvents', () => {
  it('reads every page, oldest first, once each', async () => {
    const pages: Record<string, { items: AgentEvent[]; next_page_id: string | null }> = {
      first: { items: [event('a'), event('b')], next_page_id: 'c' },
      c: { items: [event('c')], next_page_id: null },
    };
    const read = await readAllEvents({ searchEvents: async (query) => pages[query?.pageId ?? 'first']! });
    assert.deepEqual(
      read.events.map((e) => e.id),
      ['a', 'b', 'c'],
    );
    assert.equal(read.complete, true);
  });

  it('a page named again (a loop) is an error, not a hang', async () => {
    await assert.rejects(
      () => readAllEvents({ searchEvents: async () => ({ items: [event('a')], next_page_id: 'again' }) }),
      /same page of events twice/,
    );
  });

  it('stops at the event ceiling and says it is not complete', async () => {
    let n = 0;
    const read = await readAllEvents(
      {
        searchEvents: async () => ({
          items: Array.from({ length: 100 }, () => event(`e${n++}`)),
          next_page_id: `p${n}`,
        }),
      },
      { maxEvents: 250 },
    );
    assert.equal(read.events.length, 250);
    assert.equal(read.complete, false);
  });
});
