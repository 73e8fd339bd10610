// How long the conversation panel takes to open, against an empty webview opened the same way in
// the same VS Code (code-server 1.100.3, the production build), as ratios taken in the same window:
// from the command to the newest event's row painted, and to the oldest's, scrolled to the top.
// `npm run bench -- panel-open` (or `npx tsx bench/workbench/panelOpen/index.ts`) runs it alone.
// The test server holds one conversation of each length, generated (bulkEvents.ts); the probe
// (probe.ts) opens them in fresh extension hosts; this watches the page and prints the medians.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { bundleForExtensionHost } from '../../../scripts/vscode/build';
import { Cleanup } from '../../../scripts/vscode/cleanup';
import { ROOT } from '../../../scripts/vscode/paths';
import { OPENING_MARK_PREFIX } from '../../../src/common/openingMarks';
import { OpenHandsClient } from '../../../src/api';
import { startServerProcess } from '../../serverProcess';
import type { AgentEvent } from '../../../test/server/agentServer/events';
import { openBenchWindow } from '../benchWindow';
import { stageProductionBuild } from '../stage';
import { pageTimings, waitForPaint } from './pagePaint';
import {
  CONVERSATIONS_ENV,
  EMPTY_MARKER_ID,
  errorFile,
  hostFile,
  openedFile,
  seenFile,
  STEPS_DIR_ENV,
  windowSteps,
  type HostMarks,
  type Opened,
  type Seen,
} from './steps';

const PROBE_OUT = path.join(ROOT, 'out', 'bench', 'workbench', 'panelOpenProbe.js');
const STEPS_DIR = path.join(ROOT, 'out', 'bench', 'workbench', 'panelOpen');
const STEP_TIMEOUT_MS = 90_000;
const LENGTHS = [10_000, 1_000];

/** One step as measured: what the probe opened, what the driver saw, what the host marked. */
interface Measured {
  opened: Opened;
  seen: Seen;
  host: HostMarks;
}

async function waitForFile(file: string, abortReason: () => string | undefined): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!fs.existsSync(file)) {
    if (fs.existsSync(errorFile(STEPS_DIR)))
      throw new Error(`the probe failed: ${fs.readFileSync(errorFile(STEPS_DIR), 'utf8')}`);
    const reason = abortReason();
    if (reason) throw new Error(reason);
    if (Date.now() > deadline)
      throw new Error(`no ${path.basename(file)} within ${STEP_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

/** The row an event shows in: an observation's is its action's. */
function rowIdOf(event: AgentEvent | undefined): string {
  const actionId = event?.['action_id'];
  return event?.kind === 'ObservationEvent' && typeof actionId === 'string' ? actionId : (event?.id ?? '');
}

/** Watches one opened step paint, as the probe said it opened it. */
async function watch(page: Page, opened: Opened, rows: Map<string, { newest: string; oldest: string }>) {
  if (opened.kind === 'empty') {
    const { at, frame } = await waitForPaint(page, `#${EMPTY_MARKER_ID}`, STEP_TIMEOUT_MS);
    return { paintedAt: at, page: await pageTimings(frame, OPENING_MARK_PREFIX) };
  }
  const ids = rows.get(opened.conversationId ?? '');
  if (!ids) throw new Error(`the probe opened a conversation the bench did not seed`);
  const newest = await waitForPaint(page, `[data-row-id="${ids.newest}"]`, STEP_TIMEOUT_MS);
  const oldest = await waitForPaint(page, `[data-row-id="${ids.oldest}"]`, STEP_TIMEOUT_MS, {
    frame: newest.frame,
    top: true,
    // as a reader holding Home: a frame's scroll each poll would slow the page it measures
    pollMs: 50,
  });
  const timings = await pageTimings(newest.frame, OPENING_MARK_PREFIX);
  return { paintedAt: newest.at, oldestAt: oldest.at, page: timings };
}

/**
 * The test server in its own process (as a server is: this one polls the browser), one conversation
 * of each length seeded in a running sandbox; returns its url and the logs seeded, by conversation.
 */
async function seededServer(cleanup: Cleanup): Promise<{ url: string; logs: Map<string, AgentEvent[]> }> {
  const server = await startServerProcess([
    ...['--sandboxes', '3', '--conversations', '6', '--random-seed', '3', '--agent-step-ms', '0'],
  ]);
  cleanup.add('test server', () => void server.process.kill());
  const control = async <T>(route: string, body?: unknown): Promise<T> => {
    const reply = await fetch(`${server.url}/__control/agent/${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    if (!reply.ok) throw new Error(`the test server answered ${reply.status} to ${route}`);
    return (await reply.json()) as T;
  };
  const sandboxes = await new OpenHandsClient({ baseUrl: server.url }).searchSandboxes({ limit: 10 });
  const running = new Set(sandboxes.items.filter((s) => s.status === 'RUNNING').map((s) => s.id));
  const conversations = (await control<{ id: string; sandbox_id: string }[]>('conversations')).filter((c) =>
    running.has(c.sandbox_id),
  );
  if (conversations.length < LENGTHS.length)
    throw new Error('the bench seed has too few conversations running');
  const logs = new Map<string, AgentEvent[]>();
  for (const [index, events] of LENGTHS.entries()) {
    const id = conversations[index]?.id ?? '';
    await control(`conversations/${id}/seed`, { count: events });
    logs.set(id, await control<AgentEvent[]>(`conversations/${id}/events`));
  }
  return { url: server.url, logs };
}

async function windows(extensionFolder: string, runs: number): Promise<Measured[][]> {
  const cleanup = new Cleanup();
  try {
    const server = await seededServer(cleanup);
    const rows = new Map<string, { newest: string; oldest: string }>();
    for (const [id, log] of server.logs)
      rows.set(id, { newest: rowIdOf(log[log.length - 1]), oldest: rowIdOf(log[0]) });
    const seeded = [...server.logs].map(([id, log]) => `${log.length}=${id}`);
    const { codeServer, browser, url } = await openBenchWindow(cleanup, {
      name: 'bench-panel-open',
      logName: 'panel-open-code-server.log',
      serverUrl: server.url,
      env: { [STEPS_DIR_ENV]: STEPS_DIR, [CONVERSATIONS_ENV]: seeded.join(',') },
      extensionFolder,
      probe: PROBE_OUT,
    });
    const all: Measured[][] = [];
    for (let run = 0; run < runs; run++) {
      fs.rmSync(STEPS_DIR, { recursive: true, force: true });
      fs.mkdirSync(STEPS_DIR, { recursive: true });
      // a fresh browser profile each run: no panel of the last run comes back
      const context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      const measured: Measured[] = [];
      for (const index of windowSteps(LENGTHS).keys()) {
        await waitForFile(openedFile(STEPS_DIR, index), () => codeServer.exitReason());
        const opened = readJson<Opened>(openedFile(STEPS_DIR, index));
        const seen = await watch(page, opened, rows);
        fs.writeFileSync(seenFile(STEPS_DIR, index), JSON.stringify(seen));
        await waitForFile(hostFile(STEPS_DIR, index), () => codeServer.exitReason());
        measured.push({ opened, seen, host: readJson<HostMarks>(hostFile(STEPS_DIR, index)) });
      }
      all.push(measured);
      await context.close();
    }
    return all;
  } finally {
    await cleanup.runAll();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function range(values: readonly number[], unit: string, digits: number): string {
  const text = (value: number) => value.toFixed(digits);
  return `${text(median(values))}${unit} (${text(Math.min(...values))}–${text(Math.max(...values))})`;
}

/** Where an opening's time went: each mark after the command, median over the windows (ms). */
function breakdown(panels: readonly Measured[]): string[] {
  const names = new Set<string>();
  for (const { host, seen } of panels)
    for (const name of [...Object.keys(host), ...Object.keys(seen.page ?? {})]) names.add(name);
  const steps = [...names].map((name) => {
    const after = panels.flatMap(({ opened, host, seen }) => {
      const at = host[name] ?? seen.page?.[name];
      return at === undefined ? [] : [at - opened.openedAt];
    });
    const where = panels.some(({ host }) => name in host) ? 'host' : 'page';
    return { name, where, ms: median(after) };
  });
  const since = (at: (panel: Measured) => number | undefined) =>
    median(panels.map((panel) => (at(panel) ?? NaN) - panel.opened.openedAt));
  steps.push(
    { name: 'newest row painted', where: 'seen', ms: since((panel) => panel.seen.paintedAt) },
    { name: 'oldest row painted (scrolled to the top)', where: 'seen', ms: since((p) => p.seen.oldestAt) },
  );
  steps.sort((a, b) => a.ms - b.ms);
  return steps.map(
    ({ name, where, ms }) => `      ${ms.toFixed(0).padStart(6)} ms  ${where.padEnd(4)} ${name}`,
  );
}

const openingMs = (step: Measured) => step.seen.paintedAt - step.opened.openedAt;
/** VS Code's part of a webview's start: its frame's navigation to the page's HTML received. */
const htmlMs = (step: Measured) =>
  (step.seen.page?.['htmlLoaded'] ?? NaN) - (step.seen.page?.['navigationStart'] ?? NaN);

/** Each window's empty webview just before the panel of `events`, and that panel. */
function pairsOf(all: readonly Measured[][], events: number): { empty: Measured; panel: Measured }[] {
  return all.flatMap((steps) => {
    const at = steps.findIndex((step) => step.opened.kind === 'panel' && step.opened.events === events);
    const empty = steps[at - 1];
    const panel = steps[at];
    return empty && panel ? [{ empty, panel }] : [];
  });
}

export async function panelOpenReport(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<string[]> {
  const staged = stageProductionBuild();
  await bundleForExtensionHost(path.join(__dirname, 'probe.ts'), PROBE_OUT);
  const all = await windows(staged.folder, runs);
  const warmUps = all.flatMap((steps) => steps.slice(0, 1));
  const empties = all.flatMap((steps) => steps.filter((step) => step.opened.kind === 'empty').slice(1));
  const lines = [
    `Opening a conversation's panel in VS Code 1.100.3 (code-server), the production build, ${runs} fresh windows`,
    `(npm run bench -- panel-open; test server in its own process; times from the command, polled, ms):`,
    `  the window's first webview, an empty one (a warm-up)  ${range(warmUps.map(openingMs), ' ms', 0)}`,
    `    of which VS Code's frame, navigation → HTML received ${range(warmUps.map(htmlMs), ' ms', 0)};` +
      ` in every later webview ${range(empties.map(htmlMs), ' ms', 0)}`,
  ];
  for (const events of LENGTHS) {
    const pairs = pairsOf(all, events);
    const floors = pairs.map(({ empty }) => openingMs(empty));
    const newest = pairs.map(({ panel }) => openingMs(panel));
    const oldest = pairs.map(({ panel }) => (panel.seen.oldestAt ?? NaN) - panel.opened.openedAt);
    const ratios = (values: number[]) =>
      range(
        values.map((ms, i) => ms / (floors[i] ?? NaN)),
        '×',
        2,
      );
    lines.push(
      `  ${events.toLocaleString('en')} events:`,
      `    empty webview (createWebviewPanel → its paragraph painted)  ${range(floors, ' ms', 0)}`,
      `    newest event's row painted                                 ${range(newest, ' ms', 0)}   ratio ${ratios(newest)}`,
      `    oldest event's row painted, scrolled to the top            ${range(oldest, ' ms', 0)}   ratio ${ratios(oldest)}`,
      `    where the time goes (median ms after the command; host: extension host, page: the webview):`,
      ...breakdown(pairs.map(({ panel }) => panel)),
    );
  }
  return lines;
}

if (require.main === module) {
  void panelOpenReport().then(
    (lines) => console.log(lines.join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
