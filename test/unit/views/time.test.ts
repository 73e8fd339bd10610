// Ages in the tree rows, against a fixed "now": the boundaries a user reads.
import assert from 'node:assert/strict';
import { formatAge, formatTimestamp } from '../../../src/views/time';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('formatAge', () => {
  it('says “just now” under a minute, then minutes, hours up to two days, then days', () => {
    const cases: [number, string][] = [
      [0, 'just now'],
      [59, 'just now'],
      [60, '1 min ago'],
      [89, '1 min ago'],
      [90, '2 min ago'],
      [59 * 60, '59 min ago'],
      [60 * 60, '1 h ago'],
      [47 * 3600, '47 h ago'],
      [48 * 3600, '2 d ago'],
      [400 * 86_400, '400 d ago'],
    ];
    for (const [seconds, text] of cases) assert.equal(formatAge(ago(seconds), NOW), text, `${seconds} s`);
  });

  it('says “just now” for a time ahead of the clock (a server’s clock a little fast)', () => {
    assert.equal(formatAge(ago(-300), NOW), 'just now');
  });

  it('says nothing for a missing or unreadable time', () => {
    for (const value of [undefined, null, '', 'yesterday']) assert.equal(formatAge(value, NOW), '');
  });
});

describe('formatTimestamp', () => {
  it('shows a dash for no time and what the server sent for one it cannot read', () => {
    assert.equal(formatTimestamp(null), '—');
    assert.equal(formatTimestamp('not a time'), 'not a time');
    assert.equal(formatTimestamp(ago(0)), new Date(NOW).toLocaleString());
  });
});
