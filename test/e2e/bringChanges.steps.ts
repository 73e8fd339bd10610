// New Conversation from a GitHub repository holding work its remote lacks, by clicks, with a GitHub token
// on the server: the question offers Push / Bring my changes / Start from origin/main only; Bring my
// changes asks the server to clone the repository at the upstream's branch (the double clones it, as
// 1.11 does, from a local bare repository standing in for GitHub), and the delivery brings the commits
// ahead and the edits into that clone. The clone then holds the user's HEAD and work tree (the ticked
// file in, the unticked one and the ignored `.env` out), and the agent is told what it was given.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { E2EContext } from './context';
import { agentDouble } from './conversationPanel';
import { pickNewSandbox } from './conversationFlow';
import { seedProviderTokens } from './mcpFormServer';
import { runCommand, tickQuickPickRow } from './palette';
import type { StepRunner } from './runner';
import { listConversations } from './server-api';
import {
  addProviderRepository,
  clearProviderRepositories,
  serverRequests,
  serverState,
} from './serverControl';
import { E2E_CLONE_TOKEN } from './secrets';
import { eventually } from './wait';
import { openOpenHandsView } from './openhands-view';
import { OPEN_VIEW } from './openhands-view.steps';
import { withWorkspaceAside } from './workspaceAside';
import { makeLocalWork } from '../shared/localWork';
import { git, treeOf } from '../shared/sandboxWorkspace';

export const BRING_MY_CHANGES =
  'New conversation from local work on a GitHub repository: Bring my changes (pictured); the server clones the upstream branch and the clone then holds exactly the local work';
const TASK = 'Review the feature before I push it';
const CANARY = 'OPENHANDS_E2E_BRING_CHANGES_CANARY_5e02';
const REPOSITORY = 'e2e-acme/handoff-webapp';
/** The local branch, named apart from its upstream's (main): the clone must be of the upstream's. */
const LOCAL_BRANCH = 'feature';

async function firstUserText(serverUrl: string, id: string): Promise<string | undefined> {
  const events = await agentDouble.events(serverUrl, id);
  const first = events.find((event) => event['kind'] === 'MessageEvent' && event['source'] === 'user');
  const message = first?.['llm_message'] as { content?: { text?: string }[] } | undefined;
  return message?.content?.map((part) => part.text ?? '').join('');
}

/** Accepts what an input box was prefilled with, once it is `expected`. */
async function acceptPrefilled(page: Page, expected: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await eventually(`the input box prefilled with "${expected}"`, async () =>
    (await input.isVisible()) && (await input.inputValue()) === expected ? true : undefined,
  );
  await input.press('Enter');
}

export function bringChangesSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    BRING_MY_CHANGES,
    async () => {
      const page = ctx.page;
      const scratch = fs.mkdtempSync(path.join(path.dirname(ctx.workspaceFolder), 'bring-changes-'));
      const bare = path.join(scratch, 'github', `${REPOSITORY}.git`);
      fs.mkdirSync(path.dirname(bare), { recursive: true });
      const tokensBefore = (await serverState(ctx.serverUrl)).providerTokens;
      let work: ReturnType<typeof makeLocalWork> | undefined;
      try {
        await addProviderRepository(ctx.serverUrl, {
          provider: 'github',
          repository: REPOSITORY,
          path: bare,
        });
        await seedProviderTokens(ctx.serverUrl, { github: { token: E2E_CLONE_TOKEN, host: null } });
        await withWorkspaceAside(
          ctx.workspaceFolder,
          () => {
            work = makeLocalWork(ctx.workspaceFolder, bare, CANARY);
            // a GitHub repository to the extension, whose upstream's commit it knows
            git(ctx.workspaceFolder, 'branch', '-q', '-m', 'main', LOCAL_BRANCH);
            git(ctx.workspaceFolder, 'remote', 'set-url', 'origin', `https://github.com/${REPOSITORY}.git`);
          },
          async () => {
            if (!work) throw new Error('the local work was not made');
            const local = work;
            const upstreamCommit = git(bare, 'rev-parse', 'main').trim();
            const userHead = git(local.root, 'rev-parse', 'HEAD').trim();
            const before = new Set((await listConversations(ctx.serverUrl)).map((c) => c.id));
            await runCommand(page, 'View: Close All Editors');
            // New Conversation prefills from VS Code's git, which must first find the new repository
            const branchItem = page.locator('.statusbar-item', { hasText: LOCAL_BRANCH });
            await eventually(
              `VS Code's git on ${LOCAL_BRANCH}`,
              async () => ((await branchItem.count()) > 0 ? true : undefined),
              {
                timeoutMs: 30_000,
                lastSeen: async () => (await page.locator('.statusbar-item').allTextContents()).join(' | '),
              },
            );
            await openOpenHandsView(page);
            await runCommand(page, 'OpenHands: New Conversation…');
            const task = page.locator('.quick-input-widget input.input');
            await task.waitFor({ state: 'visible', timeout: 5_000 });
            await task.fill(TASK);
            await task.press('Enter');
            await acceptPrefilled(page, REPOSITORY);
            await acceptPrefilled(page, LOCAL_BRANCH);
            await pickNewSandbox(page);

            await page
              .locator('.quick-input-widget', { hasText: 'New Conversation: your local work' })
              .waitFor({ state: 'visible', timeout: 15_000 });
            const rows = page.locator('.quick-input-list .monaco-list-row');
            const labels = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
            const offered = ['Push feature, then start', 'Bring my changes', 'Start from origin/main only'];
            if (labels.length !== 3 || offered.some((label, at) => !labels[at]?.startsWith(label)))
              throw new Error(`the question offers ${JSON.stringify(labels)}`);
            if (
              // a row's text may end in a hidden separator's label ("recently used", seen in a full run)
              !labels[1]?.includes(
                'Clones origin/main, then adds 2 commits ahead, 1 edited file, 2 new files',
              )
            )
              throw new Error(`Bring my changes does not count the local work: "${labels[1]}"`);
            await ctx.screenshot('handoff-bring-changes');
            await rows.filter({ hasText: 'Bring my changes' }).first().click();

            await tickQuickPickRow(page, 'New Conversation: new files to bring', local.tickedFile);
            await page.locator('.quick-input-widget input.input').press('Enter');

            await page
              .locator('.notification-toast', { hasText: 'The conversation has started' })
              .first()
              .waitFor({ state: 'visible', timeout: 30_000 });
            const started = (await listConversations(ctx.serverUrl)).filter((c) => !before.has(c.id));
            if (started.length !== 1) throw new Error(`${started.length} conversations started`);
            const id = started[0]?.id ?? '';

            // what the sandbox was asked to clone: the repository at the upstream's branch, not the local one
            const requests = await serverRequests(ctx.serverUrl);
            const starts = requests
              .filter((r) => r.method === 'POST' && r.path === '/api/v1/app-conversations')
              .map((r) => r.body as Record<string, unknown>);
            const asked = starts[starts.length - 1];
            if (
              asked?.['selected_repository'] !== REPOSITORY ||
              asked['selected_branch'] !== 'main' ||
              asked['git_provider'] !== 'github'
            )
              throw new Error(`the start request asked for ${JSON.stringify(asked)}`);

            const text = await eventually('the first message in the events', () =>
              firstUserText(ctx.serverUrl, id),
            );
            const said =
              /^I handed you my local state: 2 commits, 1 edited file, 1 new file \(src\/app\.txt, notes\/ticked é\.txt\)\. It is in your working copy, (.+)\.\n\n(.*)$/s.exec(
                text,
              );
            if (!said || said[2] !== TASK) throw new Error(`the first message says "${text}"`);
            const clone = said[1] ?? '';
            console.log(`      (the agent's first words: ${text.split('\n')[0]})`);
            if (path.basename(clone) !== 'handoff-webapp') throw new Error(`the working copy is ${clone}`);

            // the server's clone (its origin the URL 1.11 builds, shallow), now at the user's HEAD
            const origin = git(clone, 'config', '--get', 'remote.origin.url').trim();
            if (origin !== `https://${E2E_CLONE_TOKEN}@github.com/${REPOSITORY}.git`)
              throw new Error(`the working copy's origin is ${origin}, not the server's clone`);
            if (git(clone, 'rev-parse', '--is-shallow-repository').trim() !== 'true')
              throw new Error('the working copy is not the server’s shallow clone');
            if (git(clone, 'rev-parse', 'HEAD').trim() !== userHead)
              throw new Error('the working copy is not at the user’s HEAD');
            if (git(clone, 'symbolic-ref', '--short', 'HEAD').trim() !== LOCAL_BRANCH)
              throw new Error(`the working copy is not on ${LOCAL_BRANCH}`);
            if (git(clone, 'rev-parse', 'HEAD~2').trim() !== upstreamCommit)
              throw new Error('the commits ahead do not sit on the upstream’s commit');

            const handed = [...treeOf(clone).keys()].filter((file) => !file.startsWith('.git/')).sort();
            if (JSON.stringify(handed) !== JSON.stringify(local.handedPaths))
              throw new Error(`the sandbox holds ${JSON.stringify(handed)}`);
            for (const file of local.handedPaths)
              if (
                !fs.readFileSync(path.join(clone, file)).equals(fs.readFileSync(path.join(local.root, file)))
              )
                throw new Error(`${file} in the sandbox differs from the user's`);
            for (const kept of local.keptPaths)
              if (fs.existsSync(path.join(clone, kept))) throw new Error(`${kept} reached the sandbox`);
            const seen = JSON.stringify([await agentDouble.events(ctx.serverUrl, id), requests]);
            if (seen.includes(CANARY)) throw new Error('the .env canary reached the server');
            await runCommand(page, 'Notifications: Clear All Notifications');
          },
        );
      } finally {
        await clearProviderRepositories(ctx.serverUrl);
        // the server's tokens as they were before this step (the MCP form's steps may have saved some)
        const restored = Object.fromEntries(
          Object.entries(tokensBefore).map(([provider, token]) => [
            provider,
            { token: token?.token ?? '', host: token?.host ?? null },
          ]),
        );
        if (Object.keys(restored).length > 0) await seedProviderTokens(ctx.serverUrl, restored);
        else await fetch(new URL('/api/unset-provider-tokens', ctx.serverUrl), { method: 'POST' });
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    { needs: [OPEN_VIEW] },
  );
}
