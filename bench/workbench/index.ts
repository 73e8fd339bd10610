// Figures measured inside a real VS Code (code-server 1.100.3) running the production build:
// `npm run bench` prints them; `npx tsx bench/workbench/index.ts` runs this part alone.
// The VSIX is built and unpacked (stage.ts), loaded as the development extension of a workbench
// whose extensionTestsPath is the probe (probe/index.ts), once per run: each page is a fresh
// extension host. The probe's figures come back as files; this prints their medians.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { launchBrowser } from '../../scripts/vscode/browser';
import { Cleanup } from '../../scripts/vscode/cleanup';
import { startCodeServer } from '../../scripts/vscode/code-server';
import { ARTIFACTS_DIR, ROOT, RUNS_DIR } from '../../scripts/vscode/paths';
import { workbenchUrl } from '../../scripts/vscode/workbench-url';
import { bundleSizeLines } from './bundleSizes';
import { RESULTS_DIR_ENV, type ProbeResult } from './probe/results';
import { stageProductionBuild } from './stage';

const PROBE_OUT = path.join(ROOT, 'out', 'bench', 'workbench', 'probe.js');
const RESULTS_DIR = path.join(ROOT, 'out', 'bench', 'workbench', 'results');
const RUN_TIMEOUT_MS = 60_000;

async function buildProbe(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'probe', 'index.ts')],
    outfile: PROBE_OUT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
}

async function waitForResults(count: number, abortReason: () => string | undefined): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (fs.readdirSync(RESULTS_DIR).filter((file) => file.endsWith('.json')).length < count) {
    const reason = abortReason();
    if (reason) throw new Error(reason);
    if (Date.now() > deadline) throw new Error(`the probe wrote no result within ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs the probe in `runs` fresh extension hosts; returns each run's figures. */
async function probeRuns(extensionFolder: string, runs: number): Promise<ProbeResult[]> {
  const cleanup = new Cleanup();
  try {
    fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const codeServer = await startCodeServer({
      runDir: path.join(RUNS_DIR, 'bench'),
      logFile: path.join(ARTIFACTS_DIR, 'bench', 'code-server.log'),
      env: { [RESULTS_DIR_ENV]: RESULTS_DIR },
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
    for (let run = 1; run <= runs; run++) {
      const page = await browser.context.newPage();
      await page.goto(url);
      await waitForResults(run, () => codeServer.exitReason());
      await page.close();
    }
    return fs
      .readdirSync(RESULTS_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, file), 'utf8')) as ProbeResult);
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
  await buildProbe();
  const results = await probeRuns(staged.folder, runs);
  const failed = results.flatMap((result) => ('error' in result ? [result.error] : []));
  if (failed.length > 0) throw new Error(`the workbench probe failed: ${failed.join('; ')}`);
  const activations = results.flatMap((result) =>
    'figures' in result ? [result.figures.activation ?? {}] : [],
  );
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
    `Host bundles, minified (esbuild metafile of the production build):`,
    ...bundleSizeLines(staged.hostMetafile).map((line) => `  ${line}`),
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
