import assert from 'node:assert/strict';
import { EventLog } from '../../../src/api/agentServer/eventLog';
import type { AgentEvent } from '../../../src/api/agentServer/events';

const events = (from: number, count: number): AgentEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${from + i}`,
    kind: 'MessageEvent',
    source: 'agent',
    timestamp: '2026-01-01T00:00:00',
  }));

describe('EventLog', () => {
  it('takes a catch-up of 300,000 events at either end, in order (no limit of the call stack)', () => {
    const log = new EventLog(undefined, 1_000_000);
    assert.equal(log.append(events(300_000, 300_000)).length, 300_000);
    assert.equal(log.prepend(events(0, 300_000)).length, 300_000);
    const ids = log.events.map((event) => event.id);
    assert.equal(ids.length, 600_000);
    assert.equal(ids[0], 'e0');
    assert.equal(ids[299_999], 'e299999');
    assert.equal(ids[300_000], 'e300000');
    assert.equal(ids.at(-1), 'e599999');
  });
});
