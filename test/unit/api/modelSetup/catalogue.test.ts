import assert from 'node:assert/strict';
import { readAllPages } from '../../../../src/api/modelSetup/catalogue';
import { verifiedFirst } from '../../../../src/api';

describe('catalogue paging', () => {
  it('stops at a page id seen before (a server that loops) and says it is incomplete', async () => {
    let reads = 0;
    const list = await readAllPages(async () => {
      reads++;
      return { items: [reads], next_page_id: reads % 2 === 0 ? 'a' : 'b' };
    });
    assert.equal(list.complete, false);
    assert.ok(reads <= 3, `read ${reads} pages`);
  });

  it('stops on an empty page that still names a next one', async () => {
    const list = await readAllPages(async () => ({ items: [], next_page_id: 'again' }));
    assert.deepEqual(list, { items: [], complete: false });
  });

  it('never keeps more than the cap, whatever a page holds', async () => {
    const big = Array.from({ length: 10_000 }, (_, i) => i);
    const list = await readAllPages(async () => ({ items: big, next_page_id: null }), 1_000_000);
    assert.equal(list.items.length, 5000);
    assert.equal(list.complete, false);
  });

  it('verified first, hidden last, the server order kept within each', () => {
    const items = [
      { name: 'a', verified: false },
      { name: 'b', verified: true },
      { name: 'c', verified: true, hidden: true },
      { name: 'd', verified: true },
      { name: 'e', verified: false },
    ];
    assert.deepEqual(
      verifiedFirst(items).map((i) => i.name),
      ['b', 'd', 'a', 'e', 'c'],
    );
  });
});
