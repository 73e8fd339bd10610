import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenHandsExtensionApi } from '../../src/extension';
import { EXTENSION_ID, testServerUrl } from './env';
import { server } from './serverControl';

/** The running extension's services, as `activate` returns them. */
export async function extensionApi(): Promise<OpenHandsExtensionApi> {
  const extension = vscode.extensions.getExtension<OpenHandsExtensionApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  if (!api) throw new Error(`${EXTENSION_ID} returned no API: it exports one only in ExtensionMode.Test`);
  return api;
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('openhands').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Points the extension at the seeded test server with fresh settings. */
export async function useTestServerSettings(api: OpenHandsExtensionApi): Promise<void> {
  await setSetting('serverUrl', testServerUrl());
  await setSetting('servers', undefined);
  await setSetting('pageSize', undefined);
  await setSetting('refresh.activeIntervalSeconds', 0.5);
  await setSetting('refresh.idleIntervalSeconds', undefined);
  await setSetting('tls.caFile', undefined);
  await setSetting('tls.insecure', undefined);
  await setSetting('httpLogLevel', undefined);
  await api.connection.rebuild();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * For a describe block: the running extension, pointed at the seeded test server, reset and loaded
 * again before each test so every test starts from the same data.
 */
export function useFreshExtension(): { readonly api: OpenHandsExtensionApi } {
  const fixture: { api?: OpenHandsExtensionApi } = {};
  before(async () => {
    fixture.api = await extensionApi();
  });
  beforeEach(async () => {
    const api = fixture.api;
    if (!api) throw new Error('the extension did not activate');
    await server.reset();
    await useTestServerSettings(api);
    await api.store.setTitleFilter(undefined); // refreshes too
  });
  return {
    get api(): OpenHandsExtensionApi {
      if (!fixture.api) throw new Error('the extension did not activate');
      return fixture.api;
    },
  };
}

/** Runs a New Conversation command that must fail: it returns nothing and the list gains nothing. */
export async function expectNoConversationStarted(
  api: OpenHandsExtensionApi,
  command: string,
  args: unknown,
): Promise<void> {
  const before = api.store.conversations.length;
  assert.equal(await vscode.commands.executeCommand(command, args), undefined);
  await api.store.refresh();
  assert.equal(api.store.conversations.length, before);
}
