import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EventLog, IMAGE_HEAD_CHARS } from '../../../src/api/agentServer/eventLog';
import type { AgentEvent } from '../../../src/api/agentServer/events';

// a full collection on demand, without starting Node with --expose-gc
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

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
});
