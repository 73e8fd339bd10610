import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  contributedCommands,
  contributedViewContainerIds,
  contributedViewIds,
  openHandsExtension,
} from './manifest';

async function missingFromRegistry(ids: string[]): Promise<string[]> {
  const registered = new Set(await vscode.commands.getCommands(true));
  return ids.filter((id) => !registered.has(id));
}

describe('contributions', () => {
  before(async () => {
    await openHandsExtension().activate();
  });

  it('registers every command contributed in package.json', async () => {
    const ids = contributedCommands().map((c) => c.command);
    const missing = await missingFromRegistry(ids);
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  // VS Code derives `workbench.view.extension.<id>` and `<viewId>.focus` from the manifest, so these
  // commands exist exactly when the containers and views were accepted.
  it('shows every contributed view container and view', async () => {
    const ids = [
      ...contributedViewContainerIds().map((id) => `workbench.view.extension.${id}`),
      ...contributedViewIds().map((id) => `${id}.focus`),
    ];
    const missing = await missingFromRegistry(ids);
    assert.deepEqual(missing, [], `contributed but not available: ${missing.join(', ')}`);
    for (const id of contributedViewContainerIds()) {
      await vscode.commands.executeCommand(`workbench.view.extension.${id}`);
    }
  });
});
