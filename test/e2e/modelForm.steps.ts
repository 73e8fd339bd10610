// The Model page in the real workbench against the test server: opened from the palette, a custom
// OpenAI-compatible model and its key typed and saved by real clicks, the server holding exactly that,
// the key nowhere in the page; pictured light and dark for the README (docs/images/model-setup-*.png).
import type { FrameLocator, Page } from 'playwright-core';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import { clickDialogButton, dialogSaying } from './dialogs';
import { runCommand } from './palette';
import { openOpenHandsView } from './openhands-view';
import type { StepRunner } from './runner';
import { E2E_LLM_KEY } from './secrets';
import { clearServerRequests, serverRequests, serverState } from './serverControl';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

export const SET_UP_MODEL_TITLE = 'OpenHands: Set Up the Model…';
const SAVE_CUSTOM_MODEL =
  'Model page: from the palette, a custom OpenAI-compatible model and its key saved by clicks (light and dark)';

const LIST_AND_PROFILE =
  "Model page: the server's list searched and chosen by clicks; a profile saved, then deleted after its question";

const MODEL = 'openai/my-model';
const BASE_URL = 'http://127.0.0.1:8000/v1';

/** The document inside the panel's webview (VS Code nests it in two iframes). */
function pageFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

async function textOf(frame: FrameLocator, selector: string): Promise<string> {
  return ((await frame.locator(selector).first().textContent({ timeout: 2_000 })) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Types into a vscode-textfield as a user does: a click into its input, then the keys. */
async function typeInto(page: Page, frame: FrameLocator, id: string, value: string): Promise<void> {
  const input = frame.locator(`#${id} input`);
  await input.click();
  await input.fill('');
  await page.keyboard.type(value);
}

export function modelFormSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    SAVE_CUSTOM_MODEL,
    async () => {
      const page = ctx.page;
      await runCommand(page, 'View: Close All Editors');
      // the extension's views are there: its commands are in the palette
      await openOpenHandsView(page);
      await eventually(
        'the command in the palette',
        () => runCommand(page, SET_UP_MODEL_TITLE).then(() => true),
        {
          timeoutMs: 30_000,
        },
      );
      const frame = pageFrame(page);
      await frame.locator('#readiness').waitFor({ state: 'visible', timeout: 15_000 });
      const server = await textOf(frame, '#server-name');
      if (!server.startsWith('Server: ')) throw new Error(`the page does not name the server: "${server}"`);

      await frame.locator('#source-custom').click();
      await frame.locator('#custom-model').waitFor({ state: 'visible', timeout: 5_000 });
      await typeInto(page, frame, 'custom-model', MODEL);
      await typeInto(page, frame, 'base-url', BASE_URL);
      await typeInto(page, frame, 'api-key', E2E_LLM_KEY);
      await clearServerRequests(ctx.serverUrl);
      await frame.locator('#save').click();
      const notice = await eventually(
        'the saved notice',
        async () => {
          const text = await textOf(frame, '#notice').catch(() => '');
          return text.startsWith('Saved.') ? text : undefined;
        },
        { timeoutMs: 15_000, lastSeen: () => textOf(frame, '.status') },
      );
      if (notice !== `Saved. Ready: conversations use ${MODEL}.`)
        throw new Error(`the notice says "${notice}"`);
      const keyState = await textOf(frame, '#key-state');
      if (!keyState.startsWith('A key is stored on the server'))
        throw new Error(`the key's state says "${keyState}"`);

      const settings = (await serverState(ctx.serverUrl)).settings;
      const stored = [settings?.llm_model, settings?.llm_base_url, settings?.llm_api_key];
      if (JSON.stringify(stored) !== JSON.stringify([MODEL, BASE_URL, E2E_LLM_KEY]))
        throw new Error(
          `the server holds ${JSON.stringify(stored.slice(0, 2))} and ${stored[2] === E2E_LLM_KEY ? 'the key' : 'another key'}`,
        );
      const writes = (await serverRequests(ctx.serverUrl))
        .filter((r) => r.method === 'POST')
        .map((r) => r.path);
      // one write, to the settings route this server offers (the seeded server keeps the legacy one too)
      if (writes.length !== 1 || !/^\/api\/(v1\/)?settings$/.test(writes[0] ?? ''))
        throw new Error(`the save wrote ${JSON.stringify(writes)}`);
      const html = await frame.locator('html').evaluate((element) => element.outerHTML);
      if (html.includes(E2E_LLM_KEY)) throw new Error('the page holds the key after the save');

      await ctx.screenshot('model-setup-light');
      await setColorTheme(ctx.page, 'Dark Modern');
      try {
        await frame.locator('#notice').waitFor({ state: 'visible', timeout: 10_000 });
        await ctx.screenshot('model-setup-dark');
      } finally {
        await setColorTheme(ctx.page, 'Light Modern');
      }
      await runCommand(page, 'View: Close All Editors');
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    LIST_AND_PROFILE,
    async () => {
      const page = ctx.page;
      await runCommand(page, SET_UP_MODEL_TITLE);
      const frame = pageFrame(page);
      await frame.locator('#source-catalogue').waitFor({ state: 'visible', timeout: 15_000 });
      await frame.locator('#source-catalogue').click();
      const providers = frame.locator('#provider-list .choice');
      await providers.first().waitFor({ timeout: 10_000 });
      await typeInto(page, frame, 'provider-search', 'anthro');
      await eventually('only the matching providers', async () => {
        const shown = await providers.evaluateAll((rows) =>
          rows.map((row) => row.getAttribute('data-value')),
        );
        return shown.length > 0 && shown.every((name) => name?.includes('anthro')) ? shown : undefined;
      });
      await frame.locator('#provider-list .choice[data-value="anthropic"]').click();
      const models = frame.locator('#model-list .choice');
      await models.first().waitFor({ timeout: 10_000 });
      const first = await models.first().getAttribute('data-value');
      if (!first?.startsWith('anthropic/')) throw new Error(`the first model listed is ${first}`);
      if ((await frame.locator('#model-list .choice').first().locator('.badge').count()) !== 1)
        throw new Error('the first model listed is not a verified one');
      await models.first().click();
      await eventually('the model chosen', async () =>
        (await models.first().getAttribute('aria-selected')) === 'true' ? true : undefined,
      );

      await clearServerRequests(ctx.serverUrl);
      await typeInto(page, frame, 'profile-name', 'local-model');
      await frame.locator('#profile-save').click();
      const row = frame.locator('li[data-profile="local-model"]');
      await row.waitFor({ timeout: 10_000 });
      const said = await textOf(frame, '#notice');
      if (!said.startsWith('Saved the current settings as profile local-model.'))
        throw new Error(`the notice says "${said}"`);
      // saving a profile does not move the model: the unsaved choice from the list stays
      if ((await frame.locator('#model-list .choice[aria-selected="true"]').count()) !== 1)
        throw new Error('the model chosen from the list was lost when the profile was saved');
      await frame.locator('#profiles-heading').scrollIntoViewIfNeeded();
      await ctx.screenshot('model-setup-list-and-profiles');

      await row.locator('.profile-delete').click();
      const question = await dialogSaying(page, 'Delete the profile local-model?');
      await clickDialogButton(question, 'Delete');
      await row.waitFor({ state: 'detached', timeout: 10_000 });
      const writes = (await serverRequests(ctx.serverUrl))
        .filter((r) => r.method !== 'GET')
        .map((r) => `${r.method} ${r.path}`);
      const expected = [
        'POST /api/v1/settings/profiles/local-model',
        'DELETE /api/v1/settings/profiles/local-model',
      ];
      if (JSON.stringify(writes) !== JSON.stringify(expected))
        throw new Error(`the page wrote ${JSON.stringify(writes)}`);
      await runCommand(page, 'View: Close All Editors');
    },
    { needs: [SAVE_CUSTOM_MODEL] },
  );
}
