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
