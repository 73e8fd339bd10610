// Figures measured inside a real VS Code (code-server 1.100.3) running the production build:
// `npm run bench` prints them; `npx tsx bench/workbench/index.ts` runs this part alone.
// The VSIX is built and unpacked (stage.ts), loaded as the development extension of a workbench
// whose extensionTestsPath is the probe (probe/index.ts), once per run: each page is a fresh
// extension host. The probe's figures come back as files; this prints their medians.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleForExtensionHost } from '../../scripts/vscode/build';
import { Cleanup } from '../../scripts/vscode/cleanup';
import { ROOT } from '../../scripts/vscode/paths';
import { waitForFile } from '../../scripts/vscode/wait-file';
import { startTestServer } from '../../test/server';
import { bundleSizeLines, treeFloorLine } from './bundleSizes';
import { firstRowPaintedAt, noRowShown } from './firstRowPainted';
import {
  floorMarker,
  LONG_CONVERSATION_ENV,
  RESULTS_DIR_ENV,
  reopenedMarker,
  seenMarker,
  watchingMarker,
  type ProbeResult,
} from './probe/results';
import { openBenchWindow } from './benchWindow';
import { stageProductionBuild } from './stage';

const PROBE_OUT = path.join(ROOT, 'out', 'bench', 'workbench', 'probe.js');
const RESULTS_DIR = path.join(ROOT, 'out', 'bench', 'workbench', 'results');
const RUN_TIMEOUT_MS = 60_000;
const LONG_CONVERSATION_EVENTS = 10_000;

/** One run: what the probe wrote, and command-to-first-row times of the panel, opened cold and again (ms). */
interface Run {
  result: ProbeResult;
  coldPaintMs?: number;
  warmPaintMs?: number;
  /** A bare webview's page heard from, in the same window (the floor under a panel's paint). */
  bareWebviewMs?: number;
}

/** Waits for the probe's next result file (the `count`th) and returns its path. */
async function nextResult(count: number, abortReason: () => string | undefined): Promise<string> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const files = fs.readdirSync(RESULTS_DIR).filter((file) => file.endsWith('.json'));
    const fresh = files.find((file) => !fs.existsSync(seenMarker(path.join(RESULTS_DIR, file))));
    if (files.length >= count && fresh) return path.join(RESULTS_DIR, fresh);
    const reason = abortReason();
    if (reason) throw new Error(reason);
    if (Date.now() > deadline) throw new Error(`the probe wrote no result within ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs the probe in `runs` fresh extension hosts against a test server holding one conversation of
 * 10,000 events, which the probe opens; returns each run's figures and first painted row.
 */
async function probeRuns(extensionFolder: string, runs: number): Promise<Run[]> {
  const cleanup = new Cleanup();
  try {
    fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const server = await startTestServer({
      host: '127.0.0.1',
      seed: { sandboxes: 2, conversations: 4, seed: 3 },
      timings: { agentStepMs: 0 },
    });
    cleanup.add('test server', () => server.close());
    const long = server.agent
      .conversations()
      .find((c) => server.state.sandboxes.find((s) => s.id === c.sandbox_id)?.status === 'RUNNING');
    if (!long) throw new Error('the bench seed has no conversation in a running sandbox');
    server.agent.seedEvents(long.id, LONG_CONVERSATION_EVENTS);
    const { codeServer, browser, url } = await openBenchWindow(cleanup, {
      name: 'bench',
      logName: 'code-server.log',
      serverUrl: server.url,
      env: { [RESULTS_DIR_ENV]: RESULTS_DIR, [LONG_CONVERSATION_ENV]: long.id },
      extensionFolder,
      probe: PROBE_OUT,
    });
    const measured: Run[] = [];
    for (let run = 1; run <= runs; run++) {
      // a fresh browser profile each run: the last run's panel must not come back and activate the extension
      const context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      // watched from the start: the row may paint before the probe has written its result
      const painted = firstRowPaintedAt(page, RUN_TIMEOUT_MS);
      painted.catch(() => undefined); // awaited below only when the probe opened the panel
      const file = await nextResult(run, () => codeServer.exitReason());
      const result = JSON.parse(fs.readFileSync(file, 'utf8')) as ProbeResult;
      if (!('openedAt' in result) || result.openedAt === undefined) {
        measured.push({ result });
        await context.close();
        continue;
      }
      const coldPaintMs = (await painted) - result.openedAt;
      fs.writeFileSync(seenMarker(file), '');
      // the probe closes the panel and opens it again once we watch
      await noRowShown(page, RUN_TIMEOUT_MS);
      const repainted = firstRowPaintedAt(page, RUN_TIMEOUT_MS);
      fs.writeFileSync(watchingMarker(file), '');
      await waitForFile(reopenedMarker(file), {
        timeoutMs: RUN_TIMEOUT_MS,
        abortReason: () => codeServer.exitReason(),
      });
      const reopened = JSON.parse(fs.readFileSync(reopenedMarker(file), 'utf8')) as { openedAt: number };
      const warmPaintMs = (await repainted) - reopened.openedAt;
      fs.writeFileSync(seenMarker(reopenedMarker(file)), '');
      await waitForFile(floorMarker(file), {
        timeoutMs: RUN_TIMEOUT_MS,
        abortReason: () => codeServer.exitReason(),
      });
      const { bareWebviewMs } = JSON.parse(fs.readFileSync(floorMarker(file), 'utf8')) as {
        bareWebviewMs: number;
      };
      measured.push({ result, coldPaintMs, warmPaintMs, bareWebviewMs });
      await context.close();
    }
    return measured;
  } finally {
    await cleanup.runAll();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function figure(values: number[]): string {
  const ms = (value: number) => value.toFixed(1);
  return `${ms(median(values))} ms (range ${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
}

export async function workbenchReport(runs = Number(process.env.BENCH_RUNS ?? 7)): Promise<string[]> {
  const staged = stageProductionBuild();
  await bundleForExtensionHost(path.join(__dirname, 'probe', 'index.ts'), PROBE_OUT);
  const measured = await probeRuns(staged.folder, runs);
  const failed = measured.flatMap(({ result }) => ('error' in result ? [result.error] : []));
  if (failed.length > 0) throw new Error(`the workbench probe failed: ${failed.join('; ')}`);
  const activations = measured.flatMap(({ result }) =>
    'figures' in result ? [result.figures.activation ?? {}] : [],
  );
  const cold = measured.flatMap(({ coldPaintMs }) => (coldPaintMs === undefined ? [] : [coldPaintMs]));
  const warm = measured.flatMap(({ warmPaintMs }) => (warmPaintMs === undefined ? [] : [warmPaintMs]));
  const bare = measured.flatMap(({ bareWebviewMs }) => (bareWebviewMs === undefined ? [] : [bareWebviewMs]));
  const paintFigure = (values: number[]) =>
    values.length === runs ? figure(values) : `not measured in ${runs - values.length} of ${runs} runs`;
  const values = (name: string) => activations.map((activation) => activation[name] ?? NaN);
  const total = activations.map((a) => (a.loadCpuMs ?? NaN) + (a.activateCpuMs ?? NaN));
  return [
    `In VS Code 1.100.3 (code-server), the production build (npm run package), median of ${runs} fresh extension hosts`,
    `(npx tsx bench/workbench/index.ts; process.cpuUsage() of the extension host, read by bench/workbench/probe):`,
    `  activation, host CPU: load + activate()   ${figure(total)}`,
    `    load (activate() called → the entry's first line) ${figure(values('loadCpuMs'))}`,
    `    activate() (stand-ins registered)        ${figure(values('activateCpuMs'))}`,
    `    not counted: VS Code preparing the extension's context between the two, the host busy with other work meanwhile: ${figure(values('contextCpuMs'))}`,
    `  first use (a view's rows or a command: services.js loaded and started) ${figure(values('firstUseCpuMs'))}`,
    `  a ${LONG_CONVERSATION_EVENTS.toLocaleString('en')}-event conversation: openhands.openConversation → its panel's first row painted (wall time)`,
    `    first panel of the window (the webview starts cold) ${paintFigure(cold)}`,
    `    opened again after closing it                       ${paintFigure(warm)}`,
    `    the floor: a bare webview (one paragraph, one line of script), createWebviewPanel → its first message, same window, host idle ${paintFigure(bare)}`,
    `    (services.js already loaded by the probe's activate(); the page is polled, up to ~30 ms late)`,
    `Host bundles, minified (esbuild metafile of the production build):`,
    ...bundleSizeLines(staged.hostMetafile).map((line) => `  ${line}`),
    `  The floor of the first use: only the client, store, poller, trees and status bar (bench/workbench/treeFloor.ts), built the same way:`,
    `  ${await treeFloorLine()}`,
    `VSIX: ${(staged.vsixBytes / 1024).toFixed(0)} KB, ${staged.vsixFiles} files (openhands-vscode.vsix)`,
  ];
}

if (require.main === module) {
  void workbenchReport().then(
    (lines) => console.log(lines.join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
