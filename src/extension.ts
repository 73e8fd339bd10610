// The entry VS Code loads (dist/extension.js). It registers the views, the commands, the panels'
// serializers and the link handler with stand-ins, and loads the rest (dist/services.js: the
// client, zod, axios, state, the trees, the commands and the webview hosts) on first use: a view
// asking for its rows, a command, a restored panel or a link. Nothing here reads the network or
// the rest of the code.
const moduleStartCpu = process.cpuUsage();

import * as vscode from 'vscode';
import type { OpenHandsServices, Shell } from './services';
import { registerCommandStandIns } from './shell/commandStandIns';
import { DeferredPanels } from './shell/deferredPanels';
import { DeferredTree } from './shell/deferredTree';
import { readEntryManifest } from './shell/manifest';
import type { OpenHandsNode } from './views/nodes';

/**
 * Process CPU (user + system, microseconds) at points of activation, read by `npm run bench`.
 * Between the module's first line and `activate`, VS Code prepares the extension's context
 * (storage, secrets) while the host goes on with other work: not ours to count.
 */
export interface ActivationCpu {
  /** The entry module's first line ran. */
  moduleStart: NodeJS.CpuUsage;
  /** `activate` was called. */
  activateStart: NodeJS.CpuUsage;
  /** `activate` was done with its own work: everything registered, nothing loaded yet. */
  settled: NodeJS.CpuUsage;
}

/** What `activate` returns when the extension runs its test suite (and only then). */
export interface OpenHandsExtensionApi extends OpenHandsServices {
  activationCpu: ActivationCpu;
}

export async function activate(context: vscode.ExtensionContext): Promise<OpenHandsExtensionApi | undefined> {
  const activateStart = process.cpuUsage();
  const manifest = readEntryManifest(context.extension.packageJSON);
  let loading: Promise<OpenHandsServices> | undefined;
  const load = (): Promise<OpenHandsServices> => (loading ??= startServices());

  const commandStandIns = registerCommandStandIns(manifest.commandIds, load);
  const sandboxes = new DeferredTree<OpenHandsNode>('openhands.sandboxes', { showCollapseAll: true }, load);
  const conversations = new DeferredTree<OpenHandsNode>('openhands.conversations', {}, load);
  const registrar = new DeferredPanels(manifest.panelViewTypes, load);
  context.subscriptions.push(commandStandIns, sandboxes, conversations, registrar);

  function startServices(): Promise<OpenHandsServices> {
    // the real commands take the stand-ins' ids
    commandStandIns.dispose();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own, loaded here on first use
    const services = require('./services.js') as typeof import('./services');
    const shell: Shell = { sandboxes, conversations, registrar };
    return services.startServices(context, shell);
  }

  const settled = process.cpuUsage();
  // Other extensions get nothing: `exports` would hand them the keys.
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { ...(await load()), activationCpu: { moduleStart: moduleStartCpu, activateStart, settled } };
}

export function deactivate(): void {}
