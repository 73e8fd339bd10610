// Waits for a file another process writes (the suite's JSON report), bailing out early on a reason to stop.
import * as fs from 'node:fs';

export interface WaitFileOptions {
  timeoutMs: number;
  /** Returns why waiting is pointless (e.g. code-server died), or undefined to keep waiting. */
  abortReason?: () => string | undefined;
}

export async function waitForFile(file: string, options: WaitFileOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!fs.existsSync(file)) {
    const reason = options.abortReason?.();
    if (reason) throw new Error(reason);
    if (Date.now() > deadline) throw new Error(`no ${file} after ${Math.round(options.timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
