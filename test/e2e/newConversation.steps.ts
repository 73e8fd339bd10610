// New Conversation from the palette, answering each prompt as a person would, then watching the
// start-task progress until the conversation appears in the Conversations view.
import type { E2EContext } from './context';
import { rowLabels, viewPane } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW } from './selectors';
import { eventually } from './wait';

const MESSAGE = 'Add a health check endpoint to the API';

export function newConversationSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    'new conversation from the palette: prompts, start progress, then the conversation is listed',
    async () => {
      await runCommand(ctx.page, 'OpenHands: New Conversation…');
      await answerInputBox(ctx.page, MESSAGE);
      await answerInputBox(ctx.page, 'acme/webapp'); // repository
      await answerInputBox(ctx.page, 'main'); // branch
      // Sandbox: the first entry is "New sandbox".
      const pick = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'New sandbox' }).first();
      await pick.click({ timeout: 5_000 });

      const toast = ctx.page
        .locator('.notification-toast', { hasText: 'New OpenHands conversation' })
        .first();
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
      // Settle the toast's slide-in before the picture; the fast test server may finish within one poll.
      await ctx.page.waitForTimeout(300);
      await ctx.screenshot('new-conversation-progress');

      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      // The test server titles a conversation after its first message once it is ready.
      await eventually(
        'the new conversation in the list',
        async () => ((await rowLabels(pane)).some((label) => label.includes(MESSAGE)) ? true : undefined),
        { timeoutMs: 30_000, lastSeen: async () => (await rowLabels(pane)).slice(0, 3).join(' | ') },
      );
      // the "has started" toast comes after the row: wait for it, so clearing leaves no toast behind
      await ctx.page
        .locator('.notification-toast', { hasText: 'The conversation has started' })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
    },
    { needs: [OPEN_VIEW] },
  );
}
