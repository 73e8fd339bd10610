// The images of an agent's events (issue 24, item 2): real PNG, JPEG, GIF and WebP files pass with their
// size; hostile ones (an SVG labelled PNG, a cut image, a huge one, a `javascript:` URL) are refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  checkBase64,
  checkDataUrl,
  checkImageBytes,
  checkScreenshotData,
} from '../../../src/api/agentServer/images';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'images');
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
        [check.image.mime, check.image.width, check.image.height],
        [mime, width, height],
        file,
      );
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
