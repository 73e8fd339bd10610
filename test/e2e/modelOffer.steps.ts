// No dead end, no silent hang (issue 36): a conversation whose model refused its key says so in its
// panel with Set Up the Model…, and Connect to an OpenHands with no model says it has none, with the
// same offer; each pictured in light and dark (docs/images/model-failed-*.png, model-offer-*.png).
import { startTestServer, type TestServer } from '../server';
import { executionStatus, MODEL_FAILURES, userMessage } from '../shared/agentEvents';
import type { E2EContext } from './context';
import { agentDouble, waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView } from './openhands-view';
import {
  answerInputBox,
  boxSuggesting,
  editSettingsJson,
  quickPickRow,
  runCommand,
  toastSaying,
} from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import { setColorTheme } from './colorTheme';
import { OPEN_WORKBENCH } from './workbench.steps';

const FAILED =
  'Conversation panel: a model that refused its key says so in words, with Set Up the Model… (light and dark)';
const OFFER =
  'Connect: an OpenHands with no model yet says so in the notice, with Set Up the Model… (light and dark)';

export function modelOfferSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    FAILED,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const target = conversations.find(
        (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running' && c.title,
      );
      if (!target?.title) throw new Error('the seed has no quiet conversation in a running sandbox');
      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, target.id);
      const frame = await waitForTranscript(ctx.page, 20_000);
      await waitForFeed(frame, 'live');
      // what agent server 1.34 writes when the provider refuses the key
      await agentDouble.append(ctx.serverUrl, target.id, [
        userMessage('Fix the failing tests'),
        executionStatus('running'),
        executionStatus('error'),
        MODEL_FAILURES.keyRefused,
      ]);
      const banner = frame.locator('.model-problem.model-failed');
      await banner.waitFor({ timeout: 15_000 });
      const words = ((await banner.textContent()) ?? '').replace(/\s+/g, ' ');
      if (!/refused the API key \(401\)\./.test(words) || !/Set Up the Model…/.test(words))
        throw new Error(`the banner says: ${words}`);
      if (/sk-proj-Ab12/.test(words)) throw new Error(`the banner shows the key: ${words}`);
      await ctx.screenshot('model-failed-light');
      await setColorTheme(ctx.page, 'Dark Modern');
      await banner.waitFor({ timeout: 10_000 });
      await ctx.screenshot('model-failed-dark');
      await setColorTheme(ctx.page, 'Light Modern');
      await runCommand(ctx.page, 'View: Close All Editors');
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    OFFER,
    async () => {
      let fresh: TestServer | undefined;
      try {
        fresh = await startTestServer({ seed: { sandboxes: 1, conversations: 1, seed: 53 } });
        // a fresh OpenHands 1.11: GET /api/v1/settings is 404 "Settings not found"
        fresh.state.settings = null;
        // each theme its own Connect: the notice is the flow's newest message, and goes after a while
        for (const theme of ['Light Modern', 'Dark Modern'] as const) {
          // the workbench is light to begin with
          if (theme === 'Dark Modern') await setColorTheme(ctx.page, theme);
          await runCommand(ctx.page, 'Notifications: Clear All Notifications');
          await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
          await quickPickRow(ctx.page, 'Another server…').click();
          await answerInputBox(ctx.page, fresh.url);
          await boxSuggesting(ctx.page, new URL(fresh.url).host);
          await answerInputBox(ctx.page, 'Fresh');
          const toast = await toastSaying(
            ctx.page,
            /It has no model yet: a conversation would wait for ever/,
          );
          await toast.locator('a', { hasText: 'Set Up the Model…' }).waitFor({ timeout: 5_000 });
          await ctx.page.waitForTimeout(600); // the toast's fade-in
          // expanded, so the picture shows the whole sentence, not its first line
          await toast.hover();
          await toast.locator('.codicon-notifications-expand').first().click({ timeout: 5_000 });
          await toast
            .locator('.notification-list-item-message', { hasText: 'would wait for ever' })
            .waitFor({ timeout: 5_000 });
          await ctx.screenshot(theme === 'Dark Modern' ? 'model-offer-dark' : 'model-offer-light');
        }
        await setColorTheme(ctx.page, 'Light Modern');
      } finally {
        // back to the seeded server for the steps after
        await editSettingsJson(ctx.page, ctx.userSettingsFile, { 'openhands.serverUrl': ctx.serverUrl });
        await fresh?.close();
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
