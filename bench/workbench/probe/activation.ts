// Extension-host CPU of activation, read inside the host. process.cpuUsage() is the whole host
// process's (every thread), so these are upper bounds; the probe runs after the workbench has
// started, when no other extension is busy.
import * as vscode from 'vscode';
import type { OpenHandsExtensionApi } from '../../../src/extension';
import { EXTENSION_ID } from '../../../test/integration/env';

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

export async function activationFigures(): Promise<Record<string, number>> {
  const extension = vscode.extensions.getExtension<OpenHandsExtensionApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  if (extension.isActive) throw new Error(`${EXTENSION_ID} was active before the probe: nothing to measure`);
  const before = process.cpuUsage();
  const api = await extension.activate();
  const after = process.cpuUsage();
  if (!api) throw new Error(`${EXTENSION_ID} returned no API: the probe needs ExtensionMode.Test`);
  const { moduleStart, activateStart, settled } = api.activationCpu;
  return {
    // from activate() called to the entry's first line: VS Code's own work, reading and compiling the entry
    loadCpuMs: cpuMs(moduleStart) - cpuMs(before),
    // VS Code preparing the extension's context, while the host goes on with other work (not ours)
    contextCpuMs: cpuMs(activateStart) - cpuMs(moduleStart),
    // the entry's activate(): stand-ins registered; outside tests activation ends here
    activateCpuMs: cpuMs(settled) - cpuMs(activateStart),
    // what first use costs (a view's rows, a command): services.js loaded and started. Only the
    // test run does it inside activate(), to hand the probe its API.
    firstUseCpuMs: cpuMs(after) - cpuMs(settled),
  };
}
