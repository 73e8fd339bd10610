/**
 * The entries of a zip a server sent (the conversation download), read from its central directory:
 * stored or deflated entries only, each inflated under a cap and all of them under another, so a
 * hostile archive (a zip bomb, sizes that lie, offsets outside the file) is an `ApiError`, never a
 * hang or an exhausted heap. No zip64, no encryption. No vscode import.
 */
import { inflateRawSync } from 'node:zlib';
import { ApiError } from './errors';

export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

export interface ZipLimits {
  /** Entries read at most. */
  maxEntries: number;
  /** One entry inflated at most. */
  maxEntryBytes: number;
  /** All entries inflated at most, together. */
  maxTotalBytes: number;
}

const END_RECORD = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

export function readZip(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  const bad = (why: string) =>
    new ApiError({ kind: 'invalid_response', message: `The conversation's zip cannot be read: ${why}.` });
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > zip.length || zip.readUInt32LE(end) !== END_RECORD)
    throw bad('it has no end record');
  const count = zip.readUInt16LE(end + 10);
  if (count > limits.maxEntries) throw bad(`it holds ${count} entries, more than ${limits.maxEntries}`);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw bad('its directory is broken');
    const method = zip.readUInt16LE(at + 10);
    const packedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER)
      throw bad(`“${name.slice(0, 80)}” is missing`);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataAt + packedSize > zip.length) throw bad(`“${name.slice(0, 80)}” is cut`);
    if (size > limits.maxEntryBytes || total + size > limits.maxTotalBytes)
      throw bad('it is larger than this extension reads');
    const packed = zip.subarray(dataAt, dataAt + packedSize);
    let bytes: Buffer;
    try {
      // the declared size may lie: inflating stops at the cap whatever it says
      bytes =
        method === 0
          ? Buffer.from(packed)
          : method === 8
            ? inflateRawSync(packed, {
                maxOutputLength: Math.max(1, Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total)),
              })
            : (() => {
                throw bad(`“${name.slice(0, 80)}” is compressed in a way this extension does not read`);
              })();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // zlib stops at `maxOutputLength` with a RangeError: the entry inflates past the cap
      if (error instanceof RangeError) throw bad('it is larger than this extension reads');
      throw bad(`“${name.slice(0, 80)}” does not inflate`);
    }
    total += bytes.length;
    entries.push({ name, bytes });
    at += 46 + nameLength + skip;
  }
  return entries;
}
