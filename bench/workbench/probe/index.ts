// Runs inside VS Code's extension host (its extensionTestsPath) next to the production build of the
// extension, then writes its figures as one JSON file into $OPENHANDS_BENCH_RESULTS for the driver
// (bench/workbench/index.ts). Each figure group measures one thing; add new ones after activation,
// which must come first (nothing may have activated the extension yet).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activationFigures } from './activation';
import { bareWebviewMs } from './bareWebview';
import { openLongConversation } from './longConversation';
import {
  floorMarker,
  RESULTS_DIR_ENV,
  reopenedMarker,
  seenMarker,
  watchingMarker,
  type ProbeResult,
} from './results';

/** How long the probe keeps its window for the driver to read the page. */
const SEEN_TIMEOUT_MS = 60_000;
/** The host settles this long before the floor is measured. */
const FLOOR_AFTER_MS = 3000;

async function waitFor(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

export async function run(): Promise<void> {
  const dir = process.env[RESULTS_DIR_ENV];
  if (!dir) throw new Error(`${RESULTS_DIR_ENV} is not set: run the probe through npm run bench`);
  let result: ProbeResult;
  try {
    const figures = { activation: await activationFigures() };
    const openedAt = await openLongConversation();
    result = { figures, ...(openedAt === undefined ? {} : { openedAt }) };
  } catch (error) {
    result = { error: error instanceof Error ? error.message : String(error) };
  }
  fs.mkdirSync(dir, { recursive: true });
  // write-then-rename: the driver counts files and must never read half of one
  const file = path.join(dir, `${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result));
  fs.renameSync(`${file}.tmp`, file);
  if (!('openedAt' in result)) return;
  // the panel lives as long as this window: keep it until the driver has read the page
  await waitFor(seenMarker(file), SEEN_TIMEOUT_MS);
  // then once more, in a window that has shown a panel before (a warm webview)
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(watchingMarker(file), SEEN_TIMEOUT_MS);
  const reopenedAt = await openLongConversation();
  fs.writeFileSync(`${reopenedMarker(file)}.tmp`, JSON.stringify({ openedAt: reopenedAt }));
  fs.renameSync(`${reopenedMarker(file)}.tmp`, reopenedMarker(file));
  await waitFor(seenMarker(reopenedMarker(file)), SEEN_TIMEOUT_MS);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  // the floor, in the same window once the feed has read its history: a page of one paragraph
  // and one line of script
  await new Promise((resolve) => setTimeout(resolve, FLOOR_AFTER_MS));
  fs.writeFileSync(`${floorMarker(file)}.tmp`, JSON.stringify({ bareWebviewMs: await bareWebviewMs() }));
  fs.renameSync(`${floorMarker(file)}.tmp`, floorMarker(file));
  // nothing to restore in the next run's window
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
