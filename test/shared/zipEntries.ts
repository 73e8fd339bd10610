// Reads a zip's entries as its central directory lists them (names and inflated bytes), so a test can
// say what a download holds without trusting the code that wrote it. Stored and deflated entries only.
import { inflateRawSync } from 'node:zlib';

export interface ZipRead {
  name: string;
  bytes: Buffer;
}

export function zipEntries(zip: Buffer): ZipRead[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipRead[] = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`no directory entry at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const packedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const packed = zip.subarray(dataAt, dataAt + packedSize);
    entries.push({ name, bytes: method === 8 ? inflateRawSync(packed) : Buffer.from(packed) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
