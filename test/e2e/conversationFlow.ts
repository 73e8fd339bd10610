// The end of every New Conversation flow: the sandbox pick, then the conversation in the list and the
// "has started" toast.
import type { Page } from 'playwright-core';
import { rowLabels, viewPane } from './openhands-view';
import { runCommand } from './palette';
import { CONVERSATIONS_VIEW } from './selectors';
import { eventually } from './wait';

/** Answers the sandbox pick with its first entry, "New sandbox". */
export async function pickNewSandbox(page: Page): Promise<void> {
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'New sandbox' })
    .first()
    .click({ timeout: 5_000 });
}

/**
 * Waits for the started conversation in the Conversations view (the test server titles it after the
 * first line of its first message) and for the "has started" toast, which comes after the row, or its
 * panel; then clears the toasts so no later picture shows them.
 */
export async function expectStartedConversation(page: Page, title: string): Promise<void> {
  const pane = await viewPane(page, CONVERSATIONS_VIEW);
  await eventually(
    `the conversation "${title}" in the list`,
    async () => ((await rowLabels(pane)).some((label) => label.includes(title)) ? true : undefined),
    { timeoutMs: 30_000, lastSeen: async () => (await rowLabels(pane)).slice(0, 3).join(' | ') },
  );
  // a server that holds messages while a conversation starts (1.11) opened its panel at once, which
  // says it has started; other servers say it in a toast
  const toast = page.locator('.notification-toast', { hasText: 'The conversation has started' }).first();
  const panelTab = page.locator('.tabs-container .tab', { hasText: title.slice(0, 40) }).first();
  await eventually(
    'the "has started" toast, or the conversation’s panel',
    async () => ((await toast.isVisible()) || (await panelTab.isVisible()) ? true : undefined),
    { timeoutMs: 10_000 },
  );
  await runCommand(page, 'Notifications: Clear All Notifications');
}
