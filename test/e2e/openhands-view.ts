// Finding the OpenHands views and their rows in the workbench DOM.
import type { Locator, Page } from 'playwright-core';
import { activityBarEntry, openActivityBarView, widenSidebar } from '../../scripts/vscode/workbench';
import { OPENHANDS_ACTIVITY, PANE, PANE_HEADER, ROW } from './selectors';
import { eventually } from './wait';

/** Opens the OpenHands container; fails fast and says so when the extension contributes none. */
export async function openOpenHandsView(page: Page): Promise<void> {
  const present = await activityBarEntry(page, 'OpenHands')
    .waitFor({ state: 'visible', timeout: 10_000 })
    .then(() => true)
    .catch(() => false);
  if (!present) {
    const labels = await page
      .locator('.activitybar .action-label')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')).filter(Boolean));
    throw new Error(
      `OpenHands view is missing: no "${OPENHANDS_ACTIVITY}" (activity bar has: ${labels.join(' | ')})`,
    );
  }
  await openActivityBarView(page, 'OpenHands');
  await widenSidebar(page);
}

/** The view pane with this title, expanded so its rows render. */
export async function viewPane(page: Page, title: string): Promise<Locator> {
  const pane = page
    .locator(PANE)
    .filter({ has: page.locator(PANE_HEADER, { hasText: title }) })
    .first();
  const found = await pane
    .waitFor({ state: 'visible', timeout: 10_000 })
    .then(() => true)
    .catch(() => false);
  if (!found) throw new Error(`no "${title}" view in the OpenHands container`);
  const header = pane.locator(PANE_HEADER).first();
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return pane;
}

export async function rowLabels(pane: Locator): Promise<string[]> {
  return pane.locator(ROW).evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
}

/** The row whose aria-label contains `text` (tree rows read "label, description"). */
export function rowContaining(pane: Locator, text: string): Locator {
  return pane.locator(`${ROW}[aria-label*="${text.replace(/["\\]/g, '\\$&')}"]`).first();
}

/** A sandbox's row, by the name it shows (its accessible label reads "Sandbox <name>, <description>"). */
export function sandboxRow(pane: Locator, name: string): Locator {
  return pane
    .locator(`${ROW}[aria-level="1"][aria-label^="Sandbox ${name.replace(/["\\]/g, '\\$&')}, "]`)
    .first();
}

/**
 * Opens a menu with `openMenu` and runs its `label` item. A workbench re-render (menus re-read after
 * a window reload, a tree refresh) can close a menu it has just opened, so the menu is opened until
 * its item shows and stays under the pointer.
 */
export async function chooseFromMenu(
  page: Page,
  openMenu: () => Promise<void>,
  label: string,
): Promise<void> {
  const item = page.locator('.monaco-menu .action-item', { hasText: label }).first();
  let attempts = 0;
  await eventually(
    `"${label}" in the menu`,
    async () => {
      if (!(await item.isVisible())) {
        attempts++;
        await openMenu();
        await item.waitFor({ state: 'visible', timeout: 2_000 });
      }
      await item.hover({ timeout: 2_000 });
      return true;
    },
    { timeoutMs: 20_000, lastSeen: async () => `${attempts} attempt(s) to open the menu` },
  );
  await page.keyboard.press('Enter');
}

/** Runs `label` from the pane's "More Actions…" title menu. */
export async function chooseFromViewTitleMenu(page: Page, pane: Locator, label: string): Promise<void> {
  const moreActions = pane.locator('.pane-header .action-label[aria-label*="More Actions"]').first();
  await chooseFromMenu(
    page,
    async () => {
      await pane.hover({ timeout: 2_000 });
      await moreActions.click({ timeout: 2_000 });
    },
    label,
  );
}

/** Runs `label` from a tree row's context menu. */
export async function chooseFromRowMenu(page: Page, row: Locator, label: string): Promise<void> {
  await chooseFromMenu(page, () => row.click({ button: 'right', timeout: 2_000 }), label);
}

async function welcomeText(pane: Locator): Promise<string> {
  return (
    (await pane
      .locator('.welcome-view-content')
      .first()
      .innerText()
      .catch(() => '')) ?? ''
  );
}

/** Waits until the pane shows a welcome view whose text matches every pattern. */
export async function waitForWelcome(
  pane: Locator,
  description: string,
  ...patterns: RegExp[]
): Promise<void> {
  await eventually(
    description,
    async () => {
      const text = await welcomeText(pane);
      return patterns.every((pattern) => pattern.test(text)) ? true : undefined;
    },
    { timeoutMs: 20_000, lastSeen: () => welcomeText(pane) },
  );
}

/** Waits until the pane lists rows again (after its welcome view). */
export async function waitForRows(pane: Locator, description: string): Promise<void> {
  await eventually(description, async () => ((await rowLabels(pane)).length > 0 ? true : undefined), {
    timeoutMs: 20_000,
    lastSeen: () => welcomeText(pane),
  });
}
