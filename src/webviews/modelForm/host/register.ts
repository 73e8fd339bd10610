/**
 * Wires the Model page into the extension: the command `openhands.setUpModel` (others offer it by this
 * id), the panel's serializer, and the reaction to another server or key.
 */
import * as vscode from 'vscode';
import type { Connection } from '../../../state/connection';
import type { Log } from '../../../core/log';
import type { ServerSecrets } from '../../../core/secretsManager';
import { ModelController } from './modelController';
import { ModelFormPanel, type ModelPanelEnvironment } from './panel';
import { VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import {
  ENGLISH_STRINGS,
  format,
  UiStringsSchema,
  type UiStringKey,
  type UiStrings,
} from '../shared/uiStrings';

/** "OpenHands: Set Up the Model…": Connect, New Conversation and the panel offer it by this id. */
export const SET_UP_MODEL_COMMAND = 'openhands.setUpModel';

/** Hooks for the integration tests, returned only when the extension runs its test suite. */
export interface ModelFormTestApi {
  /** The LLM key kept for a server. */
  storedKey(serverUrl: string): Promise<string | undefined>;
  clearStoredKey(serverUrl: string): Promise<void>;
  /**
   * Hands a message to the open panel's host as if its page had posted it, and resolves with what the
   * host sent back once it is done. Undefined when no panel is open.
   */
  sendFromWebview(message: unknown): Promise<HostToWebview[] | undefined>;
  /** Every message posted to the page since the panel opened. */
  postedSinceOpen(): HostToWebview[];
  isPanelOpen(): boolean;
  closePanel(): void;
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
  const strings = localizedStrings();
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

  const env: ModelPanelEnvironment = {
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
  };

  let lastClient = connection.client;
  context.subscriptions.push(
    vscode.commands.registerCommand(SET_UP_MODEL_COMMAND, () => {
      if (!ModelFormPanel.open) posted = [];
      ModelFormPanel.show(env);
    }),
    deps.registrar.registerWebviewPanelSerializer(VIEW_TYPE, {
      // the page restores its form from its state; the host only needs to exist again
      deserializeWebviewPanel: async (panel) => void ModelFormPanel.revive(panel, env),
    }),
    connection.onDidChange(() => {
      if (connection.client === lastClient) return;
      lastClient = connection.client;
      ModelFormPanel.open?.controller.serverChanged();
    }),
    { dispose: () => ModelFormPanel.open?.dispose() },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    storedKey: async (serverUrl) => deps.llmKeys.get(serverUrl),
    clearStoredKey: (serverUrl) => deps.llmKeys.clear(serverUrl),
    sendFromWebview: async (message) => {
      const panel = ModelFormPanel.open;
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
    postedSinceOpen: () => [...posted],
    isPanelOpen: () => ModelFormPanel.open !== undefined,
    closePanel: () => ModelFormPanel.open?.dispose(),
    answerDelete: (answer) => {
      deleteAnswer = answer;
    },
    globalStateText: () =>
      JSON.stringify(context.globalState.keys().map((key) => [key, context.globalState.get(key)])),
  };
}

/** The page's strings in the user's language, for the host's messages and the page. */
function localizedStrings(): UiStrings {
  const strings: Partial<Record<UiStringKey, string>> = {};
  for (const key of Object.keys(ENGLISH_STRINGS) as UiStringKey[]) {
    strings[key] = vscode.l10n.t(ENGLISH_STRINGS[key]);
  }
  return UiStringsSchema.parse(strings);
}
