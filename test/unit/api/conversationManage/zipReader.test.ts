// A downloaded zip is hostile input: read within caps whatever its headers claim, events parsed in the
// server's order, anything else left out.
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { ApiError, exportedEvents } from '../../../../src/api';
import { readZip } from '../../../../src/api/zipReader';
import { zipArchive } from '../../../server/zipArchive';

const LIMITS = { maxEntries: 10, maxEntryBytes: 1024, maxTotalBytes: 4096 };

describe('readZip and exportedEvents', () => {
  it('reads the entries the double writes, events in their numbered order', () => {
    const zip = zipArchive([
      { name: 'meta.json', text: '{}' },
      { name: 'event_000001_b.json', text: JSON.stringify({ id: 'b', kind: 'MessageEvent' }) },
      { name: 'event_000000_a.json', text: JSON.stringify({ id: 'a', kind: 'MessageEvent' }) },
      { name: 'event_000002_c.json', text: 'not json' },
    ]);
    assert.deepEqual(
      readZip(zip, LIMITS).map((entry) => entry.name),
      ['meta.json', 'event_000001_b.json', 'event_000000_a.json', 'event_000002_c.json'],
    );
    const { events, skipped } = exportedEvents(zip);
    assert.deepEqual(
      events.map((event) => event.id),
      ['a', 'b'],
    );
    assert.equal(skipped, 1);
  });

  it('stops a bomb at the cap even when its header claims it is small', () => {
    const zip = zipArchive([{ name: 'big.json', text: 'x' }]);
    const bomb = deflateRawSync(Buffer.alloc(1 << 20));
    // splice the bomb in place of the tiny entry, sizes left claiming one byte
    const local = zip.subarray(0, 30 + 'big.json'.length);
    const rest = zip.subarray(30 + 'big.json'.length + deflateRawSync(Buffer.from('x')).length);
    local.writeUInt32LE(bomb.length, 18);
    const directoryAt = local.length + bomb.length;
    const patched = Buffer.concat([local, bomb, rest]);
    patched.writeUInt32LE(bomb.length, directoryAt + 20);
    patched.writeUInt32LE(directoryAt, patched.length - 22 + 16);
    assert.throws(
      () => readZip(patched, LIMITS),
      (error: unknown) =>
        error instanceof ApiError &&
        /cannot be read: it is larger than this extension reads/.test(error.message),
    );
  });

  it('refuses a cut zip, too many entries, and offsets outside the file, in words', () => {
    const zip = zipArchive([{ name: 'a', text: 'a' }]);
    assert.throws(
      () => readZip(zip.subarray(0, zip.length - 30), LIMITS),
      /no end record|broken|missing|cut/,
    );
    const many = zipArchive(Array.from({ length: 11 }, (_, i) => ({ name: `e${i}`, text: '' })));
    assert.throws(() => readZip(many, LIMITS), /holds 11 entries, more than 10/);
    const lying = Buffer.from(zip);
    lying.writeUInt32LE(0xfffffff0, lying.length - 22 + 16);
    assert.throws(() => readZip(lying, LIMITS), /directory is broken/);
  });
});
