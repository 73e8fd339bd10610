// New Conversation from a repository with work no remote has, in the real workbench against the double:
// "Bring my repository" with one new file ticked, the hand-off delivered to the double's sandbox, and the
// conversation's panel header saying "Started from your local state: …" with the list it expands to,
// pictured in light and dark. The workspace is a repository only for this step.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { E2EContext } from './context';
import { pickNewSandbox } from './conversationFlow';
import { waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView } from './openhands-view';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import { setTheme } from './usage.steps';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const HANDED_OVER =
  'New Conversation hands over local work: the panel header says "Started from your local state" and lists the files (light and dark)';
const TASK = 'Finish the date parser';
/** The repository's files, what the user edits, and the new files (one ticked). */
const COMMITTED: Record<string, string> = {
  'src/dates.ts': 'export function parse(text: string): Date {\n  return new Date(text);\n}\n',
  'src/index.ts': "export { parse } from './dates';\n",
};
const EDITED = 'src/dates.ts';
const TICKED = 'src/dates.test.ts';
const UNTICKED = 'scratch.txt';

export function handoffSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    HANDED_OVER,
    async () => {
      const folder = ctx.workspaceFolder;
      const made = [...Object.keys(COMMITTED), TICKED, UNTICKED].map((file) => path.join(folder, file));
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', ...args], {
          cwd: folder,
          stdio: 'pipe',
        });
      try {
        git('init', '-q', '-b', 'main');
        for (const [file, content] of Object.entries(COMMITTED)) {
          fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
          fs.writeFileSync(path.join(folder, file), content);
        }
        git('add', '--', ...Object.keys(COMMITTED));
        git('commit', '-q', '-m', 'The date parser');
        fs.writeFileSync(
          path.join(folder, EDITED),
          `${COMMITTED[EDITED] ?? ''}\nexport const FORMAT = 'YYYY-MM-DD';\n`,
        );
        fs.writeFileSync(path.join(folder, TICKED), "import { parse } from './dates';\n");
        fs.writeFileSync(path.join(folder, UNTICKED), 'notes for me\n');
        const before = new Set((await listConversations(ctx.serverUrl)).map((c) => c.id));

        await runCommand(ctx.page, 'View: Close All Editors');
        await runCommand(ctx.page, 'OpenHands: New Conversation…');
        await answerInputBox(ctx.page, TASK);
        await answerInputBox(ctx.page, ''); // no repository for the server to clone
        await pickNewSandbox(ctx.page);
        await ctx.page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Bring my repository' })
          .first()
          .click({ timeout: 10_000 });
        const ticked = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: TICKED }).first();
        await ticked.click({ timeout: 10_000 });
        await ctx.page.locator('.quick-input-widget input.input').press('Enter');

        const started = await eventually(
          'the new conversation on the server',
          async () =>
            (await listConversations(ctx.serverUrl)).find(
              (c) => !before.has(c.id) && c.sandbox_status === 'RUNNING',
            ),
          { timeoutMs: 60_000 },
        );
        await ctx.page
          .locator('.notification-toast', { hasText: 'The conversation has started' })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        await runCommand(ctx.page, 'Notifications: Clear All Notifications');
        await openOpenHandsView(ctx.page);
        await runCommand(ctx.page, 'OpenHands: Open Conversation');
        await answerInputBox(ctx.page, started.id);
        const frame = await waitForTranscript(ctx.page);
        await waitForFeed(frame, 'live');
        const summary = frame.locator('.handed-over > summary');
        await eventually('the header says what was handed over', async () =>
          ((await summary.textContent()) ?? '').trim() ===
          'Started from your local state: your repository at main, 2 files'
            ? true
            : undefined,
        );
        await summary.click();
        const items = (await frame.locator('.handed-list li').allTextContents()).map((item) => item.trim());
        if (items.join('|') !== `${EDITED}|${TICKED}`)
          throw new Error(`the header lists ${items.join(', ')}`);
        // the pointer off the tab strip, whose tooltips would cover the title
        await summary.hover();
        await ctx.screenshot('handed-over-light');
        await setTheme(ctx, 'Dark Modern');
        await summary.waitFor({ timeout: 10_000 });
        await summary.hover();
        await ctx.screenshot('handed-over-dark');
        await setTheme(ctx, 'Light Modern');
      } finally {
        // later steps expect the plain folder they had
        fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
        for (const file of made) fs.rmSync(file, { force: true });
        fs.rmSync(path.join(folder, 'src'), { recursive: true, force: true });
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
