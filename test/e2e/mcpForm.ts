// Driving the "OpenHands: MCP & Git Providers" panel: the palette command, the webview's nested
// iframes, and the form's fields (found by the ids the webview derives from field paths).
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { eventually } from './wait';

export const EDIT_COMMAND_TITLE = 'OpenHands: Edit MCP & Git Providers…';

/** The document inside the panel's webview (VS Code nests it in two iframes). */
export function formFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

export async function waitForForm(page: Page, timeoutMs = 15_000): Promise<FrameLocator> {
  const frame = formFrame(page);
  await frame.locator('#provider-github').waitFor({ state: 'visible', timeout: timeoutMs });
  return frame;
}

/** `f-<path with dots as dashes>`, as `fieldDomId` in src/webviews/mcpForm/shared/fieldPath.ts. */
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

/**
 * VS Code (web) writes its UI state, webview states included, to IndexedDB when the window loses
 * focus; a reload right after typing could otherwise come back with an older state. Simulates the
 * user switching to another application and back.
 */
export async function blurAndRefocusWindow(page: Page): Promise<void> {
  // Strings, not functions: the test runner's transpiler would add helpers the page lacks.
  await page.evaluate(
    "Object.defineProperty(document, 'hasFocus', { value: function () { return false; }, configurable: true });" +
      "document.dispatchEvent(new Event('visibilitychange'));",
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await page.evaluate("delete document.hasFocus; document.dispatchEvent(new Event('visibilitychange'));");
}
