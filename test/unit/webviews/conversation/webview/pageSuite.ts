// The set-up every Chromium suite of the conversation page shares: the page built once, one
// browser, and after each test the check that the page kept within its CSP, threw nothing, took the
// VS Code API once and asked for nothing outside itself.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import {
  buildPage,
  launchChromium,
  openHarness,
  type Harness,
  type HarnessOptions,
  type HarnessWindow,
} from './harness';
import type { Header } from '../../../../../src/webviews/conversation/shared/protocol';
import { resendMessages } from './fixtureRows';
import { requireChromium } from '../../../../shared/chromium';

/** The time the header suites start their (empty) transcript at. */
const EPOCH = 1_700_000_000_000;

export interface Pages {
  page(options?: Omit<HarnessOptions, 'browser' | 'dir'>): Promise<Harness>;
  /**
   * A page started as the host starts it after `ready` (an empty transcript) with this header, once
   * `drawn` (a selector) is on it.
   */
  withHeader(head: Header, drawn?: string): Promise<Harness>;
}

/** Registers the suite's hooks (call it inside `describe`); `page` opens a harness closed after the test. */
export function usePages(): Pages {
  let browser: Browser | undefined;
  let dir = '';
  const open: Harness[] = [];

  before(async function () {
    requireChromium(this);
    dir = await buildPage();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    for (const harness of open.splice(0)) {
      // whatever the test did, the page stayed within its CSP, threw nothing and asked for nothing outside
      const seen = await harness.page.evaluate(() => (window as unknown as HarnessWindow).__harness);
      assert.deepEqual(seen.violations, [], 'CSP violations');
      assert.deepEqual(seen.errors, [], 'page errors');
      assert.equal(seen.acquired, 1, 'acquireVsCodeApi once');
      assert.deepEqual(harness.foreignRequests, [], 'requests outside the page');
      await harness.close();
    }
  });

  const pages: Pages = {
    async page(options = {}) {
      if (!browser) throw new Error('no browser');
      const harness = await openHarness({ browser, dir, ...options });
      open.push(harness);
      return harness;
    },
    async withHeader(head, drawn = '.header-meta .meta-item') {
      const harness = await pages.page();
      for (const message of resendMessages([], EPOCH, head)) await harness.post(message);
      await harness.page.waitForSelector(drawn);
      return harness;
    },
  };
  return pages;
}
