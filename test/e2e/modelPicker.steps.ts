// The panel's model picker in the real workbench: with two saved profiles on the server, the header's
// model is a button; a click opens VS Code's quick pick of the profiles (pictured light and dark);
// choosing one switches the conversation, the header names the new model and the transcript marks it.
import type { FrameLocator, Page } from 'playwright-core';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import { waitForFeed, waitForTranscript } from './conversationPanel';
import { openOpenHandsView, rowContaining, viewPane } from './openhands-view';
import { quickPickRow, runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW } from './selectors';
import { listConversations } from './server-api';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const MODEL_PICKER =
  "Conversation panel: the header's model is a picker of the server's saved profiles (light and dark); choosing one switches the model and marks it in the transcript";
const FAST_MODEL = 'openai/gpt-4o-mini';

async function send(serverUrl: string, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(new URL(path, serverUrl), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
}

async function openPicker(page: Page, frame: FrameLocator): Promise<void> {
  await frame.locator('#model-picker:not([disabled])').click();
  await quickPickRow(page, 'fast').waitFor({ timeout: 10_000 });
}

async function closePicker(page: Page, frame: FrameLocator): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  // VS Code gives the focus back to the panel's webview a moment after the quick pick closed: a palette
  // opened before that loses the focus to it and closes at once (seen when an earlier step slowed the panel)
  await page.waitForFunction(() => document.activeElement?.tagName === 'IFRAME', undefined, {
    timeout: 10_000,
  });
  await frame.locator('#model-picker:not([disabled])').waitFor({ timeout: 10_000 });
}

export function modelPickerSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    MODEL_PICKER,
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const target = conversations.find(
        (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running' && c.title,
      );
      if (!target?.title) throw new Error('the seed has no quiet conversation in a running sandbox');
      // `steady` holds the model the conversation runs on (checked in the pick), `fast` another
      const running = (target as { llm_model?: string | null }).llm_model;
      if (!running) throw new Error('the seeded conversation names no model');
      const profiles = '/api/v1/settings/profiles';
      await send(ctx.serverUrl, 'POST', `${profiles}/steady`, { llm: { model: running } });
      await send(ctx.serverUrl, 'POST', `${profiles}/fast`, { llm: { model: FAST_MODEL } });
      try {
        await runCommand(ctx.page, 'View: Close All Editors');
        await openOpenHandsView(ctx.page);
        const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
        await rowContaining(pane, target.title).click();
        const frame = await waitForTranscript(ctx.page);
        await waitForFeed(frame, 'live');
        await openPicker(ctx.page, frame);
        const steady = ((await quickPickRow(ctx.page, 'steady').textContent()) ?? '').replace(/\s+/g, ' ');
        if (!steady.includes(running) || !steady.includes('runs on this model now'))
          throw new Error(`the steady row says "${steady}"`);
        await ctx.screenshot('model-picker-light');
        await closePicker(ctx.page, frame);
        await setColorTheme(ctx.page, 'Dark Modern');
        await openPicker(ctx.page, frame);
        await ctx.screenshot('model-picker-dark');
        await quickPickRow(ctx.page, 'fast').click();
        await eventually('the header names the new model', async () =>
          ((await frame.locator('#model-picker').textContent()) ?? '').includes(FAST_MODEL)
            ? true
            : undefined,
        );
        await frame
          .locator('.notice-title', { hasText: `Model switched to ${FAST_MODEL}` })
          .first()
          .waitFor({ timeout: 10_000 });
        await ctx.screenshot('model-picker-switched-dark');
        await setColorTheme(ctx.page, 'Light Modern');
      } finally {
        // later steps start conversations: with fewer than two profiles New Conversation asks no model
        await send(ctx.serverUrl, 'DELETE', `${profiles}/fast`);
        await send(ctx.serverUrl, 'DELETE', `${profiles}/steady`);
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
