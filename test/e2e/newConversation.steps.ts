// New Conversation from the palette, answering each prompt as a person would, then watching the
// start-task progress until the conversation appears in the Conversations view.
import type { E2EContext } from './context';
import { expectStartedConversation, pickNewSandbox } from './conversationFlow';
import { OPEN_VIEW } from './openhands-view.steps';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { captureWalkthroughMedia } from './walkthroughMedia';
import { panelFrame } from './conversationPanel';
import { holdStarts } from './serverControl';
import { eventually } from './wait';

const MESSAGE = 'Add a health check endpoint to the API';
const QUEUED_TASK = 'Write the release notes for 2.0';
const QUEUED = 'Keep each note to one line';
export const QUEUED_WHILE_STARTING =
  'New Conversation: the panel opens at once; a message typed while it starts is queued, then delivered';

export function newConversationSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    'new conversation from the palette: prompts, start progress, then the conversation is listed',
    async () => {
      await runCommand(ctx.page, 'OpenHands: New Conversation…');
      // the walkthrough's "newConversation" picture: the first prompt, with the task typed in
      const widget = ctx.page.locator('.quick-input-widget');
      await widget.locator('input.input').fill(MESSAGE, { timeout: 5_000 });
      const box = await widget.boundingBox();
      if (!box) throw new Error('the New Conversation prompt is not on screen');
      await captureWalkthroughMedia(ctx.page, 'newConversation', {
        x: box.x - 60,
        y: 0,
        width: box.width + 120,
        height: box.y + box.height + 40,
      });
      await answerInputBox(ctx.page, MESSAGE);
      await answerInputBox(ctx.page, 'acme/webapp'); // repository
      await answerInputBox(ctx.page, 'main'); // branch
      await pickNewSandbox(ctx.page); // the first entry

      const toast = ctx.page
        .locator('.notification-toast', { hasText: 'New OpenHands conversation' })
        .first();
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
      // Settle the toast's slide-in before the picture; the fast test server may finish within one poll.
      await ctx.page.waitForTimeout(300);
      await ctx.screenshot('new-conversation-progress');

      await expectStartedConversation(ctx.page, MESSAGE);
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    QUEUED_WHILE_STARTING,
    async () => {
      const page = ctx.page;
      await runCommand(page, 'View: Close All Editors');
      await holdStarts(ctx.serverUrl, true);
      const frame = panelFrame(page);
      try {
        await runCommand(page, 'OpenHands: New Conversation…');
        await answerInputBox(page, QUEUED_TASK);
        await answerInputBox(page, ''); // no repository
        await pickNewSandbox(page);
        await frame.locator('.feed-starting').waitFor({ state: 'visible', timeout: 30_000 });
        const input = frame.locator('#message-input');
        // the start's progress toast covers the input's right half: typed without a click there
        await input.fill(QUEUED);
        await input.press('Enter');
        await frame
          .locator('.outbox-queued', { hasText: QUEUED })
          .waitFor({ state: 'visible', timeout: 10_000 });
        // an earlier step's toast cleared and the start's progress hidden (in the status bar): the bubbles show
        await runCommand(page, 'Notifications: Clear All Notifications');
        await ctx.screenshot('queued-while-starting-light');
      } finally {
        await holdStarts(ctx.serverUrl, false);
      }
      await eventually('no message left queued', async () =>
        (await frame.locator('.outbox-queued').count()) === 0 ? true : undefined,
      );
      await eventually('the queued message as the agent’s user message, after the task', async () => {
        const texts = await frame
          .locator('.row')
          .evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
        const task = texts.findIndex((text) => text.includes(QUEUED_TASK));
        const queued = texts.findIndex((text) => text.includes(QUEUED));
        return task >= 0 && queued > task ? true : undefined;
      });
      await ctx.screenshot('queued-delivered-light');
      await runCommand(page, 'Notifications: Clear All Notifications');
    },
    { needs: [OPEN_VIEW] },
  );
}
