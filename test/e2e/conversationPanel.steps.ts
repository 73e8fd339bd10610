// The conversation panel in the real workbench against the test server's agent-server double: open it
// from the tree and by id, watch events arrive live, lose the socket and recover, survive a window
// reload, and see a paused sandbox offline with Resume. Screenshots in light and dark.
import type { FrameLocator } from 'playwright-core';
import { waitForWorkbench } from '../../scripts/vscode/workbench';
import { fixtureImage, paddedPng, SVG_WITH_SCRIPT } from '../shared/images';
import { agentMessage, executionStatus, userMessage } from '../shared/agentEvents';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import {
  agentDouble,
  browserRound,
  feedState,
  panelFrame,
  renderedRowIds,
  terminalRound,
  waitForFeed,
  waitForTranscript,
} from './conversationPanel';
import { blurAndRefocusWindow } from './mcpForm';
import { openOpenHandsView, rowContaining, viewPane } from './openhands-view';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW } from './selectors';
import { listConversations, type ConversationSummary } from './server-api';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';
import { captureWalkthroughMedia } from './walkthroughMedia';

const OPEN_FROM_TREE = 'Conversation panel: a click on a conversation row opens its transcript, live';
const LIVE = 'Conversation panel: a command the agent runs arrives live (output, exit code, streaming reply)';
const RECOVER = 'Conversation panel: the socket drops, the header says so, it recovers without duplicates';
const RELOAD = 'Conversation panel: restored after a window reload';
const BY_ID = 'Conversation panel: Open Conversation from the palette, by id';
const PAUSED =
  'Conversation panel: a paused sandbox shows offline with Resume Sandbox; Resume brings it live';
const DARK = 'Conversation panel: dark theme';
const COMPOSER_IMAGE =
  "Conversation panel: an image pasted under the message input is sent beside the text and shows in the user's bubble";
const BROWSER =
  'Conversation panel: browser steps read as what the agent did, with each screenshot drawn at its step (light and dark), opened whole on a click';

async function textOf(frame: FrameLocator, selector: string): Promise<string> {
  return ((await frame.locator(selector).first().textContent({ timeout: 5_000 })) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

async function expectText(frame: FrameLocator, text: string, timeoutMs = 10_000): Promise<void> {
  await frame.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: timeoutMs });
}

async function pauseOnServer(serverUrl: string, sandboxId: string): Promise<void> {
  const response = await fetch(
    new URL(`/__control/state/sandboxes/${encodeURIComponent(sandboxId)}`, serverUrl),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'PAUSED' }),
    },
  );
  if (!response.ok) throw new Error(`pausing ${sandboxId} on the test server: HTTP ${response.status}`);
}

export function conversationPanelSteps(runner: StepRunner, ctx: E2EContext): void {
  let target: ConversationSummary | undefined;
  const conversation = (): ConversationSummary => {
    if (!target) throw new Error('no conversation was opened');
    return target;
  };

  runner.step(
    OPEN_FROM_TREE,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      target = conversations.find(
        (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running' && c.title,
      );
      if (!target?.title) throw new Error('the seed has no quiet conversation in a running sandbox');
      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      await rowContaining(pane, target.title).click();
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'live');
      const title = await textOf(frame, 'h1.title');
      if (title !== target.title) throw new Error(`the header says "${title}", not "${target.title}"`);
      const status = await textOf(frame, '.exec-status');
      if (!status) throw new Error('the header shows no agent status');
      const sockets = await agentDouble.sockets(ctx.serverUrl, target.id);
      if (sockets !== 1) throw new Error(`${sockets} sockets for one open conversation`);
      await ctx.screenshot('conversation-panel-light');
      // the walkthrough's "watch" picture: the panel's header and its newest rows
      await captureWalkthroughMedia(ctx.page, 'watch', ctx.page.locator('.part.editor'), { height: 420 });
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    LIVE,
    async () => {
      const { id } = conversation();
      const frame = panelFrame(ctx.page);
      await agentDouble.append(ctx.serverUrl, id, [
        executionStatus('running'),
        ...terminalRound(
          'ls -la src',
          'total 8\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root 42 main.ts',
          0,
          'a',
        ),
        ...terminalRound('npm run missing-script', 'npm error Missing script: "missing-script"', 1, 'b'),
      ]);
      await expectText(frame, 'Run ls -la src');
      await expectText(frame, 'main.ts');
      await eventually('the exit codes', async () => {
        const ok = await frame.locator('.exit-ok').count();
        const failed = await frame.locator('.exit-fail').count();
        return ok > 0 && failed > 0 ? true : undefined;
      });
      await agentDouble.stream(ctx.serverUrl, id, ['Both commands ran; ', 'one of them failed.']);
      await expectText(frame, 'Both commands ran; one of them failed.');
      await ctx.screenshot('conversation-panel-live-streaming');
      await agentDouble.append(ctx.serverUrl, id, [
        agentMessage('Both commands ran; **one of them failed**.'),
        executionStatus('finished'),
      ]);
      await eventually('the streaming bubble replaced by the message', async () =>
        (await frame.locator('.streaming').count()) === 0 &&
        (await frame.locator('strong', { hasText: 'one of them failed' }).count()) > 0
          ? true
          : undefined,
      );
    },
    { needs: [OPEN_FROM_TREE] },
  );

  runner.step(
    BROWSER,
    async () => {
      const { id, execution_status: before } = conversation();
      const frame = panelFrame(ctx.page);
      // a screenshot the size of a real one (300 KB): the log holds its head, the page gets it whole
      const png = paddedPng(300_000).toString('base64');
      const svg = Buffer.from(SVG_WITH_SCRIPT).toString('base64');
      const cut = paddedPng(200_000).subarray(0, 150_000).toString('base64');
      await agentDouble.append(ctx.serverUrl, id, [
        // the agent works: while its newest step is a browser step, the header shows what it sees
        executionStatus('running'),
        ...browserRound(
          { kind: 'BrowserNavigateAction', url: 'http://127.0.0.1:8011/shop', new_tab: false },
          'Navigated to http://127.0.0.1:8011/shop',
          'nav',
        ),
        ...browserRound(
          { kind: 'BrowserTypeAction', index: 4, text: 'blue mug' },
          'Typed into element 4',
          'type',
        ),
        ...browserRound(
          { kind: 'BrowserGetStateAction', include_screenshot: true },
          'Page: Shop',
          'svg',
          svg,
        ),
        ...browserRound(
          { kind: 'BrowserGetStateAction', include_screenshot: true },
          'Page: Cart',
          'cut',
          cut,
        ),
        ...browserRound(
          { kind: 'BrowserGetStateAction', include_screenshot: true },
          'Page: Shop — 3 results',
          'look',
          png,
        ),
      ]);
      await expectText(frame, 'Open http://127.0.0.1:8011/shop');
      await expectText(frame, 'Type “blue mug” into element 4');
      await expectText(frame, 'The screenshot cannot be shown: an SVG image');
      await expectText(frame, 'Cannot be shown: a PNG image cut short');
      // the one whole screenshot is drawn, from a blob: URL the page made; nothing else is an image
      const shot = frame.locator('.rows .shot-frame img');
      await eventually('the screenshot drawn', async () =>
        (await shot.count()) === 1 &&
        (await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 320))
          ? true
          : undefined,
      );
      if (!(await shot.getAttribute('src'))?.startsWith('blob:')) throw new Error('not a blob: image');
      if ((await frame.locator('.rows img').count()) !== 1 || (await frame.locator('svg script').count()) > 0)
        throw new Error('another image or an SVG reached the page');
      // the strip under the header: the newest page, where the agent went, and its step
      const strip = frame.locator('.browser-strip');
      await strip.locator('img').waitFor({ timeout: 10_000 });
      await expectText(frame, 'The agent is browsing');
      if (!((await strip.textContent()) ?? '').includes('http://127.0.0.1:8011/shop'))
        throw new Error('the strip does not say where the agent went');
      await shot.scrollIntoViewIfNeeded();
      await ctx.screenshot('conversation-panel-browser-steps');
      await setColorTheme(ctx.page, 'Dark Modern');
      await shot.scrollIntoViewIfNeeded();
      await ctx.screenshot('conversation-panel-browser-steps-dark');
      await setColorTheme(ctx.page, 'Light Modern');
      // a click opens it whole in VS Code's image preview, in an editor tab beside the panel
      await shot.click();
      const tab = ctx.page.locator('.tab', { hasText: /-1\.png/ });
      await tab.first().waitFor({ timeout: 10_000 });
      const preview = ctx.page
        .frameLocator('iframe.webview.ready')
        .last()
        .frameLocator('iframe')
        .locator('img');
      await eventually('the image preview drawn', async () =>
        (await preview.count()) > 0 &&
        (await preview.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 320))
          ? true
          : undefined,
      );
      await ctx.screenshot('conversation-panel-screenshot-opened');
      await tab.first().locator('.codicon-close').click();
      // the agent finished: the strip goes
      await agentDouble.append(ctx.serverUrl, id, [executionStatus(before ?? 'finished')]);
      await strip.waitFor({ state: 'detached', timeout: 10_000 });
    },
    { needs: [LIVE] },
  );

  runner.step(
    RECOVER,
    async () => {
      const { id } = conversation();
      const frame = panelFrame(ctx.page);
      await agentDouble.drop(ctx.serverUrl, id, 2500);
      await waitForFeed(frame, 'reconnecting', 10_000);
      await ctx.screenshot('conversation-panel-reconnecting');
      await agentDouble.append(ctx.serverUrl, id, [userMessage('Sent while the panel was away')]);
      await waitForFeed(frame, 'live', 20_000);
      await expectText(frame, 'Sent while the panel was away');
      const ids = await renderedRowIds(frame);
      if (new Set(ids).size !== ids.length) throw new Error('a row shows twice after the reconnect');
    },
    { needs: [OPEN_FROM_TREE] },
  );

  runner.step(
    RELOAD,
    async () => {
      // VS Code (web) stores which editors are open when the window loses focus: a reload right after a
      // change could come back without the panel, as a user's would not
      await blurAndRefocusWindow(ctx.page);
      await ctx.page.reload();
      await waitForWorkbench(ctx.page);
      const frame = await waitForTranscript(ctx.page, 30_000);
      await waitForFeed(frame, 'live', 20_000);
      await expectText(frame, 'Sent while the panel was away');
      const title = await textOf(frame, 'h1.title');
      if (title !== conversation().title) throw new Error(`after the reload the panel shows "${title}"`);
    },
    { needs: [RECOVER] },
  );

  runner.step(
    BY_ID,
    async () => {
      await runCommand(ctx.page, 'View: Close All Editors');
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, conversation().id);
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'live');
      await expectText(frame, 'Sent while the panel was away');
    },
    { needs: [OPEN_FROM_TREE] },
  );

  runner.step(
    PAUSED,
    async () => {
      const { sandbox_id: sandboxId } = conversation();
      await runCommand(ctx.page, 'View: Close All Editors');
      // paused elsewhere (the web UI, another client): the panel learns it from the server
      await pauseOnServer(ctx.serverUrl, sandboxId);
      await runCommand(ctx.page, 'OpenHands: Open Conversation');
      await answerInputBox(ctx.page, conversation().id);
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'offline');
      const banner = await textOf(frame, '.feed-banner');
      if (!/paused/i.test(banner)) throw new Error(`the banner says "${banner}"`);
      await expectText(frame, 'Sent while the panel was away');
      await ctx.screenshot('conversation-panel-paused');
      // with no list of changes to read (paused), a file the agent edited still reads relative to its workspace
      const path = frame.locator('.edit-head .path').first();
      await eventually(
        'a file-edit row in view',
        async () => {
          await frame.locator('.transcript').evaluate((el) => el.scrollBy(0, -600));
          return (await path.count()) > 0 ? true : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 200 },
      );
      await path.scrollIntoViewIfNeeded();
      const shown = ((await path.textContent()) ?? '').trim();
      if (shown.startsWith('/') || shown.includes('openhands-sandboxes'))
        throw new Error(`the edit row shows the sandbox's absolute path: ${shown}`);
      await ctx.screenshot('conversation-panel-edit-relative');
      await frame.locator('#resume-sandbox').click();
      await waitForFeed(frame, 'live', 20_000);
      if ((await feedState(frame)) !== 'live') throw new Error('not live after Resume');
    },
    { needs: [OPEN_FROM_TREE] },
  );

  runner.step(
    DARK,
    async () => {
      await setColorTheme(ctx.page, 'Dark Modern');
      const frame = await waitForTranscript(ctx.page);
      const background = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r = 255, g = 255, b = 255] = (background.match(/[\d.]+/g) ?? []).map(Number);
      if (r + g + b > 200) throw new Error(`the panel is not dark: ${background}`);
      await ctx.screenshot('conversation-panel-dark');
      await setColorTheme(ctx.page, 'Light Modern');
      await runCommand(ctx.page, 'View: Close All Editors');
    },
    { needs: [OPEN_FROM_TREE] },
  );

  runner.step(
    COMPOSER_IMAGE,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const other = conversations.find(
        (c) =>
          c.sandbox_status === 'RUNNING' &&
          c.execution_status !== 'running' &&
          c.title &&
          c.id !== conversation().id,
      );
      if (!other?.title) throw new Error('the seed has no second quiet conversation in a running sandbox');
      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      await rowContaining(await viewPane(ctx.page, CONVERSATIONS_VIEW), other.title).click();
      const frame = await waitForTranscript(ctx.page);
      await waitForFeed(frame, 'live');
      // a screenshot on the clipboard, pasted into the input as Chromium delivers it
      const jpeg = fixtureImage('page.jpg').toString('base64');
      await frame.locator('#message-input').evaluate((input, base64) => {
        const data = new DataTransfer();
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], 'image.jpg', { type: 'image/jpeg' }));
        input.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      }, jpeg);
      await frame.locator('.attachment img').waitFor({ timeout: 10_000 });
      await frame.locator('#message-input').fill('Does the shop page look like this?');
      await ctx.screenshot('conversation-panel-image-attached');
      await frame.locator('#send').click();
      // the server's echo: the user's bubble with the image drawn from the agent server's event
      const drawn = frame.locator('.message-user .shot-frame img');
      await eventually('the image in the user bubble', async () =>
        (await drawn.count()) > 0 &&
        (await drawn.last().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 320))
          ? true
          : undefined,
      );
      await drawn.last().scrollIntoViewIfNeeded();
      await ctx.screenshot('conversation-panel-image-sent');
      const events = await agentDouble.events(ctx.serverUrl, other.id);
      const sent = JSON.stringify(events);
      if (!sent.includes(`data:image/jpeg;base64,${jpeg.slice(0, 60)}`))
        throw new Error('the agent server did not store the image as a data URL');
    },
    { needs: [OPEN_FROM_TREE] },
  );
}
