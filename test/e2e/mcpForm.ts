// Driving the "OpenHands: MCP & Git Providers" panel: the palette command, the webview's nested
// iframes, and the form's fields (found by the ids the webview derives from field paths).
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { eventually } from './wait';

export const EDIT_COMMAND_TITLE = 'OpenHands: Edit MCP & Git Providers…';

/** Runs a command by its palette title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(`>${title}`);
  // The entry with this title (rows are labelled by it), not whatever the palette ranks first.
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title.replace(/"/g, '\\"')}"]`).first();
  await row.click({ timeout: 5_000 });
}

/** The document inside the panel's webview (VS Code nests it in two iframes). */
export function formFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

export async function waitForForm(page: Page, timeoutMs = 15_000): Promise<FrameLocator> {
  const frame = formFrame(page);
  await frame.locator('#provider-github').waitFor({ state: 'visible', timeout: timeoutMs });
  return frame;
}

/** `f-<path with dots as dashes>`, as `fieldDomId` in src/mcpForm/fieldPath.ts. */
export function fieldId(path: string): string {
  return `f-${path.replace(/\./g, '-')}`;
}

export function field(frame: FrameLocator, path: string): Locator {
  return frame.locator(`#${fieldId(path)}`);
}

/** Types into a vscode-textfield (its real input lives in the shadow root). */
export async function fill(frame: FrameLocator, path: string, value: string): Promise<void> {
  const input = field(frame, path).locator('input');
  await input.click();
  await input.fill(value);
  await input.press('Tab');
}

export async function click(frame: FrameLocator, id: string): Promise<void> {
  await frame.locator(`#${id}`).click();
}

export async function errorText(frame: FrameLocator, path: string): Promise<string> {
  return (await frame.locator(`#${fieldId(path)}-error`).textContent())?.trim() ?? '';
}

/** Waits until the form is not busy (the host answered). */
export async function waitIdle(frame: FrameLocator, timeoutMs = 15_000): Promise<void> {
  await eventually(
    'the form to finish its operation',
    async () => ((await frame.locator('#app').getAttribute('aria-busy')) === 'false' ? true : undefined),
    { timeoutMs },
  );
}

/** The current value of a vscode-textfield (a property, not an attribute). */
export async function valueOf(frame: FrameLocator, path: string): Promise<string> {
  return field(frame, path).evaluate((element) => ('value' in element ? String(element.value) : ''));
}

/** Presses a secret field's Replace/Set… button and types the new value. */
export async function setSecret(frame: FrameLocator, path: string, value: string): Promise<void> {
  const id = fieldId(path);
  const button = frame.locator(`#${id}-set, #${id}-replace`).first();
  if (await button.isVisible()) await button.click();
  await fill(frame, path, value);
}

export async function secretState(frame: FrameLocator, path: string): Promise<string> {
  return (await frame.locator(`#${fieldId(path)}-state`).textContent())?.trim() ?? '';
}
