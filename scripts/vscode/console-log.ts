// Records the page's console to a file: extension-host errors, failed activations and test output are
// forwarded there by the web workbench, and this is often the only trace of why a run failed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { ConsoleMessage, Page } from 'playwright-core';

/** The workbench forwards logs as (`%c INFO`, `color: …`, original arguments…); render them like DevTools. */
async function render(message: ConsoleMessage): Promise<string> {
  try {
    let values: unknown[] = await Promise.all(message.args().map((arg) => arg.jsonValue()));
    let prefix = '';
    if (typeof values[0] === 'string' && values[0].startsWith('%c')) {
      prefix = `${values[0].slice(2).trim()} `;
      values = values.slice(2);
    }
    if (values.length > 0) return prefix + format(...values);
  } catch {
    // Arguments of a closed page cannot be read any more; the raw text is still there.
  }
  return message.text();
}

export function recordConsole(page: Page, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const stream = fs.createWriteStream(file, { flags: 'w' });
  const stamp = () => new Date().toISOString();
  // Chained so lines keep their order although rendering is asynchronous.
  let queue = Promise.resolve();
  const write = (line: () => Promise<string> | string) => {
    queue = queue.then(async () => void stream.write(`${stamp()} ${await line()}\n`));
  };
  page.on('console', (message) => write(async () => `[${message.type()}] ${await render(message)}`));
  page.on('pageerror', (error) => write(() => `[pageerror] ${error.stack ?? error.message}`));
  page.on('crash', () => write(() => '[crash] page crashed'));
  page.once('close', () => void queue.then(() => stream.end()));
}
