// The workbench's color theme, chosen as a person does: Preferences: Color Theme, then its name.
import type { Page } from 'playwright-core';
import { answerInputBox, runCommand } from './palette';

export type ColorTheme = 'Dark Modern' | 'Light Modern';

/** Chooses the theme and waits until the workbench wears it. */
export async function setColorTheme(page: Page, theme: ColorTheme): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  await answerInputBox(page, theme);
  await page
    .locator(theme === 'Dark Modern' ? '.monaco-workbench.vs-dark' : '.monaco-workbench.vs')
    .waitFor({ timeout: 10_000 });
}
