// The extension in a real VS Code (code-server + Chromium) against the REAL OpenHands app server with
// the scripted LLM. Driven by scripts/real-openhands/run-tests.ts; a screenshot after every step.
// What the tree shows is compared with what the server itself answers (read over plain HTTP here).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openExtensionWorkbench } from '../e2e/workbench.steps';
import {
  click,
  EDIT_COMMAND_TITLE,
  errorText,
  fill,
  formFrame,
  setSecret,
  waitForForm,
  waitIdle,
} from '../e2e/mcpForm';
import { chooseFromRowMenu, openOpenHandsView, rowLabels, sandboxRow, viewPane } from '../e2e/openhands-view';
import {
  answerInputBox,
  boxSuggesting,
  passwordBox,
  quickPickRow,
  runCommand,
  toastSaying,
} from '../e2e/palette';
import { clickDialogButton, dialogSaying } from '../e2e/dialogs';
import type { StepRunner } from '../e2e/runner';
import { CONVERSATIONS_VIEW, PAUSE_SANDBOX, RESUME_SANDBOX, SANDBOXES_VIEW } from '../e2e/selectors';
import { eventually } from '../e2e/wait';
import { sandboxRowName, type ConversationSummary } from '../e2e/server-api';
import type { AppConversation } from '../../src/api';
import { statsFromUpdate } from '../../src/api/usage/usageStats';
import { usageText } from '../../src/api/usage/usageText';
import { rememberAsked } from '../../src/state/askedWords';
import { conversationTitle } from '../../src/state/names';
import { realRequest, SCRIPTED_LLM_KEY, scriptedRequests } from './env';
import {
  SCRIPTED_CHANGES,
  SCRIPTED_CHANGES_ADDED,
  SCRIPTED_CHANGES_ADDED_TEXT,
  SCRIPTED_CHANGES_BASE_TEXT,
  SCRIPTED_CHANGES_EDITED,
  SCRIPTED_CHANGES_EDITED_TEXT,
  SCRIPTED_CHANGES_FINISH,
  SCRIPTED_COMMAND,
  SCRIPTED_FILE,
  SCRIPTED_FINISH,
  SCRIPTED_FOLLOW_UP_COMMAND,
  SCRIPTED_FOLLOW_UP_FINISH,
  SCRIPTED_REJECTED_FINISH,
  SCRIPTED_BROWSE,
  SCRIPTED_BROWSE_FINISH,
  SCRIPTED_MODEL,
  SCRIPTED_HANDOFF,
  SCRIPTED_HANDOFF_EDITED,
  SCRIPTED_HANDOFF_FINISH,
  SCRIPTED_HANDOFF_LISTING,
  SCRIPTED_HANDOFF_NEW,
} from './scriptedLlm';
import { makeLocalWork, type LocalWork } from '../shared/localWork';
import { treeOf } from '../shared/sandboxWorkspace';
import { withWorkspaceAside } from '../e2e/workspaceAside';
import { startTestPage } from './testPage';
import { panelFrame, waitForFeed, waitForTranscript } from '../e2e/conversationPanel';

/** The second model name the scripted LLM answers to, and the profiles the SWITCH step saves. */
const SECOND_MODEL = 'openai/scripted-llm-second';
const FIRST_PROFILE = 'scripted';
const SECOND_PROFILE = 'second';

/** The Model page's document inside its webview (VS Code nests it in two iframes). */
function modelPageFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/** Types into a vscode-textfield as a user does: a click into its input, then the keys. */
async function typeIntoField(page: Page, frame: FrameLocator, id: string, value: string): Promise<void> {
  const input = frame.locator(`#${id} input`);
  await input.click();
  await input.fill('');
  await page.keyboard.type(value);
}

export interface RealStepsContext {
  page: Page;
  server: { url: string; apiKey: string };
  /** The scripted LLM's base URL: what it recorded is read from there. */
  llmBaseUrl: string;
  workbenchUrl: string;
  screenshot(name: string): Promise<string>;
  /** The folder code-server opened: made a clone of a sandbox's repository to apply changes to. */
  workspaceFolder: string;
}

interface Sandbox {
  id: string;
  status: string;
}
interface Conversation {
  id: string;
  title: string | null;
  sandbox_id: string;
}
interface StartTask {
  id: string;
  status: string;
  detail: string | null;
  app_conversation_id: string | null;
}

const MESSAGE = 'Run one shell command from VS Code, then finish.';
const MCP_URL = 'http://127.0.0.1:9/sse';

async function get<T>(ctx: RealStepsContext, path: string): Promise<T> {
  const reply = await realRequest<T>(ctx.server, 'GET', path);
  if (reply.status !== 200)
    throw new Error(`GET ${path}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

const sandboxes = async (ctx: RealStepsContext) =>
  (await get<{ items: Sandbox[] }>(ctx, '/api/v1/sandboxes/search?limit=100')).items;
const conversations = async (ctx: RealStepsContext) =>
  (await get<{ items: Conversation[] }>(ctx, '/api/v1/app-conversations/search?limit=100')).items;
async function sandboxStatus(ctx: RealStepsContext, id: string): Promise<string | undefined> {
  const [info] = await get<(Sandbox | null)[]>(ctx, `/api/v1/sandboxes?id=${encodeURIComponent(id)}`);
  return info?.status;
}

/** The sandbox's row, by the name it shows now (its newest conversation's title, else its readable name). */
async function sandboxRowOf(ctx: RealStepsContext, pane: Locator, id: string): Promise<Locator> {
  return sandboxRow(pane, sandboxRowName(id, (await conversations(ctx)) as unknown as ConversationSummary[]));
}

function mentions(label: string, word: string): boolean {
  return label.toLowerCase().includes(word.toLowerCase());
}

/** A conversation (in a sandbox of its own) for the tree to show, started over the API. */
async function startFixtureConversation(
  ctx: RealStepsContext,
  text = 'Fixture conversation for the tree.',
): Promise<Conversation> {
  const created = await realRequest<StartTask>(ctx.server, 'POST', '/api/v1/app-conversations', {
    initial_message: { content: [{ type: 'text', text }] },
  });
  if (created.status !== 200) throw new Error(`start: HTTP ${created.status}`);
  const task = await eventually(
    'the fixture start task READY',
    async () => {
      const [t] = await get<(StartTask | null)[]>(
        ctx,
        `/api/v1/app-conversations/start-tasks?ids=${created.body.id}`,
      );
      if (t?.status === 'ERROR') throw new Error(`start task ERROR: ${t.detail}`);
      return t?.status === 'READY' ? t : undefined;
    },
    { timeoutMs: 150_000, intervalMs: 1000 },
  );
  const [conversation] = await get<(Conversation | null)[]>(
    ctx,
    `/api/v1/app-conversations?ids=${task.app_conversation_id}`,
  );
  if (!conversation) throw new Error('the READY task names no conversation');
  return conversation;
}

export const OPEN =
  'open the workbench with the extension, connect with "Connect to OpenHands…" (address, the key it asks for, a name)';
const MODEL =
  "Set Up the Model… from Connect's notice: the scripted LLM stored by clicks as a custom OpenAI-compatible model with its key; the server holds it";
const TREE = "the tree shows the real server's sandboxes and conversations";
const START = 'Start Sandbox: a new process sandbox, RUNNING in the tree';
const PAUSE = 'pause it (inline button): PAUSED in the tree and on the server';
const RESUME = 'resume it (inline button): RUNNING again';
const CONVERSATION = 'New Conversation with a message in that sandbox: READY, listed in the tree';
const PANEL =
  'Conversation panel: the scripted run shows the message, the command with its output and exit 0, the new file as a diff, the finish';
const FOLLOW_UP = 'Steer: a follow-up message from the panel makes the agent run a command and finish';
const BROWSE =
  'Browser: a message from the panel makes the agent open a page the test serves and take a screenshot; the panel draws it at its step';
const CONFIRM =
  'Steer: with confirmation on, the command waits; Reject leaves the agent idle; Continue finishes; the next one is approved and finishes';
const NOTIFY =
  'Steer: a message from the palette to a conversation not in view; its finish notification fires';
const SWITCH =
  "Model: a second profile made on the Model page by clicks; the panel's picker switches the running conversation to it; every model call of its next run reaches it, and the transcript marks the switch";
const MCP = "MCP & Git Providers: save an MCP server; the server's settings then hold it";
const TOKEN = "MCP & Git Providers: a token the real server rejects shows the server's message at the token";
const DELETE = 'Delete Sandbox…: confirm, the sandbox leaves the tree and the server';
const CHANGES =
  'Changes: the agent edits a file with file_editor and creates one with the terminal; the panel lists exactly those two, their diffs open, Apply brings them into a local clone';
const HANDOFF =
  'Hand-off: New Conversation from a repository with local work, Bring my repository by clicks (one new file ticked); the agent lists exactly the handed-over files and hashes, edits one line; the panel lists only that edit and Apply brings it back byte for byte';
/** Put in the ignored `.env` of the handed-over repository: it must reach no event, request or file there. */
const HANDOFF_CANARY = 'OPENHANDS_REAL_HANDOFF_CANARY_93d1';
const HANDOFF_TASK = `${SCRIPTED_HANDOFF} List what you were given, then edit one line.`;

export function defineRealSteps(runner: StepRunner, ctx: RealStepsContext): void {
  let started: Sandbox | undefined;
  let startedConversation: Conversation | undefined;

  /** Opens the conversation's panel from the palette and waits until it follows the agent live. */
  const openLivePanel = async (conversationId: string) => {
    await runCommand(ctx.page, 'View: Close All Editors');
    await runCommand(ctx.page, 'OpenHands: Open Conversation');
    await answerInputBox(ctx.page, conversationId);
    const frame = await waitForTranscript(ctx.page, 30_000);
    await waitForFeed(frame, 'live', 30_000);
    return frame;
  };
  /** Waits until the transcript shows `text` (a file name also shows, folded, in the changed-files list). */
  const shownInTranscript = (text: string, timeoutMs: number) =>
    panelFrame(ctx.page)
      .locator('.transcript')
      .getByText(text, { exact: false })
      .first()
      .waitFor({ state: 'visible', timeout: timeoutMs });

  runner.step(OPEN, async () => {
    await openExtensionWorkbench(ctx.page, ctx.workbenchUrl);
    await openOpenHandsView(ctx.page);
    // as a new user connects: Connect to OpenHands…, another server, its address, the key it asks for
    await runCommand(ctx.page, 'OpenHands: Connect to OpenHands…');
    await quickPickRow(ctx.page, 'Another server…').click();
    await answerInputBox(ctx.page, ctx.server.url);
    await passwordBox(ctx.page, 'API key for');
    await answerInputBox(ctx.page, ctx.server.apiKey);
    // the key box stays while the connection is tested (the real server's first /openapi.json can
    // take seconds): the name box, with the host suggested, comes after
    await boxSuggesting(ctx.page, new URL(ctx.server.url).host);
    await answerInputBox(ctx.page, 'Real OpenHands');
    // the server is fresh (no settings at all): the notice says so, with the way out
    await toastSaying(
      ctx.page,
      /Connected to Real OpenHands: OpenHands 1\.11\.0, API key accepted\. It has no model yet/,
    );
  });

  runner.step(
    MODEL,
    async () => {
      const before = await realRequest(ctx.server, 'GET', '/api/v1/settings');
      if (before.status !== 404) throw new Error(`a fresh server answers ${before.status}, not 404`);
      const toast = await toastSaying(ctx.page, /It has no model yet/);
      await toast.locator('a', { hasText: 'Set Up the Model…' }).click();
      const frame = modelPageFrame(ctx.page);
      const readiness = frame.locator('#readiness');
      await readiness.waitFor({ state: 'visible', timeout: 20_000 });
      await ctx.screenshot('model-page-fresh');
      await frame.locator('#source-custom').click();
      await frame.locator('#custom-model').waitFor({ state: 'visible', timeout: 5_000 });
      await typeIntoField(ctx.page, frame, 'custom-model', SCRIPTED_MODEL);
      await typeIntoField(ctx.page, frame, 'base-url', ctx.llmBaseUrl);
      await typeIntoField(ctx.page, frame, 'api-key', SCRIPTED_LLM_KEY);
      await frame.locator('#save').click();
      const notice = frame.locator('#notice', { hasText: 'Saved.' });
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      const said = ((await notice.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (said !== `Saved. Ready: conversations use ${SCRIPTED_MODEL}.`)
        throw new Error(`the page says "${said}"`);
      const after = await realRequest<{
        llm_api_key_set?: boolean;
        agent_settings?: { llm?: { model?: string; base_url?: string } };
      }>(ctx.server, 'GET', '/api/v1/settings');
      const llm = after.body.agent_settings?.llm;
      if (llm?.model !== SCRIPTED_MODEL || llm.base_url !== ctx.llmBaseUrl || !after.body.llm_api_key_set)
        throw new Error(`the server holds ${JSON.stringify({ llm, keySet: after.body.llm_api_key_set })}`);
      const html = await frame.locator('html').evaluate((element) => element.outerHTML);
      if (html.includes(SCRIPTED_LLM_KEY)) throw new Error('the page holds the key after the save');
      await ctx.screenshot('model-page-saved');
      await runCommand(ctx.page, 'View: Close All Editors');
    },
    { needs: [OPEN] },
  );

  runner.step(
    TREE,
    async () => {
      const fixture = await startFixtureConversation(ctx);
      await runCommand(ctx.page, 'OpenHands: Refresh');
      const sandboxPane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const expectedSandboxes = await sandboxes(ctx);
      const named = (await conversations(ctx)) as unknown as ConversationSummary[];
      await eventually(
        `a row with name and status for each of ${expectedSandboxes.length} sandboxes`,
        async () => {
          const labels = await rowLabels(sandboxPane);
          const missing = expectedSandboxes.filter(
            (s) =>
              !labels.some(
                (l) => l.startsWith(`Sandbox ${sandboxRowName(s.id, named)}, `) && mentions(l, s.status),
              ),
          );
          return expectedSandboxes.length > 0 && missing.length === 0 ? true : undefined;
        },
        { timeoutMs: 20_000, lastSeen: async () => (await rowLabels(sandboxPane)).join(' | ') || 'no rows' },
      );
      const conversationPane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      const titles = (await conversations(ctx)).slice(0, 5).map((c) => c.title ?? c.id);
      if (!titles.includes(fixture.title ?? fixture.id)) throw new Error('the fixture is not on the server');
      await eventually(
        `rows for the newest conversations (${titles.join(', ')})`,
        async () => {
          const labels = await rowLabels(conversationPane);
          return titles.every((t) => labels.some((l) => l.includes(t))) ? true : undefined;
        },
        {
          timeoutMs: 20_000,
          lastSeen: async () => (await rowLabels(conversationPane)).join(' | ') || 'no rows',
        },
      );
    },
    { needs: [OPEN] },
  );

  runner.step(
    START,
    async () => {
      const before = new Set((await sandboxes(ctx)).map((s) => s.id));
      await runCommand(ctx.page, 'OpenHands: Start Sandbox');
      started = await eventually(
        'a new sandbox on the server',
        async () => (await sandboxes(ctx)).find((s) => !before.has(s.id)),
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      const id = started.id;
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = await sandboxRowOf(ctx, pane, id);
      const label = async () => (await row.getAttribute('aria-label', { timeout: 2_000 })) ?? '';
      await eventually(
        'RUNNING on its row',
        async () => (mentions(await label(), 'RUNNING') ? true : undefined),
        {
          timeoutMs: 60_000,
          lastSeen: label,
        },
      );
      const status = await sandboxStatus(ctx, id);
      if (status !== 'RUNNING') throw new Error(`the server reports ${status ?? 'no sandbox'}, not RUNNING`);
    },
    { needs: [OPEN] },
  );

  runner.step(
    PAUSE,
    async () => {
      const id = started!.id;
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = await sandboxRowOf(ctx, pane, id);
      await row.hover({ timeout: 10_000 });
      await row.locator(PAUSE_SANDBOX).click({ timeout: 5_000 });
      const label = async () => (await row.getAttribute('aria-label', { timeout: 2_000 })) ?? '';
      await eventually(
        'PAUSED on its row',
        async () => (mentions(await label(), 'PAUSED') ? true : undefined),
        {
          timeoutMs: 30_000,
          lastSeen: label,
        },
      );
      const status = await sandboxStatus(ctx, id);
      if (status !== 'PAUSED') throw new Error(`the server reports ${status ?? 'no sandbox'}, not PAUSED`);
    },
    { needs: [START] },
  );

  runner.step(
    RESUME,
    async () => {
      const id = started!.id;
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = await sandboxRowOf(ctx, pane, id);
      await row.hover({ timeout: 10_000 });
      await row.locator(RESUME_SANDBOX).click({ timeout: 5_000 });
      const label = async () => (await row.getAttribute('aria-label', { timeout: 2_000 })) ?? '';
      await eventually(
        'RUNNING on its row',
        async () => (mentions(await label(), 'RUNNING') ? true : undefined),
        {
          timeoutMs: 30_000,
          lastSeen: label,
        },
      );
      const status = await sandboxStatus(ctx, id);
      if (status !== 'RUNNING') throw new Error(`the server reports ${status ?? 'no sandbox'}, not RUNNING`);
    },
    { needs: [PAUSE] },
  );

  runner.step(
    CONVERSATION,
    async () => {
      const id = started!.id;
      const before = new Set((await conversations(ctx)).map((c) => c.id));
      await runCommand(ctx.page, 'OpenHands: New Conversation…');
      await answerInputBox(ctx.page, MESSAGE);
      await answerInputBox(ctx.page, ''); // no repository: nothing to clone
      // the picker names sandboxes as the tree does (no id on them)
      const name = sandboxRowName(id, (await conversations(ctx)) as unknown as ConversationSummary[]);
      await ctx.page
        .locator('.quick-input-list .monaco-list-row', { hasText: name })
        .first()
        .click({ timeout: 10_000 });
      await ctx.page
        .locator('.notification-toast', { hasText: 'New OpenHands conversation' })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('new-conversation-progress');
      // OpenHands 1.11 holds messages while a conversation starts: the panel opens at once and says the
      // start's status (no "has started" toast then); the conversation is listed once READY
      const created = await eventually(
        'the new conversation on the server',
        async () => (await conversations(ctx)).find((c) => !before.has(c.id)),
        { timeoutMs: 150_000, intervalMs: 1000 },
      );
      const toast = ctx.page
        .locator('.notification-toast', { hasText: 'The conversation has started' })
        .first();
      const panelTab = ctx.page.locator('.tabs-container .tab', { hasText: MESSAGE.slice(0, 30) }).first();
      await eventually(
        'the "has started" toast, or the conversation’s panel',
        async () => ((await toast.isVisible()) || (await panelTab.isVisible()) ? true : undefined),
        { timeoutMs: 30_000 },
      );
      if (created.sandbox_id !== id) throw new Error(`it runs in ${created.sandbox_id}, not ${id}`);
      startedConversation = created;
      // the extension names it by what was asked until the server titles it (its placeholder
      // "Conversation c1ef6" does not count): the driver learns the same words, so every row name
      // computed here (this row, its sandbox's) is the one the extension shows
      rememberAsked(created.id, MESSAGE);
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      const title = conversationTitle(created as unknown as AppConversation);
      await eventually(
        `"${title}" in the Conversations view`,
        async () => ((await rowLabels(pane)).some((l) => l.includes(title)) ? true : undefined),
        { timeoutMs: 20_000, lastSeen: async () => (await rowLabels(pane)).slice(0, 3).join(' | ') },
      );
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
    },
    { needs: [RESUME, MODEL] },
  );

  runner.step(
    PANEL,
    async () => {
      const frame = await openLivePanel(startedConversation!.id);
      const shown = (text: string) => shownInTranscript(text, 150_000);
      // the agent may still be working: everything below arrives live
      await shown(SCRIPTED_FINISH);
      await shown(MESSAGE);
      await shown(SCRIPTED_COMMAND);
      await shown('scripted-llm-was-here');
      const exit = (await frame.locator('.exit-ok').first().textContent({ timeout: 10_000 })) ?? '';
      if (!/0/.test(exit)) throw new Error(`the command's exit badge says "${exit}"`);
      await shown(SCRIPTED_FILE);
      const added = await frame.locator('.diff .dl-add').allTextContents();
      if (!added.some((line) => line.includes('written by the scripted LLM')))
        throw new Error(`the diff of ${SCRIPTED_FILE} shows no added text: ${added.join(' | ')}`);
      const status = (await frame.locator('.exec-status').first().textContent()) ?? '';
      if (!/finished/i.test(status)) throw new Error(`the header says "${status.trim()}"`);
      // the header's cost and tokens are the agent server's own figures for the conversation
      const expected = await agentUsageSummary(startedConversation!.id);
      await eventually(
        `"${expected}" in the header`,
        async () => ((await usageSummary(frame)) === expected ? true : undefined),
        { timeoutMs: 20_000, lastSeen: () => usageSummary(frame) },
      );
      await ctx.screenshot('conversation-panel-real');
    },
    { needs: [CONVERSATION] },
  );

  /** The header's usage line ("$0.00 · 360 tokens"), as the panel shows it. */
  const usageSummary = async (frame: FrameLocator) =>
    ((await frame.locator('#usage-toggle').first().textContent({ timeout: 5_000 })) ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  /** Where the conversation's agent server is and its key, as the app server says now. */
  const agentServerOf = (conversationId: string): Promise<{ url: string; key: string }> =>
    // 1.11 works out a sandbox's status per reply from a health check (`/alive`, 5 s): a miss on a busy
    // machine answers that reply without the address, so it is asked again for a while
    eventually(
      'the conversation’s agent server, as the app server names it',
      async () => {
        const [conversation] = await get<
          ({ conversation_url: string | null; session_api_key: string | null } | null)[]
        >(ctx, `/api/v1/app-conversations?ids=${conversationId}`);
        return conversation?.conversation_url
          ? { url: conversation.conversation_url, key: conversation.session_api_key ?? '' }
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 1000 },
    );
  /** What the agent server's `stats` for the conversation come to, in the header's words. */
  const agentUsageSummary = async (conversationId: string): Promise<string> => {
    const agent = await agentServerOf(conversationId);
    const response = await fetch(agent.url, { headers: { 'X-Session-API-Key': agent.key } });
    const info = (await response.json()) as { stats?: unknown };
    const stats = statsFromUpdate(info.stats);
    if (!stats)
      throw new Error(`the agent server has no usage for the conversation: ${JSON.stringify(info.stats)}`);
    return usageText(stats).summary;
  };

  /** The agent's status as the panel's header shows it. */
  const panelStatus = async () =>
    (
      (await panelFrame(ctx.page).locator('.exec-status').first().textContent({ timeout: 5_000 })) ?? ''
    ).trim();
  const waitForStatus = (status: RegExp, timeoutMs = 120_000) =>
    eventually(
      `the agent ${status.source}`,
      async () => (status.test(await panelStatus()) ? true : undefined),
      {
        timeoutMs,
        lastSeen: panelStatus,
      },
    );
  const sendFromPanel = async (text: string) => {
    const input = panelFrame(ctx.page).locator('#message-input');
    await input.click();
    await input.fill(text);
    await input.press('Enter');
  };
  /** The events the real agent server stored, read as the extension does (the app server names where). */
  const agentEvents = async (conversationId: string): Promise<Record<string, unknown>[]> => {
    const agent = await agentServerOf(conversationId);
    const events: Record<string, unknown>[] = [];
    let pageId: string | undefined;
    do {
      const url = new URL(`${agent.url}/events/search`);
      url.searchParams.set('limit', '100');
      if (pageId) url.searchParams.set('page_id', pageId);
      const response = await fetch(url, { headers: { 'X-Session-API-Key': agent.key } });
      const page = (await response.json()) as {
        items: Record<string, unknown>[];
        next_page_id: string | null;
      };
      events.push(...page.items);
      pageId = page.next_page_id ?? undefined;
    } while (pageId);
    return events;
  };

  /** The confirmation policy the agent server last stored for the conversation. */
  const latestPolicy = async (conversationId: string): Promise<string | undefined> => {
    const update = (await agentEvents(conversationId))
      .filter((e) => e['kind'] === 'ConversationStateUpdateEvent' && e['key'] === 'confirmation_policy')
      .at(-1);
    return (update?.['value'] as { kind?: string } | undefined)?.kind;
  };

  runner.step(
    FOLLOW_UP,
    async () => {
      const frame = panelFrame(ctx.page);
      await sendFromPanel('Run one more command from the panel.');
      const shown = (text: string) => shownInTranscript(text, 120_000);
      await shown('Run one more command from the panel.');
      await shown(SCRIPTED_FOLLOW_UP_COMMAND);
      await shown('scripted-follow-up-was-here');
      await shown(SCRIPTED_FOLLOW_UP_FINISH);
      await waitForStatus(/finished/i);
      if ((await frame.locator('.outbox-entry').count()) !== 0)
        throw new Error('the sent message still shows as pending');
      await ctx.screenshot('steer-follow-up-real');
    },
    { needs: [PANEL] },
  );

  runner.step(
    BROWSE,
    async () => {
      const page = await startTestPage();
      try {
        const frame = panelFrame(ctx.page);
        await sendFromPanel(`${SCRIPTED_BROWSE} Open ${page.url} and look at it.`);
        await shownInTranscript(SCRIPTED_BROWSE_FINISH, 120_000);
        await waitForStatus(/finished/i);
        if (!page.visits.includes('/')) throw new Error('the sandbox’s browser never asked for the page');
        // the host read the observation whole from the agent server, checked it, and sent its bytes
        const shot = frame.locator('.shot-frame img');
        await eventually(
          'the screenshot drawn, 1920 pixels wide',
          async () =>
            (await shot.count()) === 1 &&
            (await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1920))
              ? true
              : undefined,
          { timeoutMs: 30_000, lastSeen: async () => `${await shot.count()} screenshot images` },
        );
        if (!(await shot.getAttribute('src'))?.startsWith('blob:')) throw new Error('not a blob: image');
        // under the made-up model name the SDK leaves the screenshot out of what the model is sent
        const shown = (await scriptedRequests(ctx.llmBaseUrl)).filter(
          (r) => r.model === SCRIPTED_MODEL.replace(/^openai\//, '') && r.images.length > 0,
        );
        if (shown.length > 0) throw new Error(`${shown.length} requests showed scripted-llm an image`);
        await shot.scrollIntoViewIfNeeded();
        await ctx.screenshot('browser-screenshot-real');
      } finally {
        await page.close();
      }
    },
    { needs: [PANEL] },
  );

  runner.step(
    CONFIRM,
    async () => {
      const conversation = startedConversation!;
      const frame = panelFrame(ctx.page);
      await frame.locator('#confirm-mode').check();
      await eventually(
        'AlwaysConfirm on the agent server',
        async () => ((await latestPolicy(conversation.id)) === 'AlwaysConfirm' ? true : undefined),
        { timeoutMs: 20_000 },
      );
      await sendFromPanel('Another command, please.');
      await frame
        .locator('#confirmation .pending-action')
        .first()
        .waitFor({ state: 'visible', timeout: 120_000 });
      await waitForStatus(/waiting/i);
      const pending = (await frame.locator('#confirmation').textContent()) ?? '';
      if (!pending.includes(SCRIPTED_FOLLOW_UP_COMMAND))
        throw new Error(`the approval card says "${pending}"`);
      await ctx.screenshot('steer-approval-real');
      await frame.locator('#reject').click();
      await frame.locator('#reject-reason').fill('not from the real test');
      await frame.locator('#reject-reason').press('Enter');
      await frame.locator('#after-reject').waitFor({ state: 'visible', timeout: 30_000 });
      await frame.getByText('not from the real test').first().waitFor({ state: 'visible', timeout: 30_000 });
      await waitForStatus(/idle/i, 30_000);
      const rejected = (await agentEvents(conversation.id)).filter(
        (e) => e['kind'] === 'UserRejectObservation',
      );
      if (!rejected.some((e) => e['rejection_reason'] === 'not from the real test'))
        throw new Error('the agent server stored no rejection with the reason');
      // the agent stays idle until told
      const before = (await agentEvents(conversation.id)).length;
      await ctx.page.waitForTimeout(3000);
      if (!/idle/i.test(await panelStatus()))
        throw new Error(`after a reject the agent is "${await panelStatus()}"`);
      if ((await agentEvents(conversation.id)).length !== before)
        throw new Error('the agent went on after a reject');
      await ctx.screenshot('steer-rejected-real');
      await frame.locator('#continue-after-reject').click();
      await frame.getByText(SCRIPTED_REJECTED_FINISH).first().waitFor({ state: 'visible', timeout: 120_000 });
      await waitForStatus(/finished/i);
      // the next command waits again, and is approved
      await sendFromPanel('And one more, approved this time.');
      await frame.locator('#approve').waitFor({ state: 'visible', timeout: 120_000 });
      await frame.locator('#approve').click();
      await eventually(
        'the approved command run and the agent finished',
        async () => {
          const events = await agentEvents(conversation.id);
          const last = events
            .filter((e) => e['kind'] === 'ConversationStateUpdateEvent' && e['key'] === 'execution_status')
            .at(-1);
          const observed = events.filter(
            (e) =>
              e['kind'] === 'ObservationEvent' &&
              JSON.stringify(e['observation'] ?? {}).includes('scripted-follow-up-was-here'),
          ).length;
          return last?.['value'] === 'finished' && observed >= 2 ? true : undefined;
        },
        { timeoutMs: 120_000 },
      );
      await waitForStatus(/finished/i);
      // confirmation off again, for the next step
      await frame.locator('#confirm-mode').uncheck();
      await eventually(
        'NeverConfirm on the agent server',
        async () => ((await latestPolicy(conversation.id)) === 'NeverConfirm' ? true : undefined),
        { timeoutMs: 20_000 },
      );
    },
    { needs: [FOLLOW_UP] },
  );

  runner.step(
    NOTIFY,
    async () => {
      const conversation = startedConversation!;
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
      await runCommand(ctx.page, 'View: Close All Editors');
      await runCommand(ctx.page, 'OpenHands: Send Message to Conversation…');
      await answerInputBox(ctx.page, conversation.id);
      await answerInputBox(ctx.page, 'One last command, from the palette.');
      const toast = ctx.page.locator('.notification-toast', { hasText: 'finished' });
      await toast.first().waitFor({ state: 'visible', timeout: 150_000 });
      const text = ((await toast.first().textContent()) ?? '').replace(/\s+/g, ' ');
      if (!text.includes(SCRIPTED_FOLLOW_UP_FINISH)) throw new Error(`the notification says "${text}"`);
      await ctx.screenshot('steer-notification-real');
      await toast.first().locator('.monaco-button', { hasText: 'Open' }).first().click({ timeout: 5_000 });
      await waitForTranscript(ctx.page, 30_000);
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
    },
    { needs: [CONFIRM] },
  );

  runner.step(
    SWITCH,
    async () => {
      const page = ctx.page;
      const conversation = startedConversation!;
      try {
        await runCommand(page, 'View: Close All Editors');
        await runCommand(page, 'OpenHands: Set Up the Model…');
        const form = modelPageFrame(page);
        await form.locator('#profile-name').waitFor({ state: 'visible', timeout: 20_000 });
        const profileRow = (name: string) => form.locator(`li[data-profile="${name}"]`);
        const saveProfile = async (name: string) => {
          await typeIntoField(page, form, 'profile-name', name);
          await form.locator('#profile-save').click();
          await profileRow(name).waitFor({ timeout: 20_000 });
        };
        // the settings as they are (the scripted LLM), then a second model name on it, each a profile
        await saveProfile(FIRST_PROFILE);
        await form.locator('#source-custom').click();
        await typeIntoField(page, form, 'custom-model', SECOND_MODEL);
        await form.locator('#save').click();
        await form
          .locator('#notice', { hasText: `Saved. Ready: conversations use ${SECOND_MODEL}.` })
          .waitFor({ timeout: 30_000 });
        await saveProfile(SECOND_PROFILE);
        // the server's model back to the first: only the panel's picker moves the conversation
        await profileRow(FIRST_PROFILE).locator('.profile-activate').click();
        await form
          .locator('#notice', {
            hasText: `Activated ${FIRST_PROFILE}: conversations now use ${SCRIPTED_MODEL}.`,
          })
          .waitFor({ timeout: 20_000 });
        await ctx.screenshot('model-page-profiles-real');

        const frame = await openLivePanel(conversation.id);
        await frame.locator('#model-picker:not([disabled])').click();
        await quickPickRow(page, SECOND_PROFILE).click();
        await eventually(
          'the header names the second model',
          async () =>
            ((await frame.locator('#model-picker').textContent()) ?? '').includes(SECOND_MODEL)
              ? true
              : undefined,
          { timeoutMs: 20_000 },
        );
        await frame
          .locator('.notice-title', { hasText: `Model switched to ${SECOND_MODEL}` })
          .first()
          .waitFor({ timeout: 20_000 });

        const finishes = async () =>
          (await agentEvents(conversation.id)).filter(
            (e) => (e['action'] as { kind?: string } | undefined)?.kind === 'FinishAction',
          ).length;
        const finishedBefore = await finishes();
        const asked = (await scriptedRequests(ctx.llmBaseUrl)).length;
        await sendFromPanel('One more command, on the second model.');
        await eventually(
          'the run on the second model finished',
          async () => ((await finishes()) > finishedBefore ? true : undefined),
          { timeoutMs: 120_000, intervalMs: 1000 },
        );
        const models = [
          ...new Set((await scriptedRequests(ctx.llmBaseUrl)).slice(asked).map((r) => r.model)),
        ];
        if (JSON.stringify(models) !== JSON.stringify([SECOND_MODEL.replace(/^openai\//, '')]))
          throw new Error(`the run's model calls went to ${JSON.stringify(models)}`);
        await ctx.screenshot('model-switched-real');
      } finally {
        // later runs start conversations: with fewer than two profiles New Conversation asks no model
        for (const name of [SECOND_PROFILE, FIRST_PROFILE])
          await realRequest(ctx.server, 'DELETE', `/api/v1/settings/profiles/${name}`).catch(() => undefined);
      }
    },
    { needs: [PANEL, MODEL] },
  );

  runner.step(
    MCP,
    async () => {
      await runCommand(ctx.page, EDIT_COMMAND_TITLE);
      const form = await waitForForm(ctx.page);
      await waitIdle(form);
      await click(form, 'add-sse');
      await fill(form, 'mcp.sse.0.url', MCP_URL);
      await click(form, 'save');
      // nothing listens there: VS Code's check says so and asks first
      const dialog = await dialogSaying(ctx.page, 'did not answer from VS Code');
      await ctx.screenshot('mcp-form-check-modal');
      await clickDialogButton(dialog, 'Save Anyway');
      await waitIdle(form, 30_000);
      await ctx.screenshot('mcp-form-saved');
      const settings = await get<{ agent_settings?: { mcp_config?: Record<string, { url?: string }> } }>(
        ctx,
        '/api/v1/settings',
      );
      const urls = Object.values(settings.agent_settings?.mcp_config ?? {}).map((s) => s.url);
      if (!urls.includes(MCP_URL)) {
        const outcome = await formFrame(ctx.page).locator('.status').first().textContent();
        throw new Error(
          `the server's MCP servers are ${JSON.stringify(urls)}; the form says "${outcome?.trim() ?? ''}"`,
        );
      }
    },
    { needs: [OPEN] },
  );

  runner.step(
    TOKEN,
    async () => {
      const form = formFrame(ctx.page);
      await waitIdle(form);
      await setSecret(form, 'providers.github.token', 'ghp_rejected_by_the_real_server');
      // a host on loopback (closed port): the server's provider checks never leave the machine
      await fill(form, 'providers.github.host', '127.0.0.1:9');
      await click(form, 'save');
      const message = await eventually(
        "the server's message at the GitHub token",
        async () => {
          const text = await errorText(form, 'providers.github.token');
          return text ? text : undefined;
        },
        {
          timeoutMs: 30_000,
          lastSeen: async () => (await form.locator('.status').first().textContent()) ?? '',
        },
      );
      if (!message.includes('Invalid token. Please make sure it is a valid github token.')) {
        throw new Error(`the token field says "${message}"`);
      }
    },
    { needs: [OPEN] },
  );

  runner.step(
    'MCP & Git Providers: a stdio server set up outside VS Code: the form says its environment cannot be seen',
    async () => {
      // as the web UI would: the server keeps the env, and never shows it again
      const store = (servers: Record<string, unknown>) =>
        realRequest(ctx.server, 'POST', '/api/v1/settings', { agent_settings_diff: { mcp_config: servers } });
      const elsewhere = { command: 'true', args: [], env: { SET_ELSEWHERE: 'value-from-the-web-ui' } };
      await store({ elsewhere });
      try {
        const form = formFrame(ctx.page);
        await waitIdle(form);
        await click(form, 'reload');
        await waitIdle(form);
        // the rejected token of the step before is still an unsaved edit: drop it to see the server's state
        if ((await form.locator('.dirty').count()) > 0) await click(form, 'discard');
        const warning = await eventually(
          'the hidden-environment note on the stdio server',
          async () => {
            const note = form.locator('#env-hidden-0');
            return (await note.count()) === 1 ? ((await note.textContent()) ?? '') : undefined;
          },
          {
            timeoutMs: 20_000,
            lastSeen: async () => (await form.locator('.status').first().textContent()) ?? '',
          },
        );
        if (!warning.includes('cannot') && !warning.includes('does not show'))
          throw new Error(`the note says "${warning}"`);
        await form.locator('#entry-stdio-0').scrollIntoViewIfNeeded();
        await ctx.screenshot('mcp-form-env-hidden');
      } finally {
        // an unreachable MCP server makes every later conversation start fail
        await store({});
      }
    },
    { needs: [OPEN] },
  );

  runner.step(
    CHANGES,
    async () => {
      // the conversation of the steps before, in the sandbox Start made: its earlier files go into the
      // scripted base commit, so the change is exactly the two files of this turn (and no new sandbox
      // to wait for: 20-30 s, more on a busy machine)
      const conversation = startedConversation!;
      const frame = await openLivePanel(conversation.id);
      await sendFromPanel(`${SCRIPTED_CHANGES} Commit a base, edit one file, create another.`);
      await shownInTranscript(SCRIPTED_CHANGES_FINISH, 150_000);
      // the sandbox's folder is on this machine (a process sandbox): the local clone is made from it
      const sandboxDir = (await agentEvents(conversation.id))
        .map(
          (e) =>
            (e['observation'] as { metadata?: { working_dir?: string } } | undefined)?.metadata?.working_dir,
        )
        .find((dir): dir is string => typeof dir === 'string' && dir.startsWith('/'));
      if (!sandboxDir) throw new Error('no terminal observation names the sandbox folder');
      const local = ctx.workspaceFolder;
      const git = (...args: string[]) => execFileSync('git', ['-C', local, ...args], { encoding: 'utf8' });
      /**
       * The page is rebuilt when the panel comes back to the front, and opens the fold as it was once its
       * header has come: only then may the test tell whether a click is still needed.
       */
      const openChangesFold = async () => {
        const summary = frame.locator('.changes summary');
        await summary.waitFor({ state: 'visible', timeout: 30_000 });
        if ((await frame.locator('.changes[open]').count()) === 0) await summary.click();
        await frame.locator('.change-file').first().waitFor({ state: 'visible', timeout: 30_000 });
      };
      git('init', '-q');
      git('fetch', '-q', sandboxDir, 'HEAD');
      git('reset', '-q', '--hard', 'FETCH_HEAD');
      const baseCommit = git('rev-parse', 'HEAD').trim();

      await openChangesFold();
      const listed = await eventually(
        'the panel lists the two changed files',
        async () => {
          const names = (await frame.locator('.change-file').allTextContents()).map((t) =>
            t.replace(/\s+/g, ' ').trim(),
          );
          return names.length === 2 ? names : undefined;
        },
        { timeoutMs: 30_000, lastSeen: async () => (await frame.locator('.changes').textContent()) ?? '' },
      );
      const expected = [`M ${SCRIPTED_CHANGES_EDITED}`, `A ${SCRIPTED_CHANGES_ADDED}`];
      if ([...listed].sort().join('|') !== [...expected].sort().join('|'))
        throw new Error(`the panel lists ${listed.join(', ')}, not exactly ${expected.join(', ')}`);
      await ctx.screenshot('changes-panel-real');

      // each file's diff in the native diff editor
      for (const name of [SCRIPTED_CHANGES_EDITED, SCRIPTED_CHANGES_ADDED]) {
        await openChangesFold();
        await frame.locator('.change-file', { hasText: name }).click();
        // the agent's text on the right, and for the edited file its base on the left (Monaco renders
        // spaces as no-break spaces)
        const lastLine = (text: string) => text.trimEnd().split('\n').pop() ?? '';
        const agentText =
          name === SCRIPTED_CHANGES_EDITED ? SCRIPTED_CHANGES_EDITED_TEXT : SCRIPTED_CHANGES_ADDED_TEXT;
        const diff = ctx.page.locator('.editor-instance .monaco-diff-editor').first();
        await diff.waitFor({ state: 'visible', timeout: 20_000 });
        const sideText = async (side: 'original' | 'modified') =>
          (await diff.locator(`.editor.${side} .view-lines`).first().innerText()).replace(/\u00a0/g, ' ');
        await eventually(
          `${name}'s diff shows the agent's text`,
          async () => {
            const right = await sideText('modified');
            const left = await sideText('original');
            const baseShown =
              name !== SCRIPTED_CHANGES_EDITED || left.includes(lastLine(SCRIPTED_CHANGES_BASE_TEXT));
            return right.includes(lastLine(agentText)) && baseShown ? true : undefined;
          },
          {
            timeoutMs: 20_000,
            lastSeen: async () => `${await sideText('original')} | ${await sideText('modified')}`,
          },
        );
        const tab = ctx.page.locator('.tab.active');
        const label = (await tab.textContent({ timeout: 5_000 })) ?? '';
        if (!label.includes(name)) throw new Error(`the active tab is "${label}", not ${name}'s diff`);
        await ctx.screenshot(`changes-diff-${name.replace(/\W+/g, '-')}-real`);
        await runCommand(ctx.page, 'View: Open Previous Editor');
      }

      // Apply from the panel: the conversation has no repository, so the extension asks first
      await openChangesFold();
      await frame.locator('#changes-apply').click();
      const dialog = ctx.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      await ctx.screenshot('changes-apply-confirm-real');
      await dialog
        .locator('.monaco-button', { hasText: /^Apply to/ })
        .first()
        .click({ timeout: 5_000 });
      await ctx.page
        .locator('.notifications-toasts', { hasText: /Applied 2 files/ })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await ctx.screenshot('changes-applied-real');
      const edited = fs.readFileSync(path.join(local, SCRIPTED_CHANGES_EDITED), 'utf8');
      const added = fs.readFileSync(path.join(local, SCRIPTED_CHANGES_ADDED), 'utf8');
      if (edited !== SCRIPTED_CHANGES_EDITED_TEXT)
        throw new Error(`${SCRIPTED_CHANGES_EDITED} locally: ${JSON.stringify(edited)}`);
      if (added !== SCRIPTED_CHANGES_ADDED_TEXT)
        throw new Error(`${SCRIPTED_CHANGES_ADDED} locally: ${JSON.stringify(added)}`);
      const status = git('status', '--porcelain', '--untracked-files=all').split('\n');
      for (const wanted of [` M ${SCRIPTED_CHANGES_EDITED}`, `?? ${SCRIPTED_CHANGES_ADDED}`])
        if (!status.includes(wanted)) throw new Error(`git status lacks "${wanted}": ${status.join(', ')}`);
      if (git('rev-parse', 'HEAD').trim() !== baseCommit) throw new Error('the local HEAD moved');
    },
    { needs: [CONVERSATION] },
  );

  runner.step(
    HANDOFF,
    async () => {
      const id = started!.id;
      const scratch = fs.mkdtempSync(path.join(path.dirname(ctx.workspaceFolder), 'handoff-origin-'));
      let work: LocalWork | undefined;
      try {
        await withWorkspaceAside(
          ctx.workspaceFolder,
          () => {
            work = makeLocalWork(ctx.workspaceFolder, path.join(scratch, 'origin.git'), HANDOFF_CANARY);
          },
          async () => {
            const local = work!;
            const git = (...args: string[]) =>
              execFileSync('git', ['-C', local.root, ...args], { encoding: 'utf8' });
            const before = new Set((await conversations(ctx)).map((c) => c.id));
            await runCommand(ctx.page, 'View: Close All Editors');
            await runCommand(ctx.page, 'OpenHands: New Conversation…');
            await answerInputBox(ctx.page, HANDOFF_TASK);
            await answerInputBox(ctx.page, ''); // its origin is a folder here: nothing the server can clone
            const name = sandboxRowName(id, (await conversations(ctx)) as unknown as ConversationSummary[]);
            await ctx.page
              .locator('.quick-input-list .monaco-list-row', { hasText: name })
              .first()
              .click({ timeout: 10_000 });
            await quickPickRow(ctx.page, 'Bring my repository').click({ timeout: 15_000 });
            await quickPickRow(ctx.page, local.tickedFile).click({ timeout: 10_000 });
            await ctx.page.locator('.quick-input-widget input.input').press('Enter');
            await ctx.page
              .locator('.notification-toast', { hasText: 'The conversation has started' })
              .first()
              .waitFor({ state: 'visible', timeout: 150_000 });
            const created = await eventually(
              'the new conversation on the server',
              async () => (await conversations(ctx)).find((c) => !before.has(c.id)),
              { timeoutMs: 10_000 },
            );
            // the extension names it by what was asked until the server titles it (and its sandbox by
            // it): the driver learns the same words, so the rows it looks for later are the ones shown
            rememberAsked(created.id, HANDOFF_TASK);
            await runCommand(ctx.page, 'Notifications: Clear All Notifications');
            const frame = await openLivePanel(created.id);
            await shownInTranscript(SCRIPTED_HANDOFF_FINISH, 150_000);

            // the sandbox's own view of what it was given: the listing its first step printed
            const events = await agentEvents(created.id);
            const listing = events
              .map((e) => JSON.stringify(e['observation'] ?? ''))
              .find((text) => text.includes(SCRIPTED_HANDOFF_LISTING));
            if (!listing) throw new Error('no terminal observation holds the listing');
            const output = (JSON.parse(listing) as { content?: { text?: string }[] }).content
              ?.map((part) => part.text ?? '')
              .join('');
            const sandboxView = (output ?? '')
              .split('\n')
              .map((line) => line.trimEnd())
              .filter((line) => /^[0-9a-f]{40} ./.test(line));
            console.log(
              `      the sandbox's view of the handed-over work:\n        ${sandboxView.join('\n        ')}`,
            );
            const here = local.handedPaths.map((file) => `${git('hash-object', '--', file).trim()} ${file}`);
            if (JSON.stringify([...sandboxView].sort()) !== JSON.stringify([...here].sort()))
              throw new Error(
                `the sandbox lists ${JSON.stringify(sandboxView)}, not ${JSON.stringify(here)}; its step printed ${JSON.stringify((output ?? listing).slice(0, 1500))}`,
              );
            if (JSON.stringify(events).includes(HANDOFF_CANARY))
              throw new Error('the .env canary is in an event');

            // the panel's changes are the agent's one edit, not the user's handed-over work
            const summary = frame.locator('.changes summary');
            await summary.waitFor({ state: 'visible', timeout: 30_000 });
            if ((await frame.locator('.changes[open]').count()) === 0) await summary.click();
            const listed = await eventually(
              'the panel lists the agent’s edit only',
              async () => {
                const names = (await frame.locator('.change-file').allTextContents()).map((t) =>
                  t.replace(/\s+/g, ' ').trim(),
                );
                return names.length > 0 ? names : undefined;
              },
              { timeoutMs: 30_000 },
            );
            // a row reads the letter, the file's name, then its folder
            const [folder, file] = [
              path.posix.dirname(SCRIPTED_HANDOFF_EDITED),
              path.posix.basename(SCRIPTED_HANDOFF_EDITED),
            ];
            if (JSON.stringify(listed) !== JSON.stringify([`M ${file} ${folder}`]))
              throw new Error(`the panel lists ${listed.join(', ')}`);
            await ctx.screenshot('handoff-real');

            // Apply: the user's tree is as handed over, so nothing is asked about HEAD
            const untouched = treeOf(local.root);
            const head = git('rev-parse', 'HEAD').trim();
            const staged = git('diff', '--cached');
            await frame.locator('#changes-apply').click();
            const dialog = ctx.page.locator('.monaco-dialog-box');
            const applied = ctx.page.locator('.notifications-toasts', { hasText: /Applied 1 file/ }).first();
            await eventually(
              'the applied notice (or the question which folder)',
              async () => ((await applied.isVisible()) || (await dialog.isVisible()) ? true : undefined),
              { timeoutMs: 60_000 },
            );
            if (await dialog.isVisible()) {
              const asked = ((await dialog.textContent()) ?? '').replace(/\s+/g, ' ');
              if (/HEAD/.test(asked)) throw new Error(`Apply asked about HEAD: ${asked}`);
              await dialog
                .locator('.monaco-button', { hasText: /^Apply to/ })
                .first()
                .click({ timeout: 5_000 });
            }
            await applied.waitFor({ state: 'visible', timeout: 60_000 });
            // a process sandbox: its folder is on this machine, named in the agent's first message
            const workingCopy = /It is in your working copy, (\/[^\n]*?)\.(?:\n|$)/.exec(
              JSON.stringify(events).replace(/\\n/g, '\n'),
            )?.[1];
            if (!workingCopy) throw new Error('no message names the working copy');
            const sandboxFile = fs.readFileSync(path.join(workingCopy, SCRIPTED_HANDOFF_EDITED));
            const mine = fs.readFileSync(path.join(local.root, SCRIPTED_HANDOFF_EDITED));
            if (!mine.equals(sandboxFile))
              throw new Error(`${SCRIPTED_HANDOFF_EDITED} differs from the sandbox's`);
            if (!mine.toString('utf8').includes(SCRIPTED_HANDOFF_NEW))
              throw new Error('the agent’s line is not here');
            const after = treeOf(local.root);
            for (const [file, bytes] of untouched)
              if (file !== SCRIPTED_HANDOFF_EDITED && after.get(file) !== bytes)
                throw new Error(`${file} changed`);
            if (after.size !== untouched.size) throw new Error('Apply added or removed files');
            if (git('rev-parse', 'HEAD').trim() !== head) throw new Error('the local HEAD moved');
            if (git('diff', '--cached') !== staged) throw new Error('the staged edit changed');
            console.log(
              `      round trip: ${SCRIPTED_HANDOFF_EDITED} here equals the sandbox's, byte for byte (${mine.length} bytes); nothing else changed`,
            );
          },
        );
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    { needs: [START, MODEL] },
  );

  runner.step(
    DELETE,
    async () => {
      await runCommand(ctx.page, 'View: Close All Editors');
      const id = started!.id;
      await openOpenHandsView(ctx.page);
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      await chooseFromRowMenu(ctx.page, await sandboxRowOf(ctx, pane, id), 'Delete Sandbox');
      const dialog = ctx.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.screenshot('delete-sandbox-confirm');
      await dialog
        .locator('.monaco-button', { hasText: /^Delete/ })
        .first()
        .click({ timeout: 5_000 });
      await eventually(
        'the sandbox gone from the server',
        async () => ((await sandboxStatus(ctx, id)) === undefined ? true : undefined),
        { timeoutMs: 30_000 },
      );
      await eventually(
        'its row gone from the tree',
        async () => ((await rowLabels(pane)).some((l) => l.includes(id)) ? undefined : true),
        { timeoutMs: 20_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') },
      );
    },
    { needs: [START] },
  );
}
