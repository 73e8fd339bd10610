/**
 * Wires the MCP & Git Providers form into the extension: the command, the panel serializer (so
 * the panel survives a reload) and the reaction to a changed server or key.
 */
import * as vscode from 'vscode';
import type { Connection } from '../../../state/connection';
import type { Log } from '../../../core/log';
import type { MementoManager } from '../../../core/mementoManager';
import type { SecretsManager } from '../../../core/secretsManager';
import { LazyModule } from '../../kit/host/lazyModule';
import type { FormSecrets } from './formStorage';
import type { FormHost, FormQuestion } from './formHost';
import type { HostToWebview } from '../shared/protocol';
import { VIEW_TYPE } from '../shared/viewType';

export const EDIT_COMMAND = 'openhands.editMcpAndGitProviders';

/** Hooks for the integration tests, returned only when the extension runs its test suite. */
export interface McpFormTestApi {
  /** The secrets kept for a server (the form keeps nothing else). */
  storedSecrets(serverUrl: string): Promise<FormSecrets>;
  clearStoredSecrets(serverUrl: string): Promise<void>;
  /**
   * Hands a message to the open panel's host as if its webview had posted it, and resolves with
   * what the host sent back once it is done. Undefined when no panel is open.
   */
  sendFromWebview(message: unknown): Promise<HostToWebview[] | undefined>;
  isPanelOpen(): boolean;
  closePanel(): void;
  /**
   * Answers the question a save asks when an MCP server did not answer (a modal the integration tests
   * cannot click): true saves anyway, false cancels, undefined asks the user again. Returns what each
   * question since the last call listed.
   */
  answerMcpCheck(answer: boolean | undefined): string[][];
}

export function registerMcpForm(
  context: vscode.ExtensionContext,
  deps: {
    connection: Connection;
    log: Log;
    secrets: SecretsManager;
    mementos: MementoManager;
    /** Where the panel's serializer goes: `vscode.window`, or the entry's stand-in registered at activation. */
    registrar: Pick<typeof vscode.window, 'registerWebviewPanelSerializer'>;
  },
): McpFormTestApi | undefined {
  const { connection } = deps;
  let testAnswer: boolean | undefined;
  let asked: string[][] = [];
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const confirm = async ({ lines, strings }: FormQuestion): Promise<boolean> => {
    if (testing) asked.push(lines);
    if (testAnswer !== undefined) return testAnswer;
    const choice = await vscode.window.showWarningMessage(
      strings.checkQuestion,
      { modal: true, detail: [...lines, '', strings.checkAdvice].join('\n') },
      strings.saveAnyway,
    );
    return choice === strings.saveAnyway;
  };
  // the form's host (storage, strings, save, panel) is imported when the form first opens or
  // comes back after a reload
  const formModule = new LazyModule(() => import('./formHost'));
  let host: FormHost | undefined;
  const formHost = async (): Promise<FormHost> => {
    const { createFormHost } = await formModule.load();
    return (host ??= createFormHost({ ...deps, extensionUri: context.extensionUri, confirm }));
  };
  const openPanel = () => formModule.loaded?.McpFormPanel.open;

  let lastClient = connection.client;
  context.subscriptions.push(
    vscode.commands.registerCommand(EDIT_COMMAND, async () => (await formHost()).show()),
    deps.registrar.registerWebviewPanelSerializer(VIEW_TYPE, {
      // The webview restores its own draft from its state; the host only needs to exist again.
      deserializeWebviewPanel: async (panel) => (await formHost()).revive(panel),
    }),
    connection.onDidChange(() => {
      if (connection.client === lastClient) return;
      lastClient = connection.client;
      openPanel()?.controller.serverChanged();
    }),
    { dispose: () => openPanel()?.dispose() },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    storedSecrets: async (serverUrl) => (await formHost()).store.load(serverUrl),
    clearStoredSecrets: async (serverUrl) => (await formHost()).store.clear(serverUrl),
    sendFromWebview: async (message) => {
      const panel = openPanel();
      if (!panel) return undefined;
      const answers: HostToWebview[] = [];
      const listener = panel.onDidPost((answer) => answers.push(answer));
      try {
        await panel.controller.idle();
        panel.controller.receive(message);
        await panel.controller.idle();
      } finally {
        listener.dispose();
      }
      return answers;
    },
    isPanelOpen: () => openPanel() !== undefined,
    closePanel: () => openPanel()?.dispose(),
    answerMcpCheck: (answer) => {
      testAnswer = answer;
      const questions = asked;
      asked = [];
      return questions;
    },
  };
}
