// How long the conversation panel takes to open, against an empty webview opened the same way in
// the same VS Code (code-server 1.100.3, the production build), as ratios taken in the same window:
// from the command to the newest event's row painted, and to the oldest's, scrolled to the top.
// `npm run bench -- panel-open` (or `npx tsx bench/workbench/panelOpen/index.ts`) runs it alone.
// The test server holds one conversation of each length, generated (bulkEvents.ts); the probe
// (probe.ts) opens them in fresh extension hosts; this watches the page and prints the medians.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../../scripts/vscode/browser';
import { bundleForExtensionHost } from '../../../scripts/vscode/build';
import { Cleanup } from '../../../scripts/vscode/cleanup';
import { startCodeServer } from '../../../scripts/vscode/code-server';
import { ARTIFACTS_DIR, ROOT, RUNS_DIR } from '../../../scripts/vscode/paths';
import { workbenchUrl } from '../../../scripts/vscode/workbench-url';
import { OPENING_MARK_PREFIX, OPENING_STEPS } from '../../../src/common/openingMarks';
import { startTestServer } from '../../../test/server';
import type { AgentEvent } from '../../../test/server/agentServer/events';
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
    if (Date.now() > deadline) throw new Error(`no ${path.basename(file)} within ${STEP_TIMEOUT_MS / 1000} s`);
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
  });
  const timings = await pageTimings(newest.frame, OPENING_MARK_PREFIX);
  return { paintedAt: newest.at, oldestAt: oldest.at, page: timings };
}

async function windows(extensionFolder: string, runs: number): Promise<Measured[][]> {
  const cleanup = new Cleanup();
  try {
    const server = await startTestServer({
      host: '127.0.0.1',
      seed: { sandboxes: 3, conversations: 6, seed: 3 },
      timings: { agentStepMs: 0 },
    });
    cleanup.add('test server', () => server.close());
    const running = server.agent
      .conversations()
      .filter((c) => server.state.sandboxes.find((s) => s.id === c.sandbox_id)?.status === 'RUNNING');
    if (running.length < LENGTHS.length) throw new Error('the bench seed has too few conversations running');
    const rows = new Map<string, { newest: string; oldest: string }>();
    const seeded = LENGTHS.map((events, index) => {
      const id = running[index]?.id ?? '';
      server.agent.seedEvents(id, events);
      const log = server.agent.events(id);
      rows.set(id, { newest: rowIdOf(log[log.length - 1]), oldest: rowIdOf(log[0]) });
      return `${events}=${id}`;
    });
    const codeServer = await startCodeServer({
      runDir: path.join(RUNS_DIR, 'bench-panel-open'),
      logFile: path.join(ARTIFACTS_DIR, 'bench', 'panel-open-code-server.log'),
      settings: { 'openhands.serverUrl': server.url },
      env: { [STEPS_DIR_ENV]: STEPS_DIR, [CONVERSATIONS_ENV]: seeded.join(',') },
    });
    cleanup.add('code-server', () => codeServer.stop());
    const browser = await launchBrowser();
    cleanup.add('chromium', () => browser.close());
    const url = workbenchUrl({
      baseUrl: codeServer.url,
      folder: codeServer.workspaceFolder,
      extensionDevelopmentPath: extensionFolder,
      extensionTestsPath: PROBE_OUT,
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
  for (const { host, seen } of panels) for (const name of [...Object.keys(host), ...Object.keys(seen.page ?? {})]) names.add(name);
  const steps = [...names].map((name) => {
    const after = panels.flatMap(({ opened, host, seen }) => {
      const at = host[name] ?? seen.page?.[name];
      return at === undefined ? [] : [at - opened.openedAt];
    });
    const where = (OPENING_STEPS as readonly string[]).includes(name)
      ? OPENING_STEPS.indexOf(name as (typeof OPENING_STEPS)[number]) < OPENING_STEPS.indexOf('pageScript')
        ? 'host'
        : 'page'
      : 'page';
    return { name, where, ms: median(after) };
  });
  steps.push(
    { name: 'newest row painted', where: 'seen', ms: median(panels.map((p) => p.seen.paintedAt - p.opened.openedAt)) },
    {
      name: 'oldest row painted (scrolled to the top)',
      where: 'seen',
      ms: median(panels.map((p) => (p.seen.oldestAt ?? NaN) - p.opened.openedAt)),
    },
  );
  steps.sort((a, b) => a.ms - b.ms);
  return steps.map(({ name, where, ms }) => `      ${ms.toFixed(0).padStart(6)} ms  ${where.padEnd(4)} ${name}`);
}

export async function panelOpenReport(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<string[]> {
  const staged = stageProductionBuild();
  await bundleForExtensionHost(path.join(__dirname, 'probe.ts'), PROBE_OUT);
  const all = await windows(staged.folder, runs);
  const lines = [
    `Opening a conversation's panel in VS Code 1.100.3 (code-server), the production build, ${runs} fresh windows`,
    `(npm run bench -- panel-open; each window first opens an empty webview to warm up; times from the command, polled, ms):`,
    `  empty webview, the first of its window (warm-up) ${range(all.map((steps) => steps[0]!.seen.paintedAt - steps[0]!.opened.openedAt), ' ms', 0)}`,
  ];
  for (const events of LENGTHS) {
    const pairs = all.map((steps) => {
      const at = steps.findIndex((step) => step.opened.kind === 'panel' && step.opened.events === events);
      const empty = steps[at - 1]!;
      return { empty: empty.seen.paintedAt - empty.opened.openedAt, panel: steps[at]! };
    });
    const newest = pairs.map(({ panel }) => panel.seen.paintedAt - panel.opened.openedAt);
    const oldest = pairs.map(({ panel }) => (panel.seen.oldestAt ?? NaN) - panel.opened.openedAt);
    const floors = pairs.map(({ empty }) => empty);
    lines.push(
      `  ${events.toLocaleString('en')} events:`,
      `    empty webview (createWebviewPanel → its paragraph painted)  ${range(floors, ' ms', 0)}`,
      `    newest event's row painted                                 ${range(newest, ' ms', 0)}   ratio ${range(newest.map((ms, i) => ms / floors[i]!), '×', 2)}`,
      `    oldest event's row painted, scrolled to the top            ${range(oldest, ' ms', 0)}   ratio ${range(oldest.map((ms, i) => ms / floors[i]!), '×', 2)}`,
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
