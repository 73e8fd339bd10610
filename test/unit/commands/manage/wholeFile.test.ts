// A file is written whole or not at all: a failure or an abort leaves what was there, and no
// temporary file behind.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeWholeFile } from '../../../../src/commands/manage/wholeFile';

describe('writeWholeFile', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'openhands-whole-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('writes the bytes, replacing what was there, with nothing else left', async () => {
    const target = path.join(folder, 'out.zip');
    writeFileSync(target, 'old');
    await writeWholeFile(target, Buffer.from('new bytes'));
    assert.equal(readFileSync(target, 'utf8'), 'new bytes');
    assert.deepEqual(readdirSync(folder), ['out.zip']);
  });

  it('an abort leaves the old file as it was and no temporary file', async () => {
    const target = path.join(folder, 'out.zip');
    writeFileSync(target, 'old');
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(() => writeWholeFile(target, Buffer.alloc(1 << 20), abort.signal));
    assert.equal(readFileSync(target, 'utf8'), 'old');
    assert.deepEqual(readdirSync(folder), ['out.zip']);
  });

  it('a target it cannot replace (a folder) fails and leaves nothing behind', async () => {
    const target = path.join(folder, 'taken');
    writeFileSync(path.join(folder, 'keep'), 'x');
    await import('node:fs/promises').then((fs) => fs.mkdir(target));
    writeFileSync(path.join(target, 'inside'), 'y');
    await assert.rejects(() => writeWholeFile(target, Buffer.from('bytes')));
    assert.deepEqual(readdirSync(folder).sort(), ['keep', 'taken']);
    assert.deepEqual(readdirSync(target), ['inside']);
  });
});
