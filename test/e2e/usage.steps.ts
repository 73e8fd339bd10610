// Cost, tokens and context in the real workbench: the agent server's stats updates reach the panel
// header's line; a click opens the breakdown, pictured in light and dark; the row says the cost too.
import type { FrameLocator } from 'playwright-core';
import { statsUpdate } from '../shared/agentEvents';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import { agentDouble, waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView } from './openhands-view';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const USAGE =
  'Conversation panel: cost, tokens and context live in the header; a click shows the breakdown (light and dark)';

async function summaryOf(frame: FrameLocator): Promise<string> {
  const toggle = frame.locator('#usage-toggle');
  if ((await toggle.count()) === 0) return '';
  return ((await toggle.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

export function usageSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    USAGE,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const target = conversations.find(
        (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running' && c.title,
      );
      if (!target?.title) throw new Error('the seed has no quiet conversation in a running sandbox');
      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      // by id from the palette: a row clicked while the tree redraws it runs a command VS Code has already
      // dropped ("Actual command not found"); the row's click is the subject of its own step
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, target.id);
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'live');
      // two calls of the agent, then its condenser: each update replaces the figures in place
      const agent = { budget: 5, completion: 15_000, contextWindow: 200_000 };
      await agentDouble.append(ctx.serverUrl, target.id, [
        statsUpdate({ agent: { ...agent, cost: 0.31, prompt: 95_000, perTurn: 60_000 } }),
      ]);
      await eventually('the first figures', async () =>
        (await summaryOf(frame)).startsWith('$0.31 of $5.00') ? true : undefined,
      );
      await agentDouble.append(ctx.serverUrl, target.id, [
        statsUpdate({
          agent: {
            ...agent,
            cost: 4.1,
            prompt: 200_000,
            cacheRead: 120_000,
            cacheWrite: 8000,
            reasoning: 2000,
            perTurn: 116_000,
          },
          condenser: { cost: 0.03, prompt: 9000, completion: 400 },
        }),
      ]);
      const expected = '$4.10 of $5.00 · 215k tokens · context 58 %';
      await eventually('the newer figures', async () =>
        (await summaryOf(frame)) === expected ? true : undefined,
      );
      if ((await frame.locator('#usage-toggle.usage-warn').count()) !== 1)
        throw new Error('82 % of the budget used, and no warning on the line');
      await frame.locator('#usage-toggle').click();
      const breakdown = frame.locator('#usage-breakdown');
      await breakdown.waitFor({ timeout: 10_000 });
      const text = ((await breakdown.textContent()) ?? '').replace(/\s+/g, ' ');
      for (const figure of [
        'Prompt tokens 200,000',
        'Cache read tokens 120,000',
        'Reasoning tokens 2,000',
        'condenser',
      ])
        if (!text.includes(figure)) throw new Error(`the breakdown does not say "${figure}": ${text}`);
      await ctx.screenshot('conversation-panel-usage');
      await setColorTheme(ctx.page, 'Dark Modern');
      await breakdown.waitFor({ timeout: 10_000 });
      await ctx.screenshot('conversation-panel-usage-dark');
      await setColorTheme(ctx.page, 'Light Modern');
      await frame.locator('#usage-toggle').click();
      await breakdown.waitFor({ state: 'detached', timeout: 10_000 });
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
