// VS Code knows tree rows by object: a row keeps its object while shown, filled with new data.
import assert from 'node:assert/strict';
import { RowCache } from '../../../src/views/rowCache';

interface Item {
  id: string;
  text: string;
}

describe('RowCache', () => {
  it('keeps each shown row’s object, fills it with the new data, and drops rows no longer shown', () => {
    const cache = new RowCache<{ text: string }>();
    let made = 0;
    const sync = (items: Item[]) =>
      cache.sync(
        items,
        (item) => item.id,
        (item) => (made++, { text: item.text }),
        (row, item) => (row.text = item.text),
      );
    const [a, b] = sync([
      { id: 'a', text: 'A' },
      { id: 'b', text: 'B' },
    ]);
    const [b2, c] = sync([
      { id: 'b', text: 'B2' },
      { id: 'c', text: 'C' },
    ]);
    assert.equal(b2, b);
    assert.equal(b2?.text, 'B2');
    assert.equal(made, 3);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('c'), c);
    const [a2] = sync([{ id: 'a', text: 'A' }]);
    assert.notEqual(a2, a, 'a row that went and came back is a new object');
    cache.clear();
    assert.equal(cache.get('a'), undefined);
  });
});
