// The OpenHands sidebar against the seeded test server: lists, statuses and the pause/resume round trip.
import type { E2EContext } from './context';
import { chooseFromRowMenu, openOpenHandsView, rowContaining, rowLabels, viewPane } from './openhands-view';
import type { StepRunner } from './runner';
import {
  CONVERSATIONS_VIEW,
  PANE_HEADER,
  PAUSE_SANDBOX,
  RESUME_SANDBOX,
  SANDBOXES_VIEW,
  SPECS_VIEW,
} from './selectors';
import {
  listConversations,
  listSandboxes,
  listSpecIds,
  mentions,
  sandboxStatus,
  shortSandboxId,
} from './server-api';
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

/** Conversations visible without scrolling that must be found (the list is virtualised). */
const MIN_CONVERSATIONS_SHOWN = 5;

export function openHandsViewSteps(runner: StepRunner, ctx: E2EContext): void {
  /** The sandbox the pause step paused, for the resume step. */
  let pausedSandboxId: string | undefined;

  runner.step(OPEN_VIEW, () => openOpenHandsView(ctx.page), { needs: [OPEN_WORKBENCH] });

  runner.step(
    'Sandboxes view lists the seeded sandboxes with their statuses',
    async () => {
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const sandboxes = await listSandboxes(ctx.serverUrl);
      if (sandboxes.length === 0) throw new Error('the test server has no seeded sandboxes');
      await eventually(
        `a row with id and status for each of ${sandboxes.length} sandboxes`,
        async () => {
          const labels = await rowLabels(pane);
          const missing = sandboxes.filter(
            (s) => !labels.some((l) => l.includes(shortSandboxId(s.id)) && mentions(l, s.status)),
          );
          return missing.length === 0 ? true : undefined;
        },
        { timeoutMs: 15_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') || 'no rows' },
      );
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
      // the walkthrough's "connect" picture: the activity bar and the view, connected
      const sidebar = await ctx.page.locator('.part.sidebar').boundingBox();
      if (!sidebar) throw new Error('no sidebar on screen');
      await captureWalkthroughMedia(ctx.page, 'connect', {
        x: 0,
        y: sidebar.y,
        width: sidebar.x + sidebar.width,
        height: Math.min(sidebar.height, 560),
      });
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    PAUSE,
    async () => {
      // one with no agent at work: pausing that one asks nothing (the next steps cover the question)
      const working = await workingSandboxIds(ctx.serverUrl);
      const running = (await listSandboxes(ctx.serverUrl)).find(
        (s) => s.status === 'RUNNING' && !working.has(s.id),
      );
      if (!running) throw new Error('the seed has no RUNNING sandbox without working agents to pause');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = rowContaining(pane, shortSandboxId(running.id));
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
      pausedSandboxId = running.id;
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'resume the paused sandbox: RUNNING again',
    async () => {
      if (!pausedSandboxId) throw new Error('no sandbox was paused');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = rowContaining(pane, shortSandboxId(pausedSandboxId));
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
      const status = await sandboxStatus(ctx.serverUrl, pausedSandboxId);
      if (status !== 'RUNNING') throw new Error(`the server reports ${status ?? 'no sandbox'}, not RUNNING`);
    },
    { needs: [PAUSE] },
  );

  runner.step(
    'delete asks first and names every conversation the sandbox hosts; Cancel keeps it',
    async () => {
      const conversations = await listConversations(ctx.serverUrl);
      const [host] = (await listSandboxes(ctx.serverUrl))
        .map((sandbox) => ({ sandbox, hosted: conversations.filter((c) => c.sandbox_id === sandbox.id) }))
        .sort((a, b) => b.hosted.length - a.hosted.length);
      if (!host || host.hosted.length === 0) throw new Error('the seed has no sandbox hosting conversations');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      await chooseFromRowMenu(
        ctx.page,
        rowContaining(pane, shortSandboxId(host.sandbox.id)),
        'Delete Sandbox',
      );
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
    'Sandbox Specs view (collapsed at first) lists the server specs, the first as default',
    async () => {
      const specIds = await listSpecIds(ctx.serverUrl);
      if (specIds.length === 0) throw new Error('the test server lists no specs');
      const pane = await viewPane(ctx.page, SPECS_VIEW);
      const rows = await eventually(
        `a row for each of ${specIds.length} specs`,
        async () => {
          const labels = await rowLabels(pane);
          const shown = specIds.every((id) => labels.some((l) => l.includes(id.split('/').at(-1) ?? id)));
          return shown ? labels : undefined;
        },
        { timeoutMs: 10_000, lastSeen: async () => (await rowLabels(pane)).join(' | ') || 'no rows' },
      );
      if (!mentions(rows[0] ?? '', 'default'))
        throw new Error(`the first spec is not marked default: ${rows[0]}`);
      await ctx.screenshot('sandbox-specs-view');
      await pane.locator(PANE_HEADER).first().click(); // collapse again: later steps need the room
    },
    { needs: [OPEN_VIEW] },
  );

  runner.step(
    'pause asks first when agents are working in the sandbox; Cancel keeps it running',
    async () => {
      const working = await workingSandboxIds(ctx.serverUrl);
      const busy = (await listSandboxes(ctx.serverUrl)).find(
        (s) => s.status === 'RUNNING' && working.has(s.id),
      );
      if (!busy) throw new Error('the seed has no RUNNING sandbox with a working agent');
      const pane = await viewPane(ctx.page, SANDBOXES_VIEW);
      const row = rowContaining(pane, shortSandboxId(busy.id));
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
