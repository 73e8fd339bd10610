// The agent's branch and pull request in the real workbench: a conversation the agent opened PR #12 in
// shows the branch and a linked `#12` in its panel's header, pictured in light and dark.
import type { E2EContext } from './context';
import { waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView } from './openhands-view';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import { patchConversation } from './serverControl';
import { setColorTheme } from './colorTheme';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const AGENT_BRANCH_PR =
  'Conversation panel: the header names the agent’s branch and links its pull request #12 (light and dark)';

export function agentBranchSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    AGENT_BRANCH_PR,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const target = conversations.find(
        (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running' && c.title,
      );
      if (!target) throw new Error('the seed has no quiet conversation in a running sandbox');
      // what 1.11 stores once the agent's create_pr tool opened PR #12
      await patchConversation(ctx.serverUrl, target.id, {
        selected_repository: 'acme/webapp',
        selected_branch: 'openhands/fix-date-parser',
        git_provider: 'github',
        pr_number: [12],
      });
      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      await runCommand(ctx.page, 'OpenHands: Refresh');
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, target.id);
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'live');
      const link = frame.locator('.agent-git a.pr-link');
      await eventually('the header links #12', async () => {
        if ((await link.count()) !== 1) return undefined;
        const href = await link.getAttribute('href');
        return (await link.textContent())?.trim() === '#12' &&
          href === 'https://github.com/acme/webapp/pull/12'
          ? true
          : undefined;
      });
      const branch = ((await frame.locator('.agent-branch').textContent()) ?? '').trim();
      if (branch !== 'openhands/fix-date-parser') throw new Error(`the header names the branch “${branch}”`);
      for (const button of ['#check-out-branch', '#open-pull-request'])
        if ((await frame.locator(button).count()) !== 1) throw new Error(`no ${button} in the header`);
      await ctx.screenshot('agent-branch-pr-light');
      await setColorTheme(ctx.page, 'Dark Modern');
      await link.waitFor({ timeout: 10_000 });
      await ctx.screenshot('agent-branch-pr-dark');
      await setColorTheme(ctx.page, 'Light Modern');
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
