// What the tests of conversations share: the panel hooks the extension exports in test mode, a panel
// opened and live, the conversations of the reset server to work on, and closing every panel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AppConversation } from '../../src/api';
import type { OpenHandsExtensionApi } from '../../src/extension';
import { eventually } from '../shared/eventually';

export function panels(api: OpenHandsExtensionApi) {
  const panelApi = api.conversationPanels;
  assert.ok(panelApi, 'the extension exports the panel hooks in test mode');
  return panelApi;
}

/** The panel's snapshot once its feed is live and holds events. */
export function liveSnapshot(api: OpenHandsExtensionApi, id: string) {
  return eventually(
    () => panels(api).snapshot(id),
    (snapshot) => snapshot?.header.feed === 'live' && snapshot.header.eventCount > 0,
    10_000,
  );
}

/** Opens the conversation's panel (the command a tree row runs) and waits until it is live. */
export async function openLive(api: OpenHandsExtensionApi, id: string) {
  await vscode.commands.executeCommand('openhands.openConversation', id);
  return liveSnapshot(api, id);
}

export async function closePanels(api: OpenHandsExtensionApi): Promise<void> {
  for (const id of panels(api).openIds()) panels(api).close(id);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** A conversation whose sandbox runs and whose agent does not: nothing moves unless the test moves it. */
export function quietConversation(api: OpenHandsExtensionApi): AppConversation {
  const conversation = api.store.conversations.find(
    (c) => c.sandbox_status === 'RUNNING' && c.execution_status !== 'running',
  );
  assert.ok(conversation, 'the seed has a conversation in a running sandbox');
  return conversation;
}

/** The first conversation in a running sandbox, once the list shows the reset server. */
export async function firstRunningConversation(api: OpenHandsExtensionApi): Promise<AppConversation> {
  const running = await eventually(
    async () => {
      await api.store.refresh();
      return api.store.conversations.filter((c) => c.sandbox_status === 'RUNNING');
    },
    (list) => list.length > 0,
  );
  return running[0] as AppConversation;
}
