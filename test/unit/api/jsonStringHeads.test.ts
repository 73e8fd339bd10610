// JsonStringHeads: JSON read in chunks keeps each string's head, stays valid JSON whatever the
// chunking and wherever an escape falls, and refuses more structure than its bound.
import assert from 'node:assert/strict';
import { JsonStringHeads } from '../../../src/api/jsonStringHeads';

/** The text fed in chunks of `size` characters. */
function headsOf(text: string, maxStringChars: number, size: number, maxKept = 1_000_000): JsonStringHeads {
  const heads = new JsonStringHeads(maxStringChars, maxKept);
  for (let at = 0; at < text.length; at += size) heads.push(text.slice(at, at + size));
  return heads;
}

describe('JsonStringHeads', () => {
  const event = {
    id: 'e1',
    kind: 'ObservationEvent',
    observation: { kind: 'BrowserObservation', screenshot_data: 'A'.repeat(50_000) },
    next: 'after "the" picture',
  };

  it('keeps short strings whole and long ones to their head, in any chunking', () => {
    const text = JSON.stringify({ items: [event], next_page_id: 'e0' });
    for (const size of [1, 3, 7, 64, 4096, text.length]) {
      const heads = headsOf(text, 40, size);
      assert.equal(heads.cut, true);
      assert.deepEqual(JSON.parse(heads.text), {
        items: [{ ...event, observation: { ...event.observation, screenshot_data: 'A'.repeat(40) } }],
        next_page_id: 'e0',
      });
    }
  });

  it('never cuts inside an escape', () => {
    // every position of the cut against \uXXXX, \" and \\ escapes
    const value = '\\u00e9\\"\\\\x'.repeat(20);
    const text = `{"v": "${value}", "a": "k"}`;
    const whole = JSON.parse(text) as { v: string };
    for (let max = 1; max <= 40; max++) {
      for (const size of [1, 2, 5, text.length]) {
        const parsed = JSON.parse(headsOf(text, max, size).text) as { v: string; a: string };
        assert.equal(parsed.a, 'k');
        assert.ok(whole.v.startsWith(parsed.v), `a head of the string (max ${max}, chunks of ${size})`);
        assert.ok(parsed.v.length > 0 && parsed.v.length <= max);
      }
    }
  });

  it('refuses more than its bound of structure and heads', () => {
    const text = JSON.stringify({
      items: Array.from({ length: 1000 }, (_, index) => ({ id: `event-${index}` })),
    });
    assert.throws(() => headsOf(text, 16, 100, 5000), RangeError);
    assert.equal(headsOf(text, 16, 100, text.length).text, text);
  });
});
