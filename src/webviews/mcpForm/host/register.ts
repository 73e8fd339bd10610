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
import { localizedStrings } from '../../kit/host/localizedStrings';
import { formPanelTestApi, registerFormPanel, type FormPanelTestApi } from '../../kit/host/registerFormPanel';
import { HostToWebviewSchema, VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import { ENGLISH_STRINGS, UiStringsSchema } from '../shared/uiStrings';

export const EDIT_COMMAND = 'openhands.editMcpAndGitProviders';

/** Hooks for the integration tests, returned only when the extension runs its test suite. */
export interface McpFormTestApi extends FormPanelTestApi<HostToWebview> {
  /** The secrets kept for a server (the form keeps nothing else). */
  storedSecrets(serverUrl: string): Promise<FormSecrets>;
  clearStoredSecrets(serverUrl: string): Promise<void>;
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
  const strings = localizedStrings(ENGLISH_STRINGS, UiStringsSchema);
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

  const panels = registerFormPanel(context, {
    command: EDIT_COMMAND,
    page: {
      viewType: VIEW_TYPE,
      bundle: 'mcpForm',
      schema: HostToWebviewSchema,
      logName: 'MCP & Git Providers',
    },
    env: {
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
    },
    connection,
    registrar: deps.registrar,
  });

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    ...formPanelTestApi(panels),
    storedSecrets: (serverUrl) => store.load(serverUrl),
    clearStoredSecrets: (serverUrl) => store.clear(serverUrl),
    answerMcpCheck: (answer) => {
      testAnswer = answer;
      const questions = asked;
      asked = [];
      return questions;
    },
  };
}
