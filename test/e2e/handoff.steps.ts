// New Conversation from a repository holding work its remote lacks, by clicks: the question what the
// agent starts from (pictured), the untracked files ticked, the hand-off delivered to the sandbox (the
// double's agent server runs the replay's commands for real), and the agent's first message saying
// what it was given. The sandbox then holds exactly the handed-over files; the unticked file, the
// ignored `.env` and its canary stay on this machine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import { agentDouble, waitForFeed, waitForTranscript } from './conversationPanel';
import { pickNewSandbox } from './conversationFlow';
import { answerInputBox, runCommand, tickQuickPickRow } from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import { serverRequests } from './serverControl';
import { eventually } from './wait';
import { openOpenHandsView } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { withWorkspaceAside } from './workspaceAside';
import { makeLocalWork } from '../shared/localWork';
import { treeOf } from '../shared/sandboxWorkspace';

export const BRING_MY_REPOSITORY =
  'New conversation from local work: the question (pictured), Bring my repository with one new file ticked; the sandbox holds exactly that work, the agent is told what it got, and the panel header says "Started from your local state" with its list (light and dark)';
const TASK = 'Add a changelog entry for the feature';
const CANARY = 'OPENHANDS_E2E_HANDOFF_CANARY_71c4';

/** The text of the conversation's first user message in the double's stored events. */
async function firstUserText(serverUrl: string, id: string): Promise<string | undefined> {
  const events = await agentDouble.events(serverUrl, id);
  const first = events.find((event) => event['kind'] === 'MessageEvent' && event['source'] === 'user');
  const message = first?.['llm_message'] as { content?: { text?: string }[] } | undefined;
  return message?.content?.map((part) => part.text ?? '').join('');
}

export function handoffSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    BRING_MY_REPOSITORY,
    async () => {
      const page = ctx.page;
      const scratch = fs.mkdtempSync(path.join(path.dirname(ctx.workspaceFolder), 'handoff-origin-'));
      let work: ReturnType<typeof makeLocalWork> | undefined;
      try {
        await withWorkspaceAside(
          ctx.workspaceFolder,
          () => {
            work = makeLocalWork(ctx.workspaceFolder, path.join(scratch, 'origin.git'), CANARY);
          },
          async () => {
            if (!work) throw new Error('the local work was not made');
            const local = work;
            const before = new Set((await listConversations(ctx.serverUrl)).map((c) => c.id));
            await runCommand(page, 'View: Close All Editors');
            await openOpenHandsView(page);
            await runCommand(page, 'OpenHands: New Conversation…');
            await answerInputBox(page, TASK);
            // its remote is a folder on this machine, not a git provider: nothing prefilled, none typed
            await answerInputBox(page, '');
            await pickNewSandbox(page);

            const question = page.locator('.quick-input-widget', {
              hasText: 'New Conversation: your local work',
            });
            await question.waitFor({ state: 'visible', timeout: 15_000 });
            const rows = page.locator('.quick-input-list .monaco-list-row');
            const labels = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
            if (
              !labels[0]?.startsWith('Bring my repository') ||
              !labels.some((l) => l.startsWith('Start without my local work'))
            )
              throw new Error(`the question offers ${JSON.stringify(labels)}`);
            if (!labels[0].includes('2 commits ahead, 1 edited file, 2 new files'))
              throw new Error(`the first choice does not count the local work: "${labels[0]}"`);
            await ctx.screenshot('handoff-choice');
            await rows.filter({ hasText: 'Bring my repository' }).first().click();

            await tickQuickPickRow(page, 'New Conversation: new files to bring', local.tickedFile);
            const unticked = page
              .locator('.quick-input-list .monaco-list-row', { hasText: local.untickedFile })
              .first();
            if ((await unticked.getAttribute('aria-checked')) === 'true')
              throw new Error(`${local.untickedFile} is ticked without a click`);
            await ctx.screenshot('handoff-untracked');
            await page.locator('.quick-input-widget input.input').press('Enter');

            await page
              .locator('.notification-toast', { hasText: 'The conversation has started' })
              .first()
              .waitFor({ state: 'visible', timeout: 30_000 });
            const started = (await listConversations(ctx.serverUrl)).filter((c) => !before.has(c.id));
            if (started.length !== 1) throw new Error(`${started.length} conversations started`);
            const id = started[0]?.id ?? '';

            const text = await eventually('the first message in the events', () =>
              firstUserText(ctx.serverUrl, id),
            );
            const said =
              /^I handed you my repository: the files at main \([0-9a-f]{12}\), 1 edited file, 1 new file \(src\/app\.txt, notes\/ticked é\.txt\)\. It is in your working copy, (.+)\.\n\n(.*)$/s.exec(
                text,
              );
            if (!said || said[2] !== TASK) throw new Error(`the first message says "${text}"`);
            const workingCopy = said[1] ?? '';
            console.log(`      (the agent's first words: ${text.split('\n')[0]})`);

            const sandboxTree = treeOf(workingCopy);
            const handed = [...sandboxTree.keys()].filter((file) => !file.startsWith('.git/')).sort();
            if (JSON.stringify(handed) !== JSON.stringify(local.handedPaths))
              throw new Error(`the sandbox holds ${JSON.stringify(handed)}`);
            for (const file of local.handedPaths)
              if (
                !fs
                  .readFileSync(path.join(workingCopy, file))
                  .equals(fs.readFileSync(path.join(local.root, file)))
              )
                throw new Error(`${file} in the sandbox differs from the user's`);
            for (const kept of local.keptPaths)
              if (fs.existsSync(path.join(workingCopy, kept))) throw new Error(`${kept} reached the sandbox`);
            const seen = JSON.stringify([
              await agentDouble.events(ctx.serverUrl, id),
              await serverRequests(ctx.serverUrl),
            ]);
            if (seen.includes(CANARY)) throw new Error('the .env canary reached the server');
            await runCommand(page, 'Notifications: Clear All Notifications');

            // the panel's header says what the conversation started from, and lists it on a click
            await runCommand(page, 'OpenHands: Open Conversation');
            await answerInputBox(page, id);
            const frame = await waitForTranscript(page);
            await waitForFeed(frame, 'live');
            const summary = frame.locator('.handed-over > summary');
            await eventually('the header says what was handed over', async () =>
              ((await summary.textContent()) ?? '').trim() ===
              'Started from your local state: your repository at main, 2 files'
                ? true
                : undefined,
            );
            await summary.click();
            const items = (await frame.locator('.handed-list li').allTextContents()).map((item) =>
              item.trim(),
            );
            if (items.join('|') !== `src/app.txt|${local.tickedFile}`)
              throw new Error(`the header lists ${items.join(', ')}`);
            // the pointer off the tab strip, whose tooltips would cover the title
            await summary.hover();
            await ctx.screenshot('handed-over-light');
            await setColorTheme(page, 'Dark Modern');
            await summary.waitFor({ timeout: 10_000 });
            await summary.hover();
            await ctx.screenshot('handed-over-dark');
            await setColorTheme(page, 'Light Modern');
            await runCommand(page, 'View: Close All Editors');
          },
        );
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    { needs: [OPEN_VIEW] },
  );
}
