// The page's images (webview/pageImages.ts) in Node: what they hold is counted by what the pictures
// cost decoded (sides × frames × 4 bytes), not by their files (issue 34, item 2), and a picture the
// browser could not decode stays said, never asked for again.
import assert from 'node:assert/strict';
import { imageCost, PageImages } from '../../../../../src/webviews/conversation/webview/pageImages';
import { gifAnimation, pngBomb } from '../../../../shared/imageBombs';

const MB = 1024 * 1024;

describe('page images: a budget of decoded bytes', () => {
  it('counts a picture by its decoded bitmaps, or its bytes when they weigh more', () => {
    assert.equal(imageCost(1280, 800, 1, 300_000), 1280 * 800 * 4);
    assert.equal(imageCost(256, 256, 12, 2_000), 256 * 256 * 4 * 12);
    assert.equal(imageCost(1, 1, 1, 5 * MB), 5 * MB);
  });

  it('lets pictures not in view go once what they cost decoded passes the budget, whatever their files weigh', () => {
    const asked: string[] = [];
    const images = new PageImages((event) => asked.push(event), 40 * MB);
    // three 2,048 × 2,048 pictures (16 MB each decoded) of a few KB of file each
    const file = pngBomb(2048, 2048);
    assert.ok(file.length < 10_000);
    const unwatch = ['a', 'b', 'c'].map((event) => {
      const stop = images.watch(event, 0, () => undefined);
      images.receive({
        type: 'image',
        event,
        index: 0,
        image: { mime: 'image/png', base64: file.toString('base64'), width: 2048, height: 2048 },
      });
      return stop;
    });
    // all in view: all kept, whatever the budget
    assert.equal(images.cost, 48 * MB);
    for (const stop of unwatch) stop();
    // out of view: the oldest goes (by file bytes, 48 MB of budget would have kept thousands)
    assert.equal(images.cost, 32 * MB);
    assert.equal(images.get('a', 0), undefined);
    assert.equal(images.get('c', 0)?.state, 'ready');
    // an animation's frames count
    images.watch('gif', 0, () => undefined);
    const gif = gifAnimation(12);
    images.receive({
      type: 'image',
      event: 'gif',
      index: 0,
      image: { mime: 'image/gif', base64: gif.toString('base64'), width: 256, height: 256, frames: 12 },
    });
    assert.equal(images.cost, 32 * MB + 3 * MB);
    images.clear();
  });

  it('keeps a picture the browser could not decode as why, and asks for it no more', () => {
    const asked: string[] = [];
    const images = new PageImages((event) => asked.push(event));
    let told = 0;
    const stop = images.watch('w', 0, () => told++);
    images.receive({
      type: 'image',
      event: 'w',
      index: 0,
      image: { mime: 'image/webp', base64: 'UklGRg==', width: 64, height: 48 },
    });
    images.broken('w', 0, 'This picture could not be drawn (the page could not decode its WEBP bytes).');
    assert.equal(told, 2, 'told it came, then that it broke');
    assert.equal(images.cost, 0);
    stop();
    images.watch('w', 0, () => undefined);
    assert.deepEqual(asked, ['w'], 'not asked again');
    assert.equal(images.get('w', 0)?.state, 'broken');
  });

  it('lets elements draw pictures up to its draw budget at once; one more waits until another leaves the view', () => {
    const images = new PageImages(() => undefined, 1024 * MB, 128 * MB);
    const file = pngBomb(4096, 4096).toString('base64'); // 64 MB decoded
    const told: string[] = [];
    const stops = new Map<string, () => void>();
    for (const event of ['a', 'b', 'c']) {
      stops.set(
        event,
        images.watch(event, 0, () => told.push(event)),
      );
      images.receive({
        type: 'image',
        event,
        index: 0,
        image: { mime: 'image/png', base64: file, width: 4096, height: 4096 },
      });
    }
    told.length = 0;
    assert.deepEqual(
      ['a', 'b', 'c'].map((event) => images.claimDraw(event, 0)),
      [true, true, false],
    );
    assert.equal(images.claimDraw('a', 0), true, 'drawn already');
    // a leaves the view: c is told, and may draw now
    stops.get('a')?.();
    assert.deepEqual(told, ['c']);
    assert.equal(images.claimDraw('c', 0), true);
    // one picture alone is drawn whatever it costs (the host caps each)
    const alone = new PageImages(() => undefined, 1024 * MB, 16 * MB);
    alone.watch('big', 0, () => undefined);
    alone.receive({
      type: 'image',
      event: 'big',
      index: 0,
      image: { mime: 'image/png', base64: file, width: 4096, height: 4096 },
    });
    assert.equal(alone.claimDraw('big', 0), true);
    images.clear();
    alone.clear();
  });
});
