// Debian's Chromium driven by playwright-core (no browser download: the machine is offline).
import * as fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './paths';

// Network-quiet, sandbox-free flags that work as root in a container.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(options: { headless?: boolean } = {}): Promise<BrowserSession> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} missing; run: npm run provision`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: options.headless ?? true,
    // Our Cleanup closes the browser on Ctrl-C; Playwright's own handler would exit the process
    // first and leave code-server and the test server running.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  // browser.close() ends Chromium's own process tree (Playwright started it and holds its pid).
  return { browser, context, page, close: () => browser.close() };
}
