// The images of an agent's events (issue 24, item 2): real PNG, JPEG, GIF and WebP files pass with their
// size; hostile ones (an SVG labelled PNG, a cut image, a huge one, a `javascript:` URL) are refused.
// Issue 34, item 2: a picture costs what it takes decoded (sides × frames × 4 bytes), not what its file
// weighs; the bombs are built in test/shared/imageBombs.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  checkBase64,
  checkDataUrl,
  checkImageBytes,
  checkScreenshotData,
} from '../../../../src/api/agentServer/images';
import { checkEventImage, type EventImage } from '../../../../src/api/agentServer/eventImages';
import { drawBytes, MAX_DRAW_BYTES } from '../../../../src/api/agentServer/imageDrawCost';
import { animatedWebp, apng, gifAnimation, pngBomb, webpClaiming } from '../../../shared/imageBombs';
import { FIXTURES as TEST_FIXTURES } from '../../../shared/repository';

const FIXTURES = path.join(TEST_FIXTURES, 'images');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

const SVG_WITH_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

function reason(check: ReturnType<typeof checkImageBytes>): string {
  assert.equal(check.ok, false, 'refused');
  return check.ok ? '' : check.reason;
}

describe('agent images: what may be shown as a picture', () => {
  it('takes real PNG, JPEG, GIF and WebP files by their bytes, with their size', () => {
    const cases = [
      ['page.png', 'image/png', 320, 200],
      ['page.jpg', 'image/jpeg', 320, 200],
      ['pixel.gif', 'image/gif', 1, 1],
      ['small.webp', 'image/webp', 64, 48],
    ] as const;
    for (const [file, mime, width, height] of cases) {
      const check = checkImageBytes(fixture(file));
      assert.ok(check.ok, `${file}: ${check.ok ? '' : check.reason}`);
      assert.deepEqual(
        [check.image.mime, check.image.width, check.image.height, check.image.frames],
        [mime, width, height, 1],
        file,
      );
      // and each is cheap enough to draw
      assert.ok(checkEventImage(asEvent(fixture(file))).ok, file);
    }
  });

  it('reads screenshot_data as the agent server stores it (base64, no prefix) and as a data URL', () => {
    const base64 = fixture('page.png').toString('base64');
    const bare = checkScreenshotData(base64);
    assert.ok(bare.ok && bare.image.mime === 'image/png');
    // the label says JPEG, the bytes say PNG: the bytes win
    const mislabelled = checkScreenshotData(`data:image/jpeg;base64,${base64}`);
    assert.ok(mislabelled.ok && mislabelled.image.mime === 'image/png');
  });

  it('refuses an SVG with script, even labelled PNG, and never as a picture', () => {
    const svg = Buffer.from(SVG_WITH_SCRIPT).toString('base64');
    assert.match(reason(checkDataUrl(`data:image/png;base64,${svg}`)), /SVG/);
    assert.match(reason(checkScreenshotData(svg)), /SVG/);
    assert.match(reason(checkDataUrl(`data:image/svg+xml;base64,${svg}`)), /SVG/);
  });

  it('refuses a cut image of each kind', () => {
    for (const file of ['page.png', 'page.jpg', 'pixel.gif', 'small.webp']) {
      const whole = fixture(file);
      assert.match(reason(checkImageBytes(whole.subarray(0, whole.length - 5))), /cut short|broken/, file);
    }
  });

  it('refuses a 50 MB image before decoding it', () => {
    const huge = 'A'.repeat(Math.ceil((50 * 1024 * 1024 * 4) / 3));
    const started = process.hrtime.bigint();
    assert.match(reason(checkScreenshotData(huge)), /larger than 8 MB/);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 500, 'refused by its length alone');
  });

  it('refuses what is not a base64 image data URL: javascript:, a remote address, text', () => {
    assert.match(reason(checkDataUrl('javascript:alert(1)')), /not a base64 image/);
    assert.match(reason(checkDataUrl('https://evil.example/track.png')), /remote image/);
    assert.match(reason(checkDataUrl('data:text/html;base64,PHNjcmlwdD4=')), /not a base64 image/);
    assert.match(reason(checkBase64('not base64 at all!')), /not base64/);
    assert.match(reason(checkScreenshotData(42)), /no image data/);
    assert.match(
      reason(checkImageBytes(Buffer.from('plain text, no picture'))),
      /not a PNG, JPEG, GIF or WebP/,
    );
  });

  it('refuses a PNG that claims an absurd size', () => {
    const png = Buffer.from(fixture('page.png'));
    png.writeUInt32BE(1_000_000, 16);
    assert.match(reason(checkImageBytes(png)), /1000000×200 pixels/);
  });
});

/** An image as an event's content carries it. */
function asEvent(bytes: Buffer, mime = 'image/png'): EventImage {
  return { index: 0, from: 'content', value: `data:${mime};base64,${bytes.toString('base64')}` };
}

describe('agent images: what a picture costs to draw', () => {
  it('refuses a PNG of a few KB that declares 16,384 × 16,384 px: 1 GB decoded', () => {
    const bomb = pngBomb();
    assert.ok(bomb.length < 64 * 1024, `${bomb.length} bytes`);
    // a whole, valid PNG by its bytes…
    const read = checkImageBytes(bomb);
    assert.ok(read.ok);
    assert.deepEqual([read.image.width, read.image.height, read.image.frames], [16_384, 16_384, 1]);
    // …that costs too much to draw, and says so with its size
    assert.equal(
      reason(checkEventImage(asEvent(bomb))),
      'at 16,384 × 16,384 px it would take 1 GB of memory to draw (64 MB at most)',
    );
    // the same as a screenshot
    assert.match(
      reason(checkEventImage({ index: 0, from: 'screenshot', value: bomb.toString('base64') })),
      /1 GB of memory/,
    );
  });

  it('draws a 4K screenshot, refuses one just past the budget', () => {
    assert.ok(checkEventImage(asEvent(pngBomb(3840, 2160))).ok);
    assert.ok(checkEventImage(asEvent(pngBomb(4096, 4096))).ok, 'exactly the budget');
    assert.equal(drawBytes({ width: 4096, height: 4096 }), MAX_DRAW_BYTES);
    assert.match(
      reason(checkEventImage(asEvent(pngBomb(4096, 4097)))),
      /4,096 × 4,097 px .* 64 MB of memory/,
    );
  });

  it("counts a GIF's frames by walking its blocks, and refuses 10,000 of them", () => {
    const bomb = gifAnimation(10_000);
    const read = checkImageBytes(bomb);
    assert.ok(read.ok);
    assert.deepEqual([read.image.width, read.image.height, read.image.frames], [256, 256, 10_000]);
    assert.equal(
      reason(checkEventImage(asEvent(bomb, 'image/gif'))),
      'it is an animation of 10,000 frames of 256 × 256 px (1,000 at most)',
    );
    // under the frame cap, the frames still count in the decoded size: 300 × 256 KB
    assert.equal(
      reason(checkEventImage(asEvent(gifAnimation(300), 'image/gif'))),
      'its 300 frames of 256 × 256 px would take 75 MB of memory to draw (64 MB at most)',
    );
    const few = checkEventImage(asEvent(gifAnimation(12), 'image/gif'));
    assert.ok(few.ok && few.image.frames === 12);
  });

  it('sizes a GIF by its largest frame when a frame reaches past its screen', () => {
    const read = checkImageBytes(gifAnimation(1, 1, 1, 12_000));
    assert.ok(read.ok);
    assert.deepEqual([read.image.width, read.image.height], [12_000, 12_000]);
    assert.match(reason(checkEventImage(asEvent(gifAnimation(1, 1, 1, 12_000)))), /12,000 × 12,000 px/);
  });

  it('refuses a GIF whose blocks run past its end or are of no known kind', () => {
    const gif = gifAnimation(3);
    // a sub-block claiming more bytes than are left
    const long = Buffer.from(gif);
    long[long.length - 2] = 0xff;
    assert.match(reason(checkImageBytes(long)), /a broken GIF image/);
    const unknown = Buffer.concat([gif.subarray(0, gif.length - 1), Buffer.from([0x99, 0x3b])]);
    assert.match(reason(checkImageBytes(unknown)), /a broken GIF image/);
  });

  it("counts an APNG's frames by its acTL", () => {
    const three = checkImageBytes(apng(3));
    assert.ok(three.ok && three.image.frames === 3);
    assert.ok(checkEventImage(asEvent(apng(3))).ok);
    // a few frames that declare 5,000
    assert.match(reason(checkEventImage(asEvent(apng(2, 64, 48, 5_000)))), /an animation of 5,000 frames/);
    // 20 frames of 1024 × 1024: 80 MB
    assert.match(reason(checkEventImage(asEvent(apng(20, 1024, 1024)))), /its 20 frames .* 80 MB/);
  });

  it("counts an animated WebP's frames (ANMF), each inside the canvas and of its declared size", () => {
    const two = checkImageBytes(animatedWebp(2));
    assert.ok(two.ok, two.ok ? '' : two.reason);
    assert.deepEqual([two.image.width, two.image.height, two.image.frames], [64, 48, 2]);
    assert.match(reason(checkEventImage(asEvent(animatedWebp(1_001), 'image/webp'))), /1,001 frames/);
    assert.match(
      reason(checkImageBytes(animatedWebp(1, { x: 2 }))),
      /frame 1: 64×48 at 2,0 is outside the 64×48 canvas/,
    );
  });

  it('refuses a WebP whose header and picture disagree, saying both sizes', () => {
    assert.equal(
      reason(checkImageBytes(webpClaiming(16_384, 16_384))),
      'a broken WebP image (its header says 16384×16384, its picture 64×48)',
    );
    assert.match(reason(checkImageBytes(webpClaiming(64, 47))), /says 64×47, its picture 64×48/);
  });
});
