// Pictures that cost far more to draw than their files weigh (issue 34, item 2), built here from their
// formats' specs: a PNG declaring 16,384 × 16,384 px whose pixels are deflated zeros, a GIF of thousands
// of frames, an APNG, an animated WebP, and a WebP whose header and picture disagree.
import * as zlib from 'node:zlib';
import { fixtureImage } from './images';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** 1-bit greyscale, so the rows to deflate are an eighth of the pixels: 33 MB of zeros for 16,384². */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return pngChunk('IHDR', header);
}

/** Black rows (each led by filter type 0), deflated. */
function blackRows(width: number, height: number): Buffer {
  return zlib.deflateSync(Buffer.alloc(height * (1 + Math.ceil(width / 8))), { level: 9 });
}

/** A black PNG of `width` × `height` px: a few KB of file whatever its sides. */
export function pngBomb(width = 16_384, height = 16_384): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngHeader(width, height),
    pngChunk('IDAT', blackRows(width, height)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An APNG of `frames` black frames of `width` × `height` px; `declared` is what its acTL says. */
export function apng(frames: number, width = 64, height = 48, declared = frames): Buffer {
  const control = Buffer.alloc(8);
  control.writeUInt32BE(declared, 0);
  const rows = blackRows(width, height);
  const chunks = [PNG_SIGNATURE, pngHeader(width, height), pngChunk('acTL', control)];
  let sequence = 0;
  for (let frame = 0; frame < frames; frame++) {
    const frameControl = Buffer.alloc(26);
    frameControl.writeUInt32BE(sequence++, 0);
    frameControl.writeUInt32BE(width, 4);
    frameControl.writeUInt32BE(height, 8);
    frameControl.writeUInt16BE(1, 20); // 1/10 s
    frameControl.writeUInt16BE(10, 22);
    chunks.push(pngChunk('fcTL', frameControl));
    if (frame === 0) chunks.push(pngChunk('IDAT', rows));
    else {
      const number = Buffer.alloc(4);
      number.writeUInt32BE(sequence++);
      chunks.push(pngChunk('fdAT', Buffer.concat([number, rows])));
    }
  }
  chunks.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(chunks);
}

/**
 * A GIF89a of `frames` frames on a `width` × `height` screen, each frame one black pixel at the top
 * left (a decoder still keeps a bitmap of the whole screen per frame); `frameSide` makes the first frame
 * that wide and tall instead, past the screen when larger.
 */
export function gifAnimation(frames: number, width = 256, height = 256, frameSide = 1): Buffer {
  const screen = Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0x80, // a global colour table of two colours
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
    // NETSCAPE2.0: loop forever
    ...[0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00],
  ]);
  const frame = (side: number) =>
    Buffer.from([
      ...[0x21, 0xf9, 0x04, 0x00, 0x02, 0x00, 0x00, 0x00], // graphic control: 20 ms
      ...[0x2c, 0, 0, 0, 0, side & 0xff, side >> 8, side & 0xff, side >> 8, 0x00],
      // LZW, code size 2: clear, pixel 0, end of information
      ...[0x02, 0x02, 0x44, 0x01, 0x00],
    ]);
  const parts = [screen];
  for (let index = 0; index < frames; index++) parts.push(frame(index === 0 ? frameSide : 1));
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** The `small.webp` fixture (VP8X, 64 × 48) with its header's canvas made `width` × `height`. */
export function webpClaiming(width: number, height: number): Buffer {
  const webp = Buffer.from(fixtureImage('small.webp'));
  webp.writeUIntLE(width - 1, 24, 3);
  webp.writeUIntLE(height - 1, 27, 3);
  return webp;
}

/** An animated WebP of `frames` frames, each the picture of `small.webp` (64 × 48) at `x`,`y`. */
export function animatedWebp(frames: number, { x = 0, y = 0 } = {}): Buffer {
  const still = fixtureImage('small.webp');
  // the picture's chunks (ALPH, VP8 or VP8L) of the fixture, as a frame holds them
  const picture: Buffer[] = [];
  for (let offset = 30; offset + 8 <= still.length;) {
    const chunk = still.toString('latin1', offset, offset + 4);
    const length = still.readUInt32LE(offset + 4);
    const end = offset + 8 + length + (length % 2);
    if (chunk === 'ALPH' || chunk === 'VP8 ' || chunk === 'VP8L') picture.push(still.subarray(offset, end));
    offset = end;
  }
  const riffChunk = (type: string, data: Buffer) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(data.length, 4);
    return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
  };
  const canvas = Buffer.alloc(10);
  canvas[0] = 0x02 | (picture.some((chunk) => chunk.toString('latin1', 0, 4) === 'ALPH') ? 0x10 : 0);
  canvas.writeUIntLE(64 - 1, 4, 3);
  canvas.writeUIntLE(48 - 1, 7, 3);
  const animation = Buffer.from([0, 0, 0, 0, 0, 0]); // background, loop forever
  const chunks = [riffChunk('VP8X', canvas), riffChunk('ANIM', animation)];
  for (let frame = 0; frame < frames; frame++) {
    const header = Buffer.alloc(16);
    header.writeUIntLE(x / 2, 0, 3);
    header.writeUIntLE(y / 2, 3, 3);
    header.writeUIntLE(64 - 1, 6, 3);
    header.writeUIntLE(48 - 1, 9, 3);
    header.writeUIntLE(100, 12, 3); // ms
    header[15] = 0x02; // do not blend
    chunks.push(riffChunk('ANMF', Buffer.concat([header, ...picture])));
  }
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}
