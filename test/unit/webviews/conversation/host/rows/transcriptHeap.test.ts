// What the panel's rows cost on the heap beside the event log they are built from: a row keeps its
// clipped texts, never a whole copy of what it clipped (joined content parts, thoughts, a generated
// summary), so a conversation costs its log's budget and a little more, not twice it.
import assert from 'node:assert/strict';
import { EventLog } from '../../../../../../src/api/agentServer/eventLog';
import type { AgentEvent } from '../../../../../../src/api';
import { Transcript } from '../../../../../../src/webviews/conversation/host/rows/transcript';
import { heapAfterGc } from '../../../../../shared/heap';

const parts = (index: number, count: number, length: number) =>
  Array.from({ length: count }, (_, part) => ({
    type: 'text',
    text: `${index}.${part} `.padEnd(length, 'out '),
  }));

/** Events whose row texts are made of several of their strings, each long enough to be clipped. */
function composedEvent(index: number): AgentEvent {
  const base = { id: `row-${index}`, timestamp: '2026-01-01T00:00:00', source: 'agent' };
  switch (index % 3) {
    case 0:
      return {
        ...base,
        kind: 'ObservationEvent',
        source: 'environment',
        action_id: `not-held-${index}`,
        observation: { kind: 'TerminalObservation', content: parts(index, 8, 20_000), exit_code: 0 },
      };
    case 1:
      return {
        ...base,
        kind: 'MessageEvent',
        llm_message: { role: 'assistant', content: parts(index, 3, 20_000) },
      };
    default:
      return {
        ...base,
        kind: 'ActionEvent',
        tool_name: 'custom',
        tool_call_id: `call-${index}`,
        thought: parts(index, 3, 20_000),
        action: { kind: 'CustomAction' },
        tool_call: { arguments: `{"input": "${'x'.repeat(50_000)}"}` },
      };
  }
}

/** Fills the log; in a function, so no event stays on the stack. */
function fill(log: EventLog): void {
  for (let index = 0; log.refused === 0; index++) log.append([composedEvent(index)]);
}

function rowsOf(log: EventLog): Transcript {
  const transcript = new Transcript();
  transcript.append(log.events);
  return transcript;
}

describe('Transcript on the heap', () => {
  it('holds its rows beside a full event log for a tenth of the log more, not a copy of every text it clipped', () => {
    rowsOf(new EventLog()); // compiled before measuring
    const maxBytes = 16 * 1024 * 1024;
    const log = new EventLog(undefined, undefined, maxBytes);
    fill(log);
    const before = heapAfterGc();
    const transcript = rowsOf(log);
    const rows = heapAfterGc() - before;
    assert.equal(transcript.size, log.size, 'one row an event');
    // every row shows part of its event's texts: what it keeps of its own is what this measures
    assert.ok(log.events.every((event) => JSON.stringify(event).length > 60_000));
    assert.ok(transcript.all.every((row) => JSON.stringify(row).length < 30_000));
    // each row keeps at most 20,000 characters of its own (a slice of one string costs 32 bytes)
    // where its event holds 160,000: a tenth, with room for the rows' objects
    assert.ok(
      rows < maxBytes / 10,
      `${transcript.size} rows held ${(rows / 1024 / 1024).toFixed(1)} MB beside a log of ${maxBytes / 1024 / 1024} MB`,
    );
  });
});
