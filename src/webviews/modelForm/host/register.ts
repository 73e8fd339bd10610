/**
 * Wires the Model page into the extension: the command `openhands.setUpModel` (others offer it by this
 * id), the panel's serializer, and the reaction to another server or key.
 */
import * as vscode from 'vscode';
import type { Connection } from '../../../state/connection';
import type { Log } from '../../../core/log';
import type { ServerSecrets } from '../../../core/secretsManager';
import { ModelController } from './modelController';
import { localizedStrings } from '../../kit/host/localizedStrings';
import { formPanelTestApi, registerFormPanel, type FormPanelTestApi } from '../../kit/host/registerFormPanel';
import { HostToWebviewSchema, VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import { ENGLISH_STRINGS, format, UiStringsSchema } from '../shared/uiStrings';

/** "OpenHands: Set Up the Model…": Connect, New Conversation and the panel offer it by this id. */
export const SET_UP_MODEL_COMMAND = 'openhands.setUpModel';

/** Hooks for the integration tests, returned only when the extension runs its test suite. */
export interface ModelFormTestApi extends FormPanelTestApi<HostToWebview> {
  /** The LLM key kept for a server. */
  storedKey(serverUrl: string): Promise<string | undefined>;
  clearStoredKey(serverUrl: string): Promise<void>;
  /** Every message posted to the page since the panel opened. */
  postedSinceOpen(): HostToWebview[];
  /** Answers the Delete question (a modal the tests cannot click); undefined asks the user again. */
  answerDelete(answer: boolean | undefined): void;
  /** Everything the extension keeps in globalState, as JSON (tests look for a key in it). */
  globalStateText(): string;
}

export function registerModelForm(
  context: vscode.ExtensionContext,
  deps: {
    connection: Connection;
    log: Log;
    llmKeys: ServerSecrets;
    /** After the page changed the server's model: the walkthrough's readiness reads it again. */
    modelChanged(): void;
    /** Where the panel's serializer goes: `vscode.window`, or the entry's stand-in registered at activation. */
    registrar: Pick<typeof vscode.window, 'registerWebviewPanelSerializer'>;
  },
): ModelFormTestApi | undefined {
  const { connection, log } = deps;
  const strings = localizedStrings(ENGLISH_STRINGS, UiStringsSchema);
  let deleteAnswer: boolean | undefined;
  let posted: HostToWebview[] = [];

  const confirmDelete = async (name: string, active: boolean): Promise<boolean> => {
    if (deleteAnswer !== undefined) return deleteAnswer;
    const choice = await vscode.window.showWarningMessage(
      format(strings.profileDeleteQuestion, name),
      { modal: true, detail: active ? strings.profileDeleteActive : strings.profileDeleteInactive },
      strings.profileDelete,
    );
    return choice === strings.profileDelete;
  };

  const panels = registerFormPanel(context, {
    command: SET_UP_MODEL_COMMAND,
    page: { viewType: VIEW_TYPE, bundle: 'modelForm', schema: HostToWebviewSchema, logName: 'Model page' },
    env: {
      extensionUri: context.extensionUri,
      strings,
      warn: (message) => log.warn(message),
      createController: (post) =>
        new ModelController({
          post: (message) => {
            posted.push(message);
            post(message);
          },
          target: {
            serverUrl: () => connection.config.serverUrl,
            serverName: () => connection.config.serverName,
            client: () => connection.client,
          },
          keys: deps.llmKeys,
          rememberSecret: (value) => connection.rememberSecret(value),
          strings,
          log,
          confirmDelete,
          openInBrowser: (url) => void vscode.env.openExternal(vscode.Uri.parse(url)),
          showLog: () => log.show(),
          configureServer: () => void vscode.commands.executeCommand('openhands.connect'),
          modelChanged: () => deps.modelChanged(),
        }),
    },
    connection,
    registrar: deps.registrar,
    // what the tests read starts with the panel
    beforeOpen: () => {
      posted = [];
    },
  });

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    ...formPanelTestApi(panels),
    storedKey: async (serverUrl) => deps.llmKeys.get(serverUrl),
    clearStoredKey: (serverUrl) => deps.llmKeys.clear(serverUrl),
    postedSinceOpen: () => [...posted],
    answerDelete: (answer) => {
      deleteAnswer = answer;
    },
    globalStateText: () =>
      JSON.stringify(context.globalState.keys().map((key) => [key, context.globalState.get(key)])),
  };
}
