/**
 * Wires the MCP & Git Providers form into the extension: the command, the panel serializer (so
 * the panel survives a reload) and the reaction to a changed server or key.
 */
import * as vscode from 'vscode';
import { probeMcpServers } from '../../../api';
import type { Connection } from '../../../state/connection';
import type { Log } from '../../../core/log';
import type { MementoManager } from '../../../core/mementoManager';
import type { SecretsManager } from '../../../core/secretsManager';
import { FormController } from './formController';
import { FormSave } from './formSave';
import { VscodeFormStorage, type FormSecrets } from './formStorage';
import { McpFormPanel, type PanelEnvironment } from './panel';
import { VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import { ENGLISH_STRINGS, UiStringsSchema, type UiStringKey, type UiStrings } from '../shared/uiStrings';

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
  const { connection, log } = deps;
  const store = new VscodeFormStorage(deps.secrets.mcpForm, deps.mementos);
  const strings = localizedStrings();
  const form = new FormSave(store, log, strings);
  let testAnswer: boolean | undefined;
  let asked: string[][] = [];
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const confirm = async (lines: string[]): Promise<boolean> => {
    if (testing) asked.push(lines);
    if (testAnswer !== undefined) return testAnswer;
    const choice = await vscode.window.showWarningMessage(
      strings.checkQuestion,
      { modal: true, detail: [...lines, '', strings.checkAdvice].join('\n') },
      strings.saveAnyway,
    );
    return choice === strings.saveAnyway;
  };

  const env: PanelEnvironment = {
    extensionUri: context.extensionUri,
    strings,
    warn: (message) => log.warn(message),
    createController: (post) =>
      new FormController({
        post,
        target: { serverUrl: () => connection.config.serverUrl, client: () => connection.client },
        form,
        strings,
        log,
        showLog: () => log.show(),
        configureServer: () => void vscode.commands.executeCommand('openhands.connect'),
        mcpCheck: { probe: (targets) => probeMcpServers(targets), confirm },
      }),
  };

  let lastClient = connection.client;
  context.subscriptions.push(
    vscode.commands.registerCommand(EDIT_COMMAND, () => void McpFormPanel.show(env)),
    deps.registrar.registerWebviewPanelSerializer(VIEW_TYPE, {
      // The webview restores its own draft from its state; the host only needs to exist again.
      deserializeWebviewPanel: async (panel) => void McpFormPanel.revive(panel, env),
    }),
    connection.onDidChange(() => {
      if (connection.client === lastClient) return;
      lastClient = connection.client;
      McpFormPanel.open?.controller.serverChanged();
    }),
    { dispose: () => McpFormPanel.open?.dispose() },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    storedSecrets: (serverUrl) => store.load(serverUrl),
    clearStoredSecrets: (serverUrl) => store.clear(serverUrl),
    sendFromWebview: async (message) => {
      const panel = McpFormPanel.open;
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
    isPanelOpen: () => McpFormPanel.open !== undefined,
    closePanel: () => McpFormPanel.open?.dispose(),
    answerMcpCheck: (answer) => {
      testAnswer = answer;
      const questions = asked;
      asked = [];
      return questions;
    },
  };
}

/** The form's strings in the user's language, for the host's messages and the webview. */
function localizedStrings(): UiStrings {
  const strings: Partial<Record<UiStringKey, string>> = {};
  for (const key of Object.keys(ENGLISH_STRINGS) as UiStringKey[]) {
    strings[key] = vscode.l10n.t(ENGLISH_STRINGS[key]);
  }
  return UiStringsSchema.parse(strings);
}
