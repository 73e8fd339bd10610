import assert from 'node:assert/strict';
import { EventLog, IMAGE_HEAD_CHARS } from '../../../../src/api/agentServer/eventLog';
import type { AgentEvent } from '../../../../src/api/agentServer/events';
import { heapAfterGc } from '../../../shared/heap';

/** A browser observation with a 4 MB screenshot and 1 MB of text, each string its own. */
function bigObservation(index: number): AgentEvent {
  return {
    id: `shot-${index}`,
    kind: 'ObservationEvent',
    source: 'environment',
    timestamp: '2026-01-01T00:00:00',
    observation: {
      kind: 'BrowserObservation',
      content: [{ type: 'text', text: `${index}`.padEnd(1_000_000, 'x') }],
      screenshot_data: `iVBORw0KGgo${index}`.padEnd(4_000_000, 'A'),
    },
  };
}

/**
 * The flood of a hostile or merely busy agent, event by event as the socket reads it (UTF-8 bytes
 * decoded, then `JSON.parse`): long text (cut), text in other scripts (held two bytes a character),
 * screenshots (held as their head), and many small values (objects, arrays, keys never seen before),
 * whose cost in V8 is many times their JSON, and objects of one shape, which cost little more.
 */
function floodEvent(index: number): AgentEvent {
  const base = {
    id: `flood-${index}-0000-0000-0000-000000000000`,
    kind: 'ObservationEvent',
    source: 'environment',
    timestamp: '2026-01-01T00:00:00.000000',
  };
  const text = (chars: string, length: number) => `${index} `.padEnd(length, chars);
  // each about 50 KB of JSON, so no one kind fills the log alone
  const shapes: Array<() => Record<string, unknown>> = [
    () => ({ observation: { content: [{ type: 'text', text: text('log ', 200_000) }] } }),
    () => ({ observation: { content: [{ type: 'text', text: text('漢字😀', 25_000) }] } }),
    () => ({ observation: { content: [{ type: 'text', text: text('café ', 50_000) }] } }),
    () => ({ observation: { kind: 'BrowserObservation', screenshot_data: text('iVBORw0KGgo', 300_000) } }),
    () => ({
      observation: Array.from({ length: 20 }, () =>
        Object.fromEntries(Array.from({ length: 200 }, (_, key) => [`k${key}`, { v: key }])),
      ),
    }),
    () => ({
      observation: Object.fromEntries(Array.from({ length: 3000 }, (_, key) => [`u${index}_${key}`, key])),
    }),
    () => ({ observation: Array.from({ length: 15_000 }, (_, item) => (item % 2 ? [] : {})) }),
    // one shape again and again: V8 shares its hidden class, and the log weighs it so
    () => ({
      observation: Array.from({ length: 300 }, (_, item) =>
        Object.fromEntries(Array.from({ length: 20 }, (_, key) => [`s${key}`, item + key])),
      ),
    }),
  ];
  const shape = shapes[index % shapes.length];
  const event = { ...base, ...shape?.() };
  return JSON.parse(Buffer.from(JSON.stringify(event)).toString('utf8')) as AgentEvent;
}

/** Offers the log the flood until it refuses some; in a function, so no event stays on the stack. */
function flood(log: EventLog): void {
  for (let index = 0; log.refused < 50 && index < 1_000_000; index++) log.append([floodEvent(index)]);
}

const events = (from: number, count: number): AgentEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${from + i}`,
    kind: 'MessageEvent',
    source: 'agent',
    timestamp: '2026-01-01T00:00:00',
  }));

describe('EventLog', () => {
  it('takes a catch-up of 300,000 events at either end, in order (no limit of the call stack)', () => {
    const log = new EventLog(undefined, 1_000_000, Number.MAX_SAFE_INTEGER);
    assert.equal(log.append(events(300_000, 300_000)).length, 300_000);
    assert.equal(log.prepend(events(0, 300_000)).length, 300_000);
    const ids = log.events.map((event) => event.id);
    assert.equal(ids.length, 600_000);
    assert.equal(ids[0], 'e0');
    assert.equal(ids[299_999], 'e299999');
    assert.equal(ids[300_000], 'e300000');
    assert.equal(ids.at(-1), 'e599999');
  });

  it('holds what it cut and no more: the whole strings it was given can go (a slice would keep them)', () => {
    new EventLog().append([bigObservation(-1)]); // compiled and warmed before measuring
    const log = new EventLog();
    const before = heapAfterGc();
    for (let index = 0; index < 10; index++) log.append([bigObservation(index)]);
    const held = heapAfterGc() - before;
    const observation = log.events[9]?.['observation'] as { screenshot_data: string };
    assert.equal(observation.screenshot_data.length, IMAGE_HEAD_CHARS);
    // 10 × (64 KB of text + a 4 KB head) is under 1 MB; the 50 MB given must not stay
    assert.ok(log.bytes < 1024 * 1024, `the log counts ${log.bytes} bytes`);
    assert.ok(held < 8 * 1024 * 1024, `the heap kept ${(held / 1024 / 1024).toFixed(1)} MB`);
  });

  it('holds its budget on the heap: a flood of big and small values, other scripts and images stops at what V8 holds, not at its JSON', () => {
    const maxBytes = 16 * 1024 * 1024;
    flood(new EventLog(undefined, undefined, 1024 * 1024)); // compiled and warmed before measuring
    const before = heapAfterGc();
    const log = new EventLog(undefined, undefined, maxBytes);
    flood(log);
    const held = heapAfterGc() - before;
    assert.ok(log.refused > 0, `the flood filled the log (${log.size} events, ${log.bytes} bytes)`);
    // V8's layout is estimated (shapes shared or not, hash tables' slack): half again the budget is
    // room for that, and 8 MB of margin; a log that weighed its events' JSON held about 4x
    assert.ok(
      held < 1.5 * maxBytes,
      `a log of ${maxBytes / 1024 / 1024} MB held ${(held / 1024 / 1024).toFixed(1)} MB of heap (${log.size} events)`,
    );
  });

  it('remembers a bounded number of shapes, also of the events it refused', () => {
    // a full log offered events whose objects all have keys never seen: each shape is remembered
    // only up to the log's limit, so refusing them costs next to nothing
    const offer = (log: EventLog, count: number) => {
      for (let index = 0; index < count; index++)
        log.append([
          {
            id: `shape-${index}`,
            kind: 'X',
            source: 'agent',
            timestamp: '',
            value: { [`key-${index}-${'k'.repeat(400)}`]: 1 },
          },
        ]);
    };
    offer(new EventLog(undefined, undefined, 0), 100); // compiled before measuring
    const log = new EventLog(undefined, undefined, 0);
    const before = heapAfterGc();
    offer(log, 20_000);
    const held = heapAfterGc() - before;
    assert.equal(log.refused, 20_000);
    // 20,000 shapes of 400 characters would be 8 MB; 1,024 of them under 1 MB
    assert.ok(held < 2 * 1024 * 1024, `refusing held ${(held / 1024 / 1024).toFixed(1)} MB`);
  });
});
