// Playwright helpers for the VS Code web workbench: wait until it is usable, open views, screenshot.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOTS_DIR } from './paths';

/**
 * Resolves once the workbench shell is on screen and its activity bar stopped changing: entries
 * contributed by extensions appear a moment after the shell, and a screenshot taken earlier misses them.
 */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.activitybar .action-label').first().waitFor({ state: 'visible', timeout: timeoutMs });
  const labels = () =>
    page
      .locator('.activitybar .action-label')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')).join('|'));
  const settleDeadline = Date.now() + 10_000;
  let last = await labels();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 1500 && Date.now() < settleDeadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await labels();
    if (now !== last) [last, stableSince] = [now, Date.now()];
  }
}

export function activityBarEntry(page: Page, titlePrefix: string): Locator {
  return page.locator(`.activitybar .action-label[aria-label^="${titlePrefix}"]`).first();
}

/** Shows the view container behind an activity-bar entry; clicking an already open one would hide it. */
export async function openActivityBarView(
  page: Page,
  titlePrefix: string,
  timeoutMs = 10_000,
): Promise<void> {
  const entry = activityBarEntry(page, titlePrefix);
  await entry.waitFor({ state: 'visible', timeout: timeoutMs });
  const item = entry.locator('xpath=ancestor::li[contains(concat(" ", @class, " "), " action-item ")][1]');
  const open =
    (await item.getAttribute('class', { timeout: timeoutMs }))?.split(/\s+/).includes('checked') ?? false;
  if (!open) await entry.click();
  await page.locator('.part.sidebar').waitFor({ state: 'visible', timeout: timeoutMs });
  // Park the pointer over the editor so the entry's hover tooltip does not cover the screenshots.
  const editor = await page.locator('.part.editor').boundingBox();
  if (editor) await page.mouse.move(editor.x + editor.width / 2, editor.y + editor.height / 2);
}

/** Drags the sidebar's edge so tree descriptions (statuses) are not cut off in screenshots. */
export async function widenSidebar(page: Page, width = 480): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar || sidebar.width >= width) return;
  await dragSidebarEdge(page, sidebar, width);
}

/** VS Code's width for a new window's sidebar: `Math.min(300, window width / 4)` (its layout's default). */
export const DEFAULT_SIDEBAR_WIDTH = 300;

/** Drags the sidebar's edge to this width, narrower or wider. */
export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar || Math.abs(sidebar.width - width) < 1) return;
  await dragSidebarEdge(page, sidebar, width);
}

async function dragSidebarEdge(
  page: Page,
  sidebar: { x: number; y: number; width: number; height: number },
  width: number,
): Promise<void> {
  const edgeX = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(edgeX - 1, y);
  await page.mouse.down();
  await page.mouse.move(sidebar.x + width, y, { steps: 5 });
  await page.mouse.up();
  // Off the sash, or it stays highlighted in the screenshot.
  await page.mouse.move(sidebar.x + width + 300, y);
}

/** Saves a full-window PNG under .artifacts/screenshots/ (or `file` when absolute) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.isAbsolute(name)
    ? name
    : path.join(SCREENSHOTS_DIR, name.endsWith('.png') ? name : `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  return file;
}
