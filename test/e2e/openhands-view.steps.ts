// The OpenHands sidebar against the seeded test server: lists, statuses and the pause/resume round trip.
import type { E2EContext } from './context';
import { chooseFromRowMenu, openOpenHandsView, rowLabels, sandboxRow, viewPane } from './openhands-view';
import { runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW, PAUSE_SANDBOX, RESUME_SANDBOX, SANDBOXES_VIEW } from './selectors';
import {
  listConversations,
  listSandboxes,
  listSpecIds,
  mentions,
  sandboxRowName,
  sandboxStatus,
  shortSandboxId,
  type SandboxSummary,
} from './server-api';
import { DEFAULT_SIDEBAR_WIDTH, setSidebarWidth, widenSidebar } from '../../scripts/vscode/workbench';
import { OPEN_WORKBENCH } from './workbench.steps';
import { eventually } from './wait';
import { captureWalkthroughMedia } from './walkthroughMedia';

export const OPEN_VIEW = 'open the OpenHands view from the activity bar';
const PAUSE = 'pause a running sandbox: "Pausing…" then PAUSED';
/** Sandboxes hosting a conversation whose agent is working (execution status `running`). */
async function workingSandboxIds(serverUrl: string): Promise<Set<string>> {
  const conversations = await listConversations(serverUrl);
  return new Set(conversations.filter((c) => c.execution_status === 'running').map((c) => c.sandbox_id));
}

/** Each sandbox with the name its row shows; only the sandboxes whose name no other one shares. */
async function namedSandboxes(serverUrl: string): Promise<{ sandbox: SandboxSummary; name: string }[]> {
  const conversations = await listConversations(serverUrl);
  const named = (await listSandboxes(serverUrl)).map((sandbox) => ({
    sandbox,
    name: sandboxRowName(sandbox.id, conversations),
  }));
  return named.filter(({ name }) => named.filter((other) => other.name === name).length === 1);
}

/** Conversations visible without scrolling that must be found (the list is virtualised). */
const MIN_CONVERSATIONS_SHOWN = 5;

export function openHandsViewSteps(runner: StepRunner, ctx: E2EContext): void {
  /** The sandbox the pause step paused, for the resume step. */
  let pausedSandbox: { id: string; name: string } | undefined;

  runner.step(OPEN_VIEW, () => openOpenHandsView(ctx.page), { needs: [OPEN_WORKBENCH] });

  runner.step(
    'Sandboxes view names each seeded sandbox by what runs in it, with its status and image, no id',
    async () => {
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const sandboxes = await listSandboxes(ctx.serverUrl);
      if (sandboxes.length === 0) throw new Error('the test server has no seeded sandboxes');
      const conversations = await listConversations(ctx.serverUrl);
      const specs = await listSpecIds(ctx.serverUrl);
      await eventually(
        `a row with name and status for each of ${sandboxes.length} sandboxes`,
        async () => {
          const labels = await rowLabels(pane);
          const missing = sandboxes.filter(
            (s) =>
              !labels.some(
                (l) =>
                  l.startsWith(`Sandbox ${sandboxRowName(s.id, conversations)}, `) && mentions(l, s.status),
              ),
          );
          return missing.length === 0 ? true : undefined;
        },
        { timeoutMs: 15_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') || 'no rows' },
      );
      const labels = (await rowLabels(pane)).filter((l) => l.startsWith('Sandbox '));
      for (const label of labels) {
        if (sandboxes.some((s) => label.includes(shortSandboxId(s.id).slice(0, 8))))
          throw new Error(`a sandbox row shows its id: ${label}`);
        if (
          specs.some((spec) => label.includes(spec)) ||
          !specs.some((spec) => label.includes(spec.split('/').at(-1) ?? spec))
        )
          throw new Error(`a sandbox row does not show its image short: ${label}`);
      }
      await ctx.screenshot('sandboxes-named');
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'Conversations view lists the seeded conversations with their statuses',
    async () => {
      const pane = await viewPane(ctx.page, CONVERSATIONS_VIEW);
      const conversations = await listConversations(ctx.serverUrl);
      if (conversations.length === 0) throw new Error('the test server has no seeded conversations');
      const wanted = Math.min(MIN_CONVERSATIONS_SHOWN, conversations.length);
      await eventually(
        `rows with title and status for at least ${wanted} seeded conversations`,
        async () => {
          const labels = await rowLabels(pane);
          const shown = conversations.filter((c) =>
            labels.some(
              (l) =>
                mentions(l, c.title ?? c.id.slice(0, 5)) &&
                [c.execution_status, c.sandbox_status].some((status) => status && mentions(l, status)),
            ),
          );
          return shown.length >= wanted ? true : undefined;
        },
        { timeoutMs: 15_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') || 'no rows' },
      );
      // the walkthrough's "connect" picture: the activity bar and the view, connected (its first rows)
      const sidebar = await ctx.page.locator('.part.sidebar').boundingBox();
      if (!sidebar) throw new Error('no sidebar on screen');
      await captureWalkthroughMedia(ctx.page, 'connect', {
        x: 0,
        y: sidebar.y,
        width: sidebar.x + sidebar.width,
        height: Math.min(sidebar.height, 170),
      });
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    "the server's name reads whole in both views' headers at the default sidebar width, actions showing",
    async () => {
      await setSidebarWidth(ctx.page, DEFAULT_SIDEBAR_WIDTH);
      try {
        for (const title of [CONVERSATIONS_VIEW, SANDBOXES_VIEW]) {
          const pane = await viewPane(ctx.page, title);
          const description = pane.locator('.pane-header .description').first();
          const measure = () =>
            description.evaluate((element) => ({
              text: element.textContent ?? '',
              scrollWidth: element.scrollWidth,
              clientWidth: element.clientWidth,
            }));
          await eventually(`the ${title} header's description`, async () =>
            (await measure()).text ? true : undefined,
          );
          // hovered (or focused), a pane shows its title actions, which leave the description least room
          await pane.locator('.pane-header').hover();
          await ctx.screenshot(`server-name-${title.toLowerCase()}-default-width`);
          await eventually(
            `the ${title} header's description, whole`,
            async () => {
              const shown = await measure();
              return shown.scrollWidth <= shown.clientWidth ? shown : undefined;
            },
            { timeoutMs: 5_000, lastSeen: async () => JSON.stringify(await measure()) },
          );
        }
      } finally {
        await widenSidebar(ctx.page);
      }
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    PAUSE,
    async () => {
      // one with no agent at work: pausing that one asks nothing (the next steps cover the question)
      const working = await workingSandboxIds(ctx.serverUrl);
      const { sandbox: running, name } =
        (await namedSandboxes(ctx.serverUrl)).find(
          ({ sandbox: s }) => s.status === 'RUNNING' && !working.has(s.id),
        ) ?? {};
      if (!running || !name)
        throw new Error('the seed has no RUNNING sandbox without working agents to pause');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = sandboxRow(pane, name);
      await row.hover({ timeout: 10_000 });
      await row.locator(PAUSE_SANDBOX).click({ timeout: 5_000 });
      const label = async () => (await row.getAttribute('aria-label')) ?? '';
      await eventually(
        '"Pausing…" on the row',
        async () => (mentions(await label(), 'Pausing') ? true : undefined),
        {
          timeoutMs: 5_000,
          lastSeen: label,
        },
      );
      await ctx.screenshot('sandbox-pausing');
      await eventually(
        'PAUSED on the row',
        async () => (mentions(await label(), 'PAUSED') ? true : undefined),
        {
          timeoutMs: 15_000,
          lastSeen: label,
        },
      );
      const status = await sandboxStatus(ctx.serverUrl, running.id);
      if (status !== 'PAUSED') throw new Error(`the server reports ${status ?? 'no sandbox'}, not PAUSED`);
      pausedSandbox = { id: running.id, name };
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'resume the paused sandbox: RUNNING again',
    async () => {
      if (!pausedSandbox) throw new Error('no sandbox was paused');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = sandboxRow(pane, pausedSandbox.name);
      await row.hover({ timeout: 10_000 });
      await row.locator(RESUME_SANDBOX).click({ timeout: 5_000 });
      const label = async () => (await row.getAttribute('aria-label')) ?? '';
      await eventually(
        'RUNNING on the row',
        async () => (mentions(await label(), 'RUNNING') ? true : undefined),
        {
          timeoutMs: 15_000,
          lastSeen: label,
        },
      );
      const status = await sandboxStatus(ctx.serverUrl, pausedSandbox.id);
      if (status !== 'RUNNING') throw new Error(`the server reports ${status ?? 'no sandbox'}, not RUNNING`);
    },
    { needs: [PAUSE] },
  );

  runner.step(
    'delete asks first and names every conversation the sandbox hosts; Cancel keeps it',
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const [host] = (await namedSandboxes(ctx.serverUrl))
        .map(({ sandbox, name }) => ({
          sandbox,
          name,
          hosted: conversations.filter((c) => c.sandbox_id === sandbox.id),
        }))
        .sort((a, b) => b.hosted.length - a.hosted.length);
      if (!host || host.hosted.length === 0) throw new Error('the seed has no sandbox hosting conversations');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      await chooseFromRowMenu(ctx.page, sandboxRow(pane, host.name), 'Delete Sandbox');
      const dialog = ctx.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 10_000 });
      const text = await dialog.innerText();
      const expected = `It hosts ${host.hosted.length} conversation(s)`;
      if (!text.includes(expected)) throw new Error(`the dialog says "${text}", not "${expected}…"`);
      const firstTitle = host.hosted[0]?.title;
      if (firstTitle && !text.includes(firstTitle))
        throw new Error(`the dialog does not name "${firstTitle}"`);
      await ctx.screenshot('delete-sandbox-confirm');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 5_000 });
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
      const status = await sandboxStatus(ctx.serverUrl, host.sandbox.id);
      if (status === undefined) throw new Error('Cancel deleted the sandbox');
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'Start Sandbox… offers the server images by short name, the first as default, the full id below',
    async () => {
      const specIds = await listSpecIds(ctx.serverUrl);
      if (specIds.length < 2) throw new Error('the test server lists fewer than two specs');
      await runCommand(ctx.page, 'OpenHands: Start Sandbox');
      const rows = ctx.page.locator('.quick-input-widget .monaco-list-row');
      const texts = await eventually(
        `an item for each of ${specIds.length} images`,
        async () => {
          const all = await rows.evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText));
          return all.length === specIds.length ? all : undefined;
        },
        { timeoutMs: 10_000, lastSeen: async () => (await rows.allInnerTexts()).join(' | ') || 'no items' },
      );
      for (const [index, id] of specIds.entries()) {
        const text = texts[index] ?? '';
        const short = id.split('/').at(-1) ?? id;
        if (!text.startsWith(short) || !text.includes(id))
          throw new Error(`item ${index} reads "${text}", not ${short} with ${id} below`);
      }
      if (!mentions(texts[0] ?? '', 'default'))
        throw new Error(`the first image is not marked default: ${texts[0]}`);
      await ctx.screenshot('start-sandbox-images');
      await ctx.page.keyboard.press('Escape');
      await ctx.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 });
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'pause asks first when agents are working in the sandbox; Cancel keeps it running',
    async () => {
      const working = await workingSandboxIds(ctx.serverUrl);
      const { sandbox: busy, name } =
        (await namedSandboxes(ctx.serverUrl)).find(
          ({ sandbox: s }) => s.status === 'RUNNING' && working.has(s.id),
        ) ?? {};
      if (!busy || !name) throw new Error('the seed has no RUNNING sandbox with a working agent');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = sandboxRow(pane, name);
      await row.hover({ timeout: 10_000 });
      await row.locator(PAUSE_SANDBOX).click({ timeout: 5_000 });
      const dialog = ctx.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 10_000 });
      const text = await dialog.innerText();
      if (
        !/while its agents are working/.test(text) ||
        !/Their agents stop until the sandbox is resumed/.test(text)
      ) {
        throw new Error(`the dialog says "${text}"`);
      }
      await ctx.screenshot('pause-working-agents-confirm');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 5_000 });
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
      const status = await sandboxStatus(ctx.serverUrl, busy.id);
      if (status !== 'RUNNING') throw new Error(`Cancel left the sandbox ${status ?? 'gone'}, not RUNNING`);
    },
    { needs: [OPEN_VIEW] },
  );
}
