// A user's first minutes (issue 23): no server set, Connect to OpenHands… (this machine, another
// server that needs a key, one that is not OpenHands), two servers switched from the status bar with
// a panel open, and Forget Server. The servers other than the seeded one run in this process.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../server';
import type { E2EContext } from './context';
import { clickDialogButton, dialogSaying } from './dialogs';
import { waitForTranscript } from './conversationPanel';
import { openOpenHandsView, viewPane, waitForRows, waitForWelcome } from './openhands-view';
import {
  answerInputBox,
  boxSuggesting,
  boxSaying,
  editSettingsJson,
  passwordBox,
  quickPickRow,
  runCommand,
  toastSaying,
} from './palette';
import type { StepRunner } from './runner';
import { E2E_TEAM_API_KEY } from './secrets';
import { CONVERSATIONS_VIEW } from './selectors';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const FIRST_RUN = 'first run: no server set, the views and the status bar offer Connect to OpenHands…';
const LOCAL = 'Connect: this machine — finds OpenHands on a usual port and connects without a question';
const TEAM =
  'Connect: another server that needs a key — a wrong key is refused under the box, the right one connects';
/** Where the "this machine" server listens: a usual OpenHands port that the seeded server does not use. */
const LOCAL_PORT = 3001;

export function connectSteps(runner: StepRunner, ctx: E2EContext): void {
  let local: TestServer | undefined;
  let team: TestServer | undefined;

  runner.step(
    FIRST_RUN,
    async () => {
      await editSettingsJson(ctx.page, ctx.userSettingsFile, {
        'openhands.serverUrl': undefined,
        'openhands.servers': undefined,
      });
      await openOpenHandsView(ctx.page);
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForWelcome(pane, 'the first-run welcome view', /Connect VS Code to OpenHands/);
      await statusItem(ctx.page, 'OpenHands').waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('connect-first-run');
      // the welcome view's button opens the flow: three ways to connect
      await pane.locator('.welcome-view-content a', { hasText: 'Connect to OpenHands…' }).first().click();
      for (const label of ['OpenHands Cloud', 'OpenHands on this machine', 'Another server…'])
        await quickPickRow(ctx.page, label).waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('connect-choices');
      await ctx.page.keyboard.press('Escape');
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    'Connect: this machine with no OpenHands running — says how to start one, and offers to',
    async () => {
      if (await anyLocalOpenHands()) {
        console.log('  (an OpenHands already answers on this machine: the "none found" dialog cannot show)');
        return;
      }
      await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
      await quickPickRow(ctx.page, 'OpenHands on this machine').click();
      const dialog = await dialogSaying(ctx.page, 'No OpenHands answers on this machine', 15_000);
      const words = await dialog.innerText();
      if (!/openhands serve/.test(words) || !/Run in Terminal/.test(words))
        throw new Error(`the dialog does not say how to start OpenHands: ${words}`);
      await ctx.screenshot('connect-local-none');
      await clickDialogButton(dialog, 'Cancel');
    },
    { needs: [FIRST_RUN] },
  );

  runner.step(
    LOCAL,
    async () => {
      local = await startTestServer({ port: LOCAL_PORT, seed: { sandboxes: 2, conversations: 3, seed: 31 } });
      await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
      await quickPickRow(ctx.page, 'OpenHands on this machine').click();
      await toastSaying(
        ctx.page,
        /Connected to This machine \(:3001\): OpenHands 1\.11\.0, no API key needed/,
      );
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForRows(pane, 'the conversations of this machine');
      await paneDescription(pane, /This machine \(:3001\)/);
      await ctx.screenshot('connect-local-found');
    },
    { needs: [FIRST_RUN] },
  );

  runner.step(
    TEAM,
    async () => {
      team = await startTestServer({
        sessionApiKey: E2E_TEAM_API_KEY,
        seed: { sandboxes: 2, conversations: 4, seed: 47 },
      });
      await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
      await quickPickRow(ctx.page, 'Another server…').click();
      await answerInputBox(ctx.page, team.url);
      // the server refuses requests without a key: the flow asks for one, in a password box
      await passwordBox(ctx.page, 'API key for');
      await answerInputBox(ctx.page, 'not-the-team-key');
      // tested before the box closes: the refusal is said under it, and the box stays for another try
      await boxSaying(ctx.page, /refused the API key/);
      await ctx.screenshot('connect-wrong-key');
      await answerInputBox(ctx.page, E2E_TEAM_API_KEY);
      // a name, with the host suggested
      await boxSuggesting(ctx.page, new URL(team.url).host);
      await answerInputBox(ctx.page, 'Team');
      await toastSaying(ctx.page, /Connected to Team: OpenHands 1\.11\.0, API key accepted/);
      // the flow's newer message replaced its older one
      await toastGone(ctx.page, /Connected to This machine/);
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await waitForRows(pane, "Team's conversations");
      await paneDescription(pane, /Team/);
      await statusItem(ctx.page, 'Team').waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('connect-connected');
    },
    { needs: [FIRST_RUN] },
  );

  runner.step(
    'Connect: a server that is not OpenHands — said under the address box with the fix; nothing is saved',
    async () => {
      const page = http.createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<!doctype html><title>Team wiki</title>');
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      try {
        await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
        await quickPickRow(ctx.page, 'Another server…').click();
        await answerInputBox(ctx.page, `http://127.0.0.1:${(page.address() as AddressInfo).port}`);
        await boxSaying(
          ctx.page,
          /answered, but not as OpenHands does\. Use the address you open OpenHands at/,
        );
        await ctx.screenshot('connect-not-openhands');
        await ctx.page.keyboard.press('Escape');
      } finally {
        page.close();
      }
    },
    { needs: [FIRST_RUN] },
  );

  runner.step(
    'Switch Server… from the status bar in two clicks, with a panel open: the panel closes saying why; Switch Back',
    async () => {
      if (!team) throw new Error('no Team server');
      const running = new Set(team.state.sandboxes.filter((s) => s.status === 'RUNNING').map((s) => s.id));
      const conversation =
        team.state.conversations.find((c) => running.has(c.sandbox_id)) ?? team.state.conversations[0];
      if (!conversation) throw new Error('Team has no conversation');
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, conversation.id);
      await waitForTranscript(ctx.page, 20_000);
      // click 1: the status bar item; click 2: the other server
      await statusItem(ctx.page, 'Team').click();
      await quickPickRow(ctx.page, 'This machine (:3001)').click();
      const closed = await toastSaying(
        ctx.page,
        /The conversation of Team was closed: the views now show This machine \(:3001\)/,
      );
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await paneDescription(pane, /This machine \(:3001\)/);
      await eventually(
        "the panel of Team's conversation gone",
        async () => ((await ctx.page.locator('iframe.webview.ready').count()) === 0 ? true : undefined),
        { timeoutMs: 10_000 },
      );
      await ctx.screenshot('connect-switched');
      await closed.locator('a', { hasText: 'Switch Back to Team' }).first().click();
      await paneDescription(pane, /Team/);
      await waitForRows(pane, "Team's conversations again");
      // back: the offer to switch back is stale, and goes
      await toastGone(ctx.page, /Switch Back to Team/);
    },
    { needs: [LOCAL, TEAM] },
  );

  runner.step(
    'Forget Server…: the server and its key are gone from this machine',
    async () => {
      if (!team) throw new Error('no Team server');
      await runCommand(ctx.page, 'OpenHands: Forget Server…');
      await quickPickRow(ctx.page, 'Team').click();
      const dialog = await dialogSaying(ctx.page, 'Forget Team?', 15_000);
      await ctx.screenshot('connect-forget');
      await clickDialogButton(dialog, 'Forget');
      await toastSaying(ctx.page, /Team was forgotten/);
      await toastGone(ctx.page, /Connected to/);
      // the views moved on; pointed at Team again by hand, no key is sent: Secret Storage has none
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await paneDescription(pane, /This machine \(:3001\)/);
      const since = team.requests.length;
      await editSettingsJson(ctx.page, ctx.userSettingsFile, { 'openhands.serverUrl': team.url });
      await waitForWelcome(pane, 'the unauthorized welcome view', /refused the request/);
      const sent = team.requests.slice(since);
      if (sent.length === 0) throw new Error('no request reached Team after it was pointed at again');
      if (sent.some((request) => request.headers['x-session-api-key'] === E2E_TEAM_API_KEY))
        throw new Error("a request still carried Team's key after Forget Server");
    },
    { needs: [TEAM] },
  );

  // always: the steps after these expect the seeded server, as the driver set it up
  runner.step('back to the seeded server', async () => {
    await editSettingsJson(ctx.page, ctx.userSettingsFile, {
      'openhands.serverUrl': ctx.serverUrl,
      'openhands.servers': undefined,
    });
    await Promise.all([local?.close(), team?.close()]);
    local = team = undefined;
    await openOpenHandsView(ctx.page);
    await waitForRows(await viewPane(ctx.page, CONVERSATIONS_VIEW), 'the seeded conversations');
  });
}

async function anyLocalOpenHands(): Promise<boolean> {
  const answers = await Promise.all(
    [3000, 3001, 8000, 8080].map((port) =>
      fetch(`http://localhost:${port}/openapi.json`, { signal: AbortSignal.timeout(1500) })
        .then((response) => response.ok)
        .catch(() => false),
    ),
  );
  return answers.some(Boolean);
}

/** Waits until no toast says this (it was replaced or taken back). */
async function toastGone(page: Page, text: RegExp): Promise<void> {
  await eventually(
    `no toast saying ${text}`,
    async () =>
      (await page.locator('.notification-toast', { hasText: text }).count()) === 0 ? true : undefined,
    {
      timeoutMs: 10_000,
      lastSeen: async () => (await page.locator('.notification-toast').allInnerTexts()).join(' | '),
    },
  );
}

function statusItem(page: Page, text: string): Locator {
  return page.locator('.statusbar-item', { hasText: text }).first();
}

async function paneDescription(pane: Locator, text: RegExp): Promise<void> {
  await eventually(
    `the view's description ${text}`,
    async () => {
      const description = await pane
        .locator('.pane-header .description')
        .first()
        .innerText()
        .catch(() => '');
      return text.test(description) ? true : undefined;
    },
    { timeoutMs: 15_000, lastSeen: () => pane.locator('.pane-header .description').first().innerText() },
  );
}
