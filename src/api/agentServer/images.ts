// Images an agent's events carry (a browser screenshot's `screenshot_data`, an `ImageContent`'s data URLs)
// are hostile like the rest of what it writes: an image is what its bytes say it is (PNG, JPEG, GIF or
// WebP, by signature, never by its label), whole (a cut one is refused), and small enough; anything else
// (SVG, which can carry script, a `javascript:` URL, a remote address) is never shown as a picture.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface CheckedImage {
  mime: ImageMime;
  width: number;
  height: number;
  bytes: Buffer;
}

export type ImageCheck = { ok: true; image: CheckedImage } | { ok: false; reason: string };

/** A name that says picture: only a hint of what to look for, never what decides (the bytes do). */
export const IMAGE_FILE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** A screenshot of a 4K page is a few MB; past this an image is refused before it is decoded. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Wider or taller than this is no screenshot (and would cost the page too much to draw). */
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

function image(mime: ImageMime, width: number, height: number, bytes: Buffer): ImageCheck {
  return { ok: true, image: { mime, width, height, bytes } };
}

/** PNG: the signature, IHDR first, and an IEND chunk at the very end (a cut file has none). */
function readPng(bytes: Buffer, whole: boolean): ImageCheck | undefined {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return refuse('a broken PNG image');
  const iend = bytes.length - 12;
  if (!whole) return image('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes);
  if (iend < 33 || bytes.readUInt32BE(iend) !== 0 || bytes.toString('latin1', iend + 4, iend + 8) !== 'IEND')
    return refuse('a PNG image cut short');
  return image('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes);
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
  return image('image/gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8), bytes);
}

/** WebP: RIFF whose size is the file's, `WEBP`, and the size from its VP8, VP8L or VP8X chunk. */
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
  if (chunk === 'VP8X')
    return image('image/webp', bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1, bytes);
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return image('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, bytes);
  }
  if (chunk === 'VP8 ')
    return image('image/webp', bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff, bytes);
  return refuse('a broken WebP image');
}
