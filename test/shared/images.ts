// Real images for tests and the bench: the fixtures (made with Chromium) and a PNG grown to any size
// with a valid ancillary chunk, so a browser still draws it (its CRC is right) and it weighs what a
// real screenshot weighs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'images');

export function fixtureImage(name: 'page.png' | 'page.jpg' | 'small.webp' | 'pixel.gif'): Buffer {
  return fs.readFileSync(path.join(FIXTURES, name));
}

/** `page.png` (320×200) with a private `teXt`-like chunk added before IEND, `bytes` long in all (about). */
export function paddedPng(bytes: number): Buffer {
  const png = fixtureImage('page.png');
  const iend = png.length - 12;
  const fill = Math.max(0, bytes - png.length - 12);
  const type = Buffer.from('opAd'); // ancillary, private, safe to copy: every decoder skips it
  const data = Buffer.alloc(fill, 0x61);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(fill);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])) >>> 0);
  return Buffer.concat([png.subarray(0, iend), header, type, data, crc, png.subarray(iend)]);
}

export const SVG_WITH_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/**
 * The top-left pixel of an 8-bit RGB or RGBA PNG, as [r, g, b]: the first row's first pixel is stored as
 * it is under every PNG filter (nothing is left of or above it), so no unfiltering is needed.
 */
export function pngFirstPixel(png: Buffer): [number, number, number] {
  const data: Buffer[] = [];
  let depth = 0;
  let colourType = -1;
  for (let offset = 8; offset + 12 <= png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') [depth, colourType] = [body[8] ?? 0, body[9] ?? -1];
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (depth !== 8 || (colourType !== 2 && colourType !== 6))
    throw new Error(`a PNG of bit depth ${depth}, colour type ${colourType}: not 8-bit RGB(A)`);
  const rows = zlib.inflateSync(Buffer.concat(data));
  // byte 0 is the first row's filter type
  return [rows[1] ?? 0, rows[2] ?? 0, rows[3] ?? 0];
}
