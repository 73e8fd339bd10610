// The command palette and quick input, as a person uses them.
import type { Page } from 'playwright-core';

const QUICK_INPUT = '.quick-input-widget input.input';

/** Runs a command by its palette title: clicks that entry, not whatever the palette ranks first. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // Leave whatever has the focus (a settings field, an open suggest widget) before opening the palette.
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator(QUICK_INPUT);
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(`>${title}`);
  const row = page
    .locator(`.quick-input-list .monaco-list-row[aria-label^="${title.replace(/"/g, '\\"')}"]`)
    .first();
  await row.click({ timeout: 10_000 });
}

/** Answers the input box a command opened (replacing its prefilled value). */
export async function answerInputBox(page: Page, value: string): Promise<void> {
  const input = page.locator(QUICK_INPUT);
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(value);
  await input.press('Enter');
}

/** Sets a string setting in the Settings editor (the way a user edits it) and closes the editor. */
export async function setStringSettingInEditor(
  page: Page,
  key: string,
  title: string,
  value: string,
): Promise<void> {
  await runCommand(page, 'Preferences: Open User Settings');
  const search = page.locator('.settings-editor .suggest-input-container').first();
  await search.waitFor({ state: 'visible', timeout: 10_000 });
  await search.click();
  await page.keyboard.type(key);
  const field = page.locator('.setting-item-contents', { hasText: title }).locator('input').first();
  await field.waitFor({ state: 'visible', timeout: 10_000 });
  await field.fill(value);
  await field.press('Tab');
  await runCommand(page, 'View: Close Editor');
}
