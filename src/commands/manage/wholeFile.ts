/**
 * Writes a file only whole: the bytes go to a temporary file beside the target, which is renamed
 * over it at the end, so a failure or a cancel leaves the target as it was and no partial file
 * behind. No vscode import.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export async function writeWholeFile(target: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`,
  );
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(temporary, bytes, { signal, flag: 'wx' });
    signal?.throwIfAborted();
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
