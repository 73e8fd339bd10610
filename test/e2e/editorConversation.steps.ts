// New Conversation about the selected code: select lines in an editor, pick the command from the
// editor's context menu, say what to do, and see the conversation start with that as its title.
import * as fs from 'node:fs';
import path from 'node:path';
import type { E2EContext } from './context';
import { expectStartedConversation, pickNewSandbox } from './conversationFlow';
import { chooseFromMenu } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
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
      await pickNewSandbox(ctx.page);
      await expectStartedConversation(ctx.page, INSTRUCTION);
      await runCommand(ctx.page, 'View: Close All Editors');
    },
    { needs: [OPEN_VIEW] },
  );
}
