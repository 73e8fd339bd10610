// The workbench's modal dialogs, as a person answers them.
import type { Locator, Page } from 'playwright-core';

/** The workbench's modal dialog with this text, once it shows. */
export async function dialogSaying(page: Page, text: string, timeoutMs = 20_000): Promise<Locator> {
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: text }).first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  return dialog;
}

/** Clicks the dialog's button with this label and waits until the dialog has gone. */
export async function clickDialogButton(dialog: Locator, label: string): Promise<void> {
  await dialog.locator('.dialog-buttons .monaco-button', { hasText: label }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
}
