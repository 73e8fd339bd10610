// The command palette and quick input, as a person uses them.
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { eventually } from './wait';

export const QUICK_INPUT = '.quick-input-widget input.input';

/**
 * Runs a command by its palette title: clicks that entry, not whatever the palette ranks first.
 * VS Code gives the focus back to a webview a moment after a quick input closed over it; a palette
 * opened in that moment closes under the fill (seen after a color theme was chosen over a panel).
 * A palette closed before its entry was clicked is opened again, as a person would, at most twice.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator(QUICK_INPUT);
  const row = page
    .locator(`.quick-input-list .monaco-list-row[aria-label^="${title.replace(/"/g, '\\"')}"]`)
    .first();
  for (let attempt = 1; ; attempt++) {
    // Leave whatever has the focus (a webview, a settings field, an open suggest widget) first.
    await page.evaluate(
      'if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur();',
    );
    await page.keyboard.press('Escape');
    // a quick pick that Escape closes stays in the page a moment: F1 pressed then finds the old input
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 });
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      await row.click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3 || (await input.isVisible())) throw error;
      console.log(`      (the palette closed before "${title}" was clicked: opened again)`);
    }
  }
}

/** Picks the conversation in a command's quick pick (it matches on the id, shown as the detail). */
export async function pickConversation(
  page: Page,
  conversation: { id: string; title: string },
): Promise<void> {
  const input = page.locator(QUICK_INPUT);
  await input.waitFor({ state: 'visible', timeout: 5_000 });
  await input.fill(conversation.id, { timeout: 5_000 });
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: conversation.title })
    .first()
    .click({ timeout: 10_000 });
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
  await runCommand(page, 'Preferences: Open Settings (UI)');
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

/**
 * Edits the user settings.json in its editor, as a user who types a value the Settings editor would
 * refuse (its pattern check keeps invalid values out). `undefined` removes a key.
 */
export async function editSettingsJson(
  page: Page,
  settingsFile: string,
  changes: Record<string, unknown>,
): Promise<void> {
  const current = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  // one line: typed newlines would be auto-indented
  const next = JSON.stringify({ ...current, ...changes });
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 10_000 });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(next);
  // whatever the editor auto-closed sits after the cursor: drop it
  await page.keyboard.press('Shift+ControlOrMeta+End');
  await page.keyboard.press('Delete');
  await page.keyboard.press('ControlOrMeta+S');
  await runCommand(page, 'View: Close Editor');
}

export function quickPickRow(page: Page, label: string): Locator {
  return page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
}

export async function passwordBox(page: Page, title: string): Promise<void> {
  await eventually(
    `the password box "${title}…"`,
    async () => {
      const input = page.locator(QUICK_INPUT);
      const shown = await page.locator('.quick-input-title', { hasText: title }).first().isVisible();
      return shown && (await input.getAttribute('type')) === 'password' ? true : undefined;
    },
    { timeoutMs: 15_000 },
  );
}

/**
 * Waits for the input box that suggests `value` (the connect flow's name box, with the host): the
 * key box stays open while the connection is tested, so typing before this would answer the key box.
 */
export async function boxSuggesting(page: Page, value: string): Promise<void> {
  await eventually(
    `the input box suggesting "${value}"`,
    async () => ((await page.locator(QUICK_INPUT).inputValue()) === value ? true : undefined),
    { timeoutMs: 15_000 },
  );
}

/** The problem an input box shows under its field (the box stays open for a correction). */
export async function boxSaying(page: Page, text: RegExp): Promise<void> {
  const message = page.locator('.quick-input-widget .quick-input-message');
  await eventually(
    `the input box saying ${text}`,
    async () => (text.test(await message.first().innerText()) ? true : undefined),
    { timeoutMs: 20_000, lastSeen: () => message.first().innerText() },
  );
}

export async function toastSaying(page: Page, text: RegExp): Promise<Locator> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
    const shown = await page.locator('.notification-toast').allInnerTexts();
    throw new Error(`no notification matching ${text}; shown: ${shown.join(' | ') || 'none'}`);
  });
  return toast;
}

/**
 * Ticks `label` in the open multi-select quick pick titled `title` (New Conversation's new files to
 * bring), and waits until VS Code shows it ticked; the pick stays open.
 */
export async function tickQuickPickRow(page: Page, title: string, label: string): Promise<void> {
  await page
    .locator('.quick-input-widget', { hasText: title })
    .waitFor({ state: 'visible', timeout: 10_000 });
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.click();
  await eventually(`${label} ticked`, async () =>
    (await row.getAttribute('aria-checked')) === 'true' ? true : undefined,
  );
}
