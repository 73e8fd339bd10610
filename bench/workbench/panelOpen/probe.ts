// Runs inside VS Code's extension host (its extensionTestsPath) next to the production build: opens,
// one step after another, an empty webview and the conversations the driver seeded, each through
// the command a click runs, and tells the driver (panelOpen/index.ts) when, through files. The
// driver watches the page paint; this reads the host's marks of each opening.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { clearOpeningMarks, openingMarks } from '../../../src/common/openingMarks';
import { EXTENSION_ID } from '../../../test/integration/env';
import { emptyWebview } from './emptyWebview';
import {
  CONVERSATIONS_ENV,
  conversationsFromEnv,
  errorFile,
  hostFile,
  openedFile,
  seenFile,
  STEPS_DIR_ENV,
  windowSteps,
  type Opened,
} from './steps';

const SEEN_TIMEOUT_MS = 90_000;
/** The host settles this long between steps (the last panel's older pages read, its feed closed). */
const SETTLE_MS = 1500;

function writeJson(file: string, value: unknown): void {
  // write-then-rename: the driver must never read half of one
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value));
  fs.renameSync(`${file}.tmp`, file);
}

async function waitFor(file: string): Promise<void> {
  const deadline = Date.now() + SEEN_TIMEOUT_MS;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the driver did not write ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

export async function run(): Promise<void> {
  const dir = process.env[STEPS_DIR_ENV];
  if (!dir) throw new Error(`${STEPS_DIR_ENV} is not set: run the probe through the bench`);
  try {
    const conversations = conversationsFromEnv(process.env[CONVERSATIONS_ENV]);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
    // activation and first use are measured elsewhere (probe/activation.ts): done before any step
    await extension.activate();
    await settle();
    const steps = windowSteps([...conversations.keys()]);
    for (const [index, step] of steps.entries()) {
      let opened: Opened;
      let close: () => unknown;
      clearOpeningMarks();
      if (step.kind === 'empty') {
        const empty = emptyWebview();
        opened = { ...step, openedAt: empty.createdAt };
        close = () => empty.panel.dispose();
      } else {
        const conversationId = conversations.get(step.events) ?? '';
        const openedAt = Date.now();
        await vscode.commands.executeCommand('openhands.openConversation', conversationId);
        opened = { ...step, openedAt, conversationId };
        close = () => vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
      writeJson(openedFile(dir, index), opened);
      await waitFor(seenFile(dir, index));
      writeJson(hostFile(dir, index), openingMarks());
      await close();
      await settle();
    }
  } catch (error) {
    fs.writeFileSync(errorFile(dir), error instanceof Error ? error.message : String(error));
  }
}
