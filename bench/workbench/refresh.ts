// Issue 25's refresh figures, measured inside the extension host of a real VS Code (code-server) with
// the production build: `refreshFigures` takes the extension's test API and the test server's
// address and returns the printed lines; `run` is the entry VS Code calls (extensionTestsPath) and
// writes them to $OPENHANDS_BENCH_REPORT. `refreshDriver.ts` starts everything around it.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { OpenHandsExtensionApi } from '../../src/extension';
import {
  BENCH_IDLE_CYCLES_ENV,
  BENCH_PROFILE_ENV,
  BENCH_REPORT_ENV,
  BENCH_SERVER_URL_ENV,
} from './refreshEnv';

const EXTENSION_ID = 'openhands-community.openhands-vscode';

interface ServerControl {
  clearRequests(): Promise<void>;
  requestCount(): Promise<number>;
  /** The recorded requests' paths with their query strings, oldest first. */
  requestPaths(): Promise<string[]>;
  /** TCP connections the server accepted since its start. */
  connectionCount(): Promise<number>;
  /** Deletes a conversation as another client would. */
  deleteConversation(id: string): Promise<void>;
}

function serverControl(baseUrl: string): ServerControl {
  const control = async (method: string, path = '/__control/requests'): Promise<unknown> => {
    const response = await fetch(`${baseUrl}${path}`, { method });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  };
  type Recorded = { path: string; query: Record<string, string[]> };
  const recorded = async () => {
    const reply = (await control('GET')) as Recorded[] | { requests: Recorded[] };
    return Array.isArray(reply) ? reply : reply.requests;
  };
  return {
    clearRequests: async () => void (await control('DELETE')),
    requestCount: async () => (await recorded()).length,
    requestPaths: async () =>
      (await recorded()).map(({ path, query }) => {
        const search = new URLSearchParams();
        for (const [key, values] of Object.entries(query))
          for (const value of values) search.append(key, value);
        return search.size ? `${path}?${search}` : path;
      }),
    connectionCount: async () =>
      ((await control('GET', '/__control/connections')) as { accepted: number }).accepted,
    deleteConversation: async (id) => void (await control('DELETE', `/__control/state/conversations/${id}`)),
  };
}

/** The engine's collector: exposed on demand in this process, so no flag on the host's command line is needed. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc: unknown = vm.runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('gc could not be exposed in the extension host');
  return () => (gc as () => void)();
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The host's CPU time from now until it is quiet again: the tree's redraw (VS Code asks the
 * providers for rows and items) runs after `work` returns. Quiet: 200 ms using under 2 ms.
 */
async function cpuUntilQuiet(work: () => Promise<unknown>): Promise<number> {
  const start = cpuMs();
  await work();
  let quietSince = cpuMs();
  for (let windows = 0; windows < 50; windows++) {
    await sleep(200);
    const now = cpuMs();
    if (now - quietSince < 2) return quietSince - start;
    quietSince = now;
  }
  return quietSince - start;
}

/**
 * The floor under a poll cycle: the same three GETs with Node's own `http.get` (through VS Code's
 * proxy support, as every extension's requests go), a keep-alive agent, the bodies read as text and
 * nothing else done. CPU per cycle, over `cycles` cycles.
 */
async function bareRequestsCpu(baseUrl: string, paths: readonly string[], cycles: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      http
        .get(`${baseUrl}${path}`, { agent, headers: { Connection: 'keep-alive' } }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(text));
          response.on('error', reject);
        })
        .on('error', reject);
    });
  let cpu = 0;
  try {
    for (let cycle = 0; cycle < cycles; cycle++) {
      const before = cpuMs();
      await Promise.all(paths.map(get));
      cpu += cpuMs() - before;
      await sleep(100);
    }
  } finally {
    agent.destroy();
  }
  return cpu / cycles;
}

/**
 * A CPU profile of the extension host into `file` (open it in Chrome's DevTools), from now until
 * the returned function is called; nothing when no file is asked for. Build without --production
 * (and pass the folder to refreshDriver.ts) for readable names.
 */
async function startProfile(file: string | undefined): Promise<(() => Promise<void>) | undefined> {
  if (!file) return undefined;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** How long the hidden-views figure listens (the was 150 s). */
const HIDDEN_MS = 30_000;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('openhands').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Every figure of issue 25 this file owns, one printed line each. */
export async function refreshFigures(
  api: OpenHandsExtensionApi,
  serverUrl: string,
  idleCycles = 595,
): Promise<string[]> {
  const server = serverControl(serverUrl);
  const gc = collector();
  const lines: string[] = [];
  // the views on screen (VS Code draws the rows), no timer of its own in the way
  await setSetting('serverUrl', serverUrl);
  await setSetting('pageSize', 100);
  await setSetting('refresh.idleIntervalSeconds', 3600);
  await setSetting('refresh.activeIntervalSeconds', 60);
  await api.connection.rebuild();
  await vscode.commands.executeCommand('workbench.view.extension.openhands');
  await api.store.refresh({ full: true });
  while (api.store.conversationsNextPage !== null) await api.store.loadMoreConversations();
  const loaded = api.store.conversations.length;
  await cpuUntilQuiet(() => sleep(0));

  // what the trees were told, per phase: a refresh that finds nothing new must tell them nothing
  let treeEvents = 0;
  const counting = [api.conversationsProvider, api.sandboxesProvider].map((provider) =>
    provider.onDidChangeTreeData(() => treeEvents++),
  );
  const takeTreeEvents = () => {
    const count = treeEvents;
    treeEvents = 0;
    return count;
  };
  takeTreeEvents();

  // 1. one refresh with nothing changed
  const refreshOnce = async () => {
    await server.clearRequests();
    const cpu = await cpuUntilQuiet(() => api.store.refresh());
    return { cpu, requests: await server.requestCount() };
  };
  const changes = [];
  let changeEvents = 0;
  for (let i = 0; i < 8; i++) {
    changes.push(await refreshOnce());
    changeEvents += takeTreeEvents();
  }
  const changeCpu = median(changes.map((r) => r.cpu));
  lines.push(
    `refresh at ${loaded} conversations loaded, nothing changed: ${changeCpu.toFixed(1)} ms host CPU until quiet, ` +
      `${median(changes.map((r) => r.requests))} requests (median of 8); ${changeEvents} tree events in all`,
  );
  // 2. heap kept per refresh (after GC), 8 refreshes
  const heapBefore = heapAfterGc(gc);
  for (let i = 0; i < 8; i++) await api.store.refresh();
  await cpuUntilQuiet(() => sleep(0));
  const heapAfter = heapAfterGc(gc);
  lines.push(
    `heap kept per refresh at ${loaded} conversations (after GC, 8 refreshes): ${mb((heapAfter - heapBefore) / 8)} MB ` +
      `(${mb(heapBefore)} -> ${mb(heapAfter)} MB)`,
  );

  // 3 and 4. idle polling: the scheduler's cycle (runNow: refresh, then plan the next), back to back
  // with a 100 ms gap instead of 1 s, so the 595 cycles take about a minute
  await api.scheduler.runNow();
  const idleHeapStart = heapAfterGc(gc);
  const rssStart = process.memoryUsage().rss;
  await server.clearRequests();
  const connectionsBefore = await server.connectionCount();
  let idleCpu = 0;
  const samples: number[] = [];
  const profile = await startProfile(process.env[BENCH_PROFILE_ENV]);
  for (let cycle = 1; cycle <= idleCycles; cycle++) {
    const before = cpuMs();
    await api.scheduler.runNow();
    idleCpu += cpuMs() - before;
    await sleep(100);
    if (cycle % Math.ceil(idleCycles / 5) === 0) samples.push(heapAfterGc(gc));
  }
  await profile?.();
  const idleHeapEnd = heapAfterGc(gc);
  const idleEvents = takeTreeEvents();
  const idlePaths = await server.requestPaths();
  const idleRequests = idlePaths.length;
  // counts the bench's own control request too (at most one more connection)
  const idleConnections = (await server.connectionCount()) - connectionsBefore;
  lines.push(
    `idle polling, nothing changing, ${idleCycles} cycles (100 ms apart, not 1 s): heap after GC ` +
      `${idleHeapEnd >= idleHeapStart ? '+' : ''}${mb(idleHeapEnd - idleHeapStart)} MB in all ` +
      `(every fifth: ${samples.map((s) => mb(s - idleHeapStart)).join(', ')} MB); ` +
      `RSS ${mb(process.memoryUsage().rss - rssStart)} MB; ${(idleRequests / idleCycles).toFixed(2)} requests a cycle; ` +
      `${idleEvents} tree events`,
  );
  // the same cycle's requests, bare: what any extension pays for three GETs in this host
  const polled = idlePaths.slice(-3);
  const floorCycles = Math.min(idleCycles, 200);
  const floor = await bareRequestsCpu(serverUrl, polled, floorCycles);
  lines.push(
    `host CPU per poll cycle when nothing changes: ${(idleCpu / idleCycles).toFixed(2)} ms; the same ` +
      `${polled.length} GETs bare (http.get, body as text, ${floorCycles} cycles): ${floor.toFixed(2)} ms ` +
      `(${(idleCpu / idleCycles / Math.max(floor, 0.01)).toFixed(2)}x)`,
  );
  lines.push(
    `new TCP connections per request while polling (VS Code's proxy support in the way): ` +
      `${(idleConnections / Math.max(idleRequests, 1)).toFixed(3)} (${idleConnections} for ${idleRequests} requests)`,
  );

  // the Refresh command, last: with nothing deleted the count says so and no page is read again; one
  // conversation deleted elsewhere, and it reads the whole list (and may redraw every row)
  const command = async () => {
    await server.clearRequests();
    const cpu = await cpuUntilQuiet(async () => vscode.commands.executeCommand('openhands.refresh'));
    return { cpu, requests: await server.requestCount() };
  };
  const commands = [];
  for (let i = 0; i < 3; i++) commands.push(await command());
  const commandEvents = takeTreeEvents();
  const commandCpu = median(commands.map((r) => r.cpu));
  lines.push(
    `Refresh command, nothing deleted (median of 3): ${commandCpu.toFixed(1)} ms, ` +
      `${median(commands.map((r) => r.requests))} requests, ${commandEvents} tree events; ${(commandCpu / Math.max(changeCpu, 0.1)).toFixed(1)}x the refresh`,
  );
  const deleted = api.store.conversations[Math.floor(loaded / 2)];
  if (deleted) await server.deleteConversation(deleted.id);
  const full = await command();
  const fullEvents = takeTreeEvents();
  for (const subscription of counting) subscription.dispose();
  lines.push(
    `Refresh command, one conversation deleted elsewhere (the whole list read again): ${full.cpu.toFixed(1)} ms, ` +
      `${full.requests} requests, ${fullEvents} tree events; ${api.store.conversations.length} conversations after`,
  );

  // 5. every view hidden: the scheduler polls at its fastest idle interval (2 s) if it polls at all
  await setSetting('refresh.idleIntervalSeconds', 2);
  await api.scheduler.runNow();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const hidden = Date.now();
  while (api.scheduler.anyViewVisible && Date.now() - hidden < 10_000) await sleep(100);
  await server.clearRequests();
  await sleep(HIDDEN_MS);
  lines.push(
    `requests while every view is hidden: ${await server.requestCount()} over ${HIDDEN_MS / 1000} s ` +
      `(views hidden: ${!api.scheduler.anyViewVisible}; 2 s poll interval)`,
  );
  await setSetting('refresh.idleIntervalSeconds', undefined);
  await setSetting('refresh.activeIntervalSeconds', undefined);
  return lines;
}

/** extensionTestsPath entry: the figures into $OPENHANDS_BENCH_REPORT (an error too, as a line). */
export async function run(): Promise<void> {
  const report = process.env[BENCH_REPORT_ENV];
  const serverUrl = process.env[BENCH_SERVER_URL_ENV];
  if (!report || !serverUrl) throw new Error(`${BENCH_REPORT_ENV} and ${BENCH_SERVER_URL_ENV} must be set`);
  let lines: string[];
  try {
    const extension = vscode.extensions.getExtension<OpenHandsExtensionApi | undefined>(EXTENSION_ID);
    const api = await extension?.activate();
    if (!api) throw new Error(`${EXTENSION_ID} exported no API (only in ExtensionMode.Test)`);
    lines = await refreshFigures(api, serverUrl, Number(process.env[BENCH_IDLE_CYCLES_ENV] ?? 595));
  } catch (error) {
    lines = [
      `refresh figures failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    ];
  }
  fs.writeFileSync(`${report}.tmp`, JSON.stringify(lines));
  fs.renameSync(`${report}.tmp`, report);
}
