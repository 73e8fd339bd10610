// Images an agent's events carry (a browser screenshot's `screenshot_data`, an `ImageContent`'s data URLs)
// are hostile like the rest of what it writes: an image is what its bytes say it is (PNG, JPEG, GIF or
// WebP, by signature, never by its label), whole (a cut one is refused), and small enough; anything else
// (SVG, which can carry script, a `javascript:` URL, a remote address) is never shown as a picture.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface CheckedImage {
  mime: ImageMime;
  width: number;
  height: number;
  /** Frames an animation holds (1 for a still picture): a decoder keeps a canvas-sized bitmap per frame. */
  frames: number;
  bytes: Buffer;
}

export type ImageCheck = { ok: true; image: CheckedImage } | { ok: false; reason: string };

/** A name that says picture: only a hint of what to look for, never what decides (the bytes do). */
export const IMAGE_FILE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** A screenshot of a 4K page is a few MB; past this an image is refused before it is decoded. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Wider or taller than this is no screenshot (what a picture costs to draw is judged apart: imageDrawCost.ts). */
const MAX_SIDE = 16_384;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A `screenshot_data` value: base64 without a `data:` prefix (agent server 1.34.0), or, from other
 * versions, a `data:image/…;base64,` URL. Anything else is refused.
 */
export function checkScreenshotData(data: unknown, maxBytes = MAX_IMAGE_BYTES): ImageCheck {
  if (typeof data !== 'string' || data.length === 0) return refuse('no image data');
  return data.startsWith('data:') ? checkDataUrl(data, maxBytes) : checkBase64(data, maxBytes);
}

/** An image URL of an `ImageContent`: only a base64 `data:` URL of an image is taken; no remote one is loaded. */
export function checkDataUrl(url: unknown, maxBytes = MAX_IMAGE_BYTES): ImageCheck {
  if (typeof url !== 'string') return refuse('not a URL');
  const match = /^data:image\/[a-z0-9.+-]+;base64,/i.exec(url.slice(0, 100));
  if (!match) {
    if (/^data:image\/svg/i.test(url)) return refuse('an SVG image (shown as text, never as a picture)');
    if (/^https?:/i.test(url)) return refuse('a remote image (never loaded)');
    return refuse('not a base64 image data URL');
  }
  return checkBase64(url.slice(match[0].length), maxBytes);
}

/** Base64 text to a checked image; the size is checked before decoding. */
export function checkBase64(text: string, maxBytes = MAX_IMAGE_BYTES): ImageCheck {
  // by its length alone first (line breaks allowed for), so a huge one costs no pass over it
  if (Math.floor((text.length * 3) / 4) > maxBytes * 1.05)
    return refuse(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const compact = text.replace(/\s+/g, '');
  if (Math.floor((compact.length * 3) / 4) > maxBytes)
    return refuse(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return refuse('not base64');
  return checkImageBytes(Buffer.from(compact, 'base64'), maxBytes);
}

/** What the bytes are: a whole PNG, JPEG, GIF or WebP with sane dimensions, or why not. */
export function checkImageBytes(bytes: Buffer, maxBytes = MAX_IMAGE_BYTES): ImageCheck {
  if (bytes.length > maxBytes) return refuse(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const read = readImage(bytes, true);
  if (!read.ok) return read;
  const { width, height } = read.image;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
    return refuse(`an image of ${width}×${height} pixels`);
  return read;
}

/**
 * What an image's first bytes say it is, and its size when the head holds it, without the whole: the
 * event log keeps only the head of a large image (the rest is read from the server when it is shown,
 * and checked whole then). `value` is a `screenshot_data` value or an `ImageContent` URL, either cut.
 */
export function peekImage(value: unknown): ImagePeek {
  if (typeof value !== 'string' || value.length === 0) return refuse('no image data');
  let base64 = value;
  if (value.startsWith('data:')) {
    const match = /^data:image\/[a-z0-9.+-]+;base64,/i.exec(value.slice(0, 100));
    if (!match) return checkDataUrl(value.slice(0, 200)) as { ok: false; reason: string };
    base64 = value.slice(match[0].length);
  } else if (/^(https?|javascript):/i.test(value))
    return checkDataUrl(value) as { ok: false; reason: string };
  const head = base64.slice(0, PEEK_CHARS).replace(/\s+/g, '');
  const usable = head.slice(0, head.length - (head.length % 4));
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(usable)) return refuse('not base64');
  const read = readImage(Buffer.from(usable, 'base64'), false);
  if (!read.ok) return read;
  const { mime, width, height } = read.image;
  return width > 0 && height > 0 ? { ok: true, mime, width, height } : { ok: true, mime };
}

/** What a head says (its frames are not known until the whole is read). */
export type ImagePeek =
  { ok: true; mime: ImageMime; width?: number; height?: number } | { ok: false; reason: string };

/** Enough of an image's base64 for its kind and, for every kind but some JPEGs, its size. */
const PEEK_CHARS = 4096;

/** The image `bytes` are; `whole` also checks its end (a peek at a head cannot). */
function readImage(bytes: Buffer, whole: boolean): ImageCheck {
  return (
    readPng(bytes, whole) ??
    readJpeg(bytes, whole) ??
    readGif(bytes, whole) ??
    readWebp(bytes, whole) ??
    refuse(notAnImage(bytes))
  );
}

function notAnImage(bytes: Buffer): string {
  const head = bytes.subarray(0, 256).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')))
    return 'an SVG image (shown as text, never as a picture)';
  if (head.startsWith('<')) return 'markup, not an image';
  return 'not a PNG, JPEG, GIF or WebP image';
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

function image(mime: ImageMime, width: number, height: number, bytes: Buffer, frames = 1): ImageCheck {
  return { ok: true, image: { mime, width, height, frames, bytes } };
}

/** PNG: the signature, IHDR first, and an IEND chunk at the very end (a cut file has none). */
function readPng(bytes: Buffer, whole: boolean): ImageCheck | undefined {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return refuse('a broken PNG image');
  const iend = bytes.length - 12;
  if (!whole) return image('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes);
  if (iend < 33 || bytes.readUInt32BE(iend) !== 0 || bytes.toString('latin1', iend + 4, iend + 8) !== 'IEND')
    return refuse('a PNG image cut short');
  const frames = pngFrames(bytes);
  if (frames === undefined) return refuse('a broken PNG image');
  return image('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes, frames);
}

/**
 * An APNG's frames as its `acTL` says (the decoder sizes its work by it), 1 for a still PNG, undefined
 * when a chunk runs past the end. `acTL` comes before the first `IDAT`, so the walk stops there.
 */
function pngFrames(bytes: Buffer): number | undefined {
  // each step moves at least 12 bytes: the walk ends within the file
  for (let offset = 8; offset + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (length > bytes.length - offset - 12) return undefined;
    if (type === 'IDAT' || type === 'IEND') return 1;
    if (type === 'acTL') return length >= 8 ? Math.max(1, bytes.readUInt32BE(offset + 8)) : undefined;
    offset += 12 + length;
  }
  return undefined;
}

/** JPEG: SOI, a frame header (SOFn) for the size, and EOI at the end (a cut file has none). */
function readJpeg(bytes: Buffer, whole: boolean): ImageCheck | undefined {
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return undefined;
  if (whole && (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9))
    return refuse('a JPEG image cut short');
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return refuse('a broken JPEG image');
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return image('image/jpeg', bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5), bytes);
    if (marker === 0xda || length < 2) break; // the scan starts before any frame header
    offset += 2 + length;
  }
  // a head may end before the frame header: the kind is known, the size is not
  if (!whole) return image('image/jpeg', 0, 0, bytes);
  return refuse('a JPEG image without a frame header');
}

/** GIF: the signature, the logical screen size, and the trailer (0x3B) at the end. */
function readGif(bytes: Buffer, whole: boolean): ImageCheck | undefined {
  const signature = bytes.toString('latin1', 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return undefined;
  if (bytes.length < 14 || (whole && bytes[bytes.length - 1] !== 0x3b))
    return refuse('a GIF image cut short');
  const screen = { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (!whole) return image('image/gif', screen.width, screen.height, bytes);
  const walked = gifFrames(bytes, screen);
  if (!walked) return refuse('a broken GIF image');
  return image('image/gif', walked.width, walked.height, bytes, walked.frames);
}

/**
 * A GIF's frames, by walking its blocks to the trailer, and the canvas they need: a frame may reach past
 * the logical screen, and decoders then grow the canvas to hold it. Undefined when a block runs past the
 * end or is of no known kind. Each step moves at least one byte, so the walk ends within the file.
 */
function gifFrames(
  bytes: Buffer,
  screen: { width: number; height: number },
): { frames: number; width: number; height: number } | undefined {
  let { width, height } = screen;
  let frames = 0;
  const packed = bytes[10] ?? 0;
  let offset = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  const skipSubBlocks = (): boolean => {
    while (offset < bytes.length) {
      const size = bytes[offset++] ?? 0;
      if (size === 0) return true;
      offset += size;
    }
    return false;
  };
  while (offset < bytes.length) {
    const block = bytes[offset];
    if (block === 0x3b) return frames > 0 ? { frames, width, height } : undefined;
    if (block === 0x21) {
      offset += 2; // introducer, label
      if (!skipSubBlocks()) return undefined;
    } else if (block === 0x2c) {
      if (offset + 10 > bytes.length) return undefined;
      width = Math.max(width, bytes.readUInt16LE(offset + 1) + bytes.readUInt16LE(offset + 5));
      height = Math.max(height, bytes.readUInt16LE(offset + 3) + bytes.readUInt16LE(offset + 7));
      const local = bytes[offset + 9] ?? 0;
      offset += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0) + 1; // + the LZW code size
      if (!skipSubBlocks()) return undefined;
      frames++;
    } else return undefined;
  }
  return undefined;
}

/**
 * WebP: RIFF whose size is the file's, `WEBP`, and the size from its VP8, VP8L or VP8X chunk. A VP8X
 * file's canvas is checked, when whole, against the pictures it holds: a decoder given a canvas its
 * bitstream does not fill draws nothing, and an animation's frames are counted.
 */
function readWebp(bytes: Buffer, whole: boolean): ImageCheck | undefined {
  if (
    bytes.length < 12 ||
    bytes.toString('latin1', 0, 4) !== 'RIFF' ||
    bytes.toString('latin1', 8, 12) !== 'WEBP'
  )
    return undefined;
  if ((whole && bytes.readUInt32LE(4) + 8 !== bytes.length) || bytes.length < 30)
    return refuse('a WebP image cut short');
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') {
    const width = bytes.readUIntLE(24, 3) + 1;
    const height = bytes.readUIntLE(27, 3) + 1;
    if (!whole) return image('image/webp', width, height, bytes);
    const walked = webpFrames(bytes, { width, height }, (bytes[20] ?? 0) & 0x02 ? 'animated' : 'still');
    if (typeof walked === 'string') return refuse(`a broken WebP image (${walked})`);
    return image('image/webp', width, height, bytes, walked);
  }
  const size = webpBitstreamSize(bytes, 12);
  if (!size) return refuse('a broken WebP image');
  return image('image/webp', size.width, size.height, bytes);
}

/** The size a VP8 or VP8L chunk (its header at `offset`) codes, or undefined when it is neither or broken. */
function webpBitstreamSize(bytes: Buffer, offset: number): { width: number; height: number } | undefined {
  const chunk = bytes.toString('latin1', offset, offset + 4);
  const data = offset + 8;
  if (chunk === 'VP8L' && data + 5 <= bytes.length && bytes[data] === 0x2f) {
    const bits = bytes.readUInt32LE(data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  // a key frame's start code, then its size
  if (chunk === 'VP8 ' && data + 10 <= bytes.length && bytes.readUIntBE(data + 3, 3) === 0x9d012a)
    return { width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
  return undefined;
}

/**
 * A VP8X file's chunks after its header: a still one must hold a picture the canvas's size, an animated
 * one at least one frame (ANMF) inside the canvas, each frame's picture its declared size. The frames,
 * or what disagrees. Each step moves at least 8 bytes, so the walk ends within the file.
 */
function webpFrames(
  bytes: Buffer,
  canvas: { width: number; height: number },
  kind: 'animated' | 'still',
): number | string {
  const claimed = `${canvas.width}×${canvas.height}`;
  let frames = 0;
  for (let offset = 30; offset + 8 <= bytes.length;) {
    const chunk = bytes.toString('latin1', offset, offset + 4);
    const length = bytes.readUInt32LE(offset + 4);
    if (length > bytes.length - offset - 8) return `its ${chunk.trim()} chunk runs past the end`;
    if (kind === 'still' && (chunk === 'VP8 ' || chunk === 'VP8L')) {
      const size = webpBitstreamSize(bytes, offset);
      if (!size) return `its ${chunk.trim()} chunk is broken`;
      if (size.width !== canvas.width || size.height !== canvas.height)
        return `its header says ${claimed}, its picture ${size.width}×${size.height}`;
      return 1;
    }
    if (kind === 'animated' && chunk === 'ANMF') {
      const problem = webpFrameProblem(bytes, offset + 8, length, canvas);
      if (problem) return `frame ${frames + 1}: ${problem}`;
      frames++;
    }
    offset += 8 + length + (length % 2);
  }
  if (kind === 'animated' && frames > 0) return frames;
  return kind === 'animated' ? 'an animation without frames' : 'no picture in it';
}

/** Why an ANMF frame (its data at `data`) does not fit its canvas or its declared size, or undefined. */
function webpFrameProblem(
  bytes: Buffer,
  data: number,
  length: number,
  canvas: { width: number; height: number },
): string | undefined {
  if (length < 16 + 8) return 'too short';
  const x = bytes.readUIntLE(data, 3) * 2;
  const y = bytes.readUIntLE(data + 3, 3) * 2;
  const width = bytes.readUIntLE(data + 6, 3) + 1;
  const height = bytes.readUIntLE(data + 9, 3) + 1;
  if (x + width > canvas.width || y + height > canvas.height)
    return `${width}×${height} at ${x},${y} is outside the ${canvas.width}×${canvas.height} canvas`;
  // an ALPH chunk may come before the picture
  let inner = data + 16;
  if (inner + 8 <= data + length && bytes.toString('latin1', inner, inner + 4) === 'ALPH') {
    const alpha = bytes.readUInt32LE(inner + 4);
    inner += 8 + alpha + (alpha % 2);
  }
  if (inner + 8 > data + length) return 'no picture in it';
  const size = webpBitstreamSize(bytes, inner);
  if (!size) return 'its picture is broken';
  if (size.width !== width || size.height !== height)
    return `it says ${width}×${height}, its picture ${size.width}×${size.height}`;
  return undefined;
}
