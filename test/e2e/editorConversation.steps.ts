// New Conversation about the selected code: select lines in an editor, pick the command from the
// editor's context menu, say what to do, and see the conversation start with that as its title.
import * as fs from 'node:fs';
import path from 'node:path';
import type { E2EContext } from './context';
import { chooseFromMenu, rowLabels, viewPane } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW } from './selectors';
import { eventually } from './wait';

const INSTRUCTION = 'Make average() safe for an empty cart';

export function editorConversationSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    'new conversation about the selected code, from the editor context menu',
    async () => {
      fs.writeFileSync(
        // Python: no language server here, so nothing else competes for the two cores
        path.join(ctx.workspaceFolder, 'cart.py'),
        'def average(prices):\n    return sum(prices) / len(prices)\n',
      );
      await runCommand(ctx.page, 'Go to File...');
      await ctx.page.locator('.quick-input-widget input.input').fill('cart.py');
      // the file search answers after a moment: pick its row, not whatever Enter would hit first
      await ctx.page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'cart.py' })
        .first()
        .click({ timeout: 10_000 });
      const editor = ctx.page.locator('.editor-instance .monaco-editor').first();
      await editor.waitFor({ state: 'visible', timeout: 10_000 });
      await editor.locator('.view-line', { hasText: 'len(prices)' }).first().waitFor({ timeout: 10_000 });
      // select line 2 with the keyboard, then open the context menu where the cursor is (Shift+F10)
      await runCommand(ctx.page, 'Go to Line/Column...');
      await answerInputBox(ctx.page, ':2'); // the Go to Line box keeps its ':' prefix
      await ctx.page.keyboard.press('Home');
      await ctx.page.keyboard.press('Shift+End');
      await chooseFromMenu(
        ctx.page,
        () => ctx.page.keyboard.press('Shift+F10'),
        'New Conversation about This Code',
      );

      const title = ctx.page.locator('.quick-input-widget .quick-input-title');
      await eventually(
        'the instruction prompt naming the file and line',
        async () => ((await title.innerText()).includes('cart.py:2') ? true : undefined),
        { timeoutMs: 10_000, lastSeen: () => title.innerText() },
      );
      await ctx.page.keyboard.type(INSTRUCTION);
      await ctx.screenshot('editor-conversation-prompt');
      await ctx.page.keyboard.press('Enter');
      await answerInputBox(ctx.page, ''); // no repository
      const pick = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'New sandbox' }).first();
      await pick.click({ timeout: 5_000 });

      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await eventually(
        'the conversation, titled by the instruction, in the list',
        async () => ((await rowLabels(pane)).some((label) => label.includes(INSTRUCTION)) ? true : undefined),
        { timeoutMs: 30_000, lastSeen: async () => (await rowLabels(pane)).slice(0, 3).join(' | ') },
      );
      // the "has started" toast comes after the row: wait for it, so clearing leaves no toast behind
      await ctx.page
        .locator('.notification-toast', { hasText: 'The conversation has started' })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
      await runCommand(ctx.page, 'View: Close All Editors');
    },
    { needs: [OPEN_VIEW] },
  );
}
