// What the sidebar shows when things go wrong: stale data when the server goes away, and the welcome
// views for an unreachable server and for no server at all. Each state is screenshotted.
import type { Locator } from 'playwright-core';
import type { E2EContext } from './context';
import { rowLabels, viewPane, waitForRows, waitForWelcome } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { answerInputBox, editSettingsJson, runCommand, setStringSettingInEditor } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW, SANDBOXES_VIEW } from './selectors';
import { addFault, clearFaults } from './serverControl';
import { eventually } from './wait';

const STALE =
  'server gone: the rows stay, marked "last known", and the message says why the server did not answer';

/** Clicks the Refresh action in the view's title bar (shown while the pane is hovered). */
async function clickRefresh(pane: Locator): Promise<void> {
  await pane.hover();
  await pane.locator('.pane-header .action-label[aria-label^="Refresh"]').first().click({ timeout: 5_000 });
}

export function sidebarStateSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    STALE,
    async () => {
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const before = (await rowLabels(pane)).length;
      if (before === 0) throw new Error('no rows to go stale');
      await addFault(ctx.serverUrl, { kind: 'reset' });
      try {
        await clickRefresh(pane);
        await eventually(
          'rows marked "last known" and the message',
          async () => {
            const labels = await rowLabels(pane);
            const message = await pane
              .locator('.message')
              .first()
              .innerText()
              .catch(() => '');
            return labels.length === before &&
              labels.every((l) => l.includes('last known')) &&
              /Last known data, from .*The server/.test(message)
              ? true
              : undefined;
          },
          { timeoutMs: 15_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') },
        );
      } finally {
        await clearFaults(ctx.serverUrl);
      }
      await ctx.screenshot('sandboxes-stale');
      await clickRefresh(pane);
      await eventually(
        'fresh rows again, and the message gone',
        async () => {
          const fresh = (await rowLabels(pane)).every((l) => !l.includes('last known'));
          const message = await pane.locator('.message:visible').count();
          return fresh && message === 0 ? true : undefined;
        },
        { timeoutMs: 15_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') },
      );
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'unreachable server: the welcome view says so and offers Retry and Switch Server…',
    async () => {
      await runCommand(ctx.page, 'OpenHands: Configure Server…');
      await answerInputBox(ctx.page, 'http://127.0.0.1:9');
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForWelcome(pane, 'the unreachable welcome view', /Cannot reach the server/, /Retry/);
      await waitForWelcome(
        await viewPane(ctx.page, SANDBOXES_VIEW),
        'one short line under Sandboxes',
        /No sandboxes to show until the server answers; the Conversations view says why\./,
      );
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'no server configured: the welcome view offers Connect to OpenHands…',
    async () => {
      await setStringSettingInEditor(ctx.page, 'openhands.serverUrl', 'Server Url', '');
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForWelcome(
        pane,
        'the unconfigured welcome view',
        /Connect VS Code to OpenHands/,
        /Connect to OpenHands…/,
      );
      // one welcome and one Connect: the other pane says only what it will show
      const sandboxes = await viewPane(ctx.page, SANDBOXES_VIEW);
      await waitForWelcome(
        sandboxes,
        'one short line under Sandboxes, no Connect',
        /Sandboxes show here once VS Code is connected to OpenHands\./,
      );
      const links = await sandboxes.locator('.welcome-view-content a').count();
      if (links > 0) throw new Error(`the Sandboxes pane offers ${links} buttons too`);
      await ctx.screenshot('sandboxes-unconfigured');
      await runCommand(ctx.page, 'OpenHands: Configure Server…');
      await answerInputBox(ctx.page, ctx.serverUrl);
      await waitForRows(pane, 'rows again after the URL is restored');
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'invalid server URL: the welcome view and the status bar say the settings are the problem',
    async () => {
      await editSettingsJson(ctx.page, ctx.userSettingsFile, { 'openhands.serverUrl': 'localhost:3000' });
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForWelcome(
        pane,
        'the settings-problem welcome view',
        /connection settings cannot be used/,
        /Open Settings/,
      );
      const status = ctx.page.locator('.statusbar-item', { hasText: 'OpenHands: settings' });
      await status.first().waitFor({ state: 'visible', timeout: 10_000 });
      await status.first().hover();
      const hover = ctx.page.locator('.monaco-hover, .workbench-hover', {
        hasText: 'server URL is not valid',
      });
      await hover.first().waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('sandboxes-invalid-settings');
      await editSettingsJson(ctx.page, ctx.userSettingsFile, { 'openhands.serverUrl': ctx.serverUrl });
      await waitForRows(pane, 'rows again after settings.json is fixed');
    },
    { needs: [OPEN_VIEW] },
  );
}
