// No dead end, no silent hang (issue 36): a conversation whose model refused its key says so in its
// panel with Set Up the Model…, and Connect to an OpenHands with no model says it has none, with the
// same offer; each pictured in light and dark (docs/images/model-failed-*.png, model-offer-*.png).
import { startTestServer, type TestServer } from '../server';
import { executionStatus, MODEL_FAILURES, userMessage } from '../shared/agentEvents';
import type { E2EContext } from './context';
import { agentDouble, waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView, rowContaining, viewPane } from './openhands-view';
import {
  answerInputBox,
  boxSuggesting,
  editSettingsJson,
  quickPickRow,
  runCommand,
  toastSaying,
} from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW } from './selectors';
import { listConversations } from './server-api';
import { setTheme } from './usage.steps';
import { eventually } from './wait';
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
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await rowContaining(pane, target.title).click();
      const frame = await waitForTranscript(ctx.page);
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
      await setTheme(ctx, 'Dark Modern');
      await banner.waitFor({ timeout: 10_000 });
      await ctx.screenshot('model-failed-dark');
      await setTheme(ctx, 'Light Modern');
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
        await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
        await quickPickRow(ctx.page, 'Another server…').click();
        await answerInputBox(ctx.page, fresh.url);
        await boxSuggesting(ctx.page, new URL(fresh.url).host);
        await answerInputBox(ctx.page, 'Fresh');
        const toast = await toastSaying(ctx.page, /It has no model yet: a conversation would wait for ever/);
        await eventually('the notice links Set Up the Model…', async () =>
          (await toast.locator('a', { hasText: 'Set Up the Model…' }).count()) > 0 ? true : undefined,
        );
        await ctx.screenshot('model-offer-light');
        await setTheme(ctx, 'Dark Modern');
        await toastSaying(ctx.page, /It has no model yet/);
        await ctx.screenshot('model-offer-dark');
        await setTheme(ctx, 'Light Modern');
      } finally {
        // back to the seeded server for the steps after
        await editSettingsJson(ctx.page, ctx.userSettingsFile, { 'openhands.serverUrl': ctx.serverUrl });
        await fresh?.close();
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
