/**
 * The form's host as it is once first opened or restored: its storage, strings, save, the check of
 * MCP servers and the panel. `register.ts` imports it then, so the build makes it a chunk of its own.
 */
import * as vscode from 'vscode';
import { probeMcpServers } from '../../../api/mcpProbe';
import type { Connection } from '../../../state/connection';
import type { Log } from '../../../core/log';
import type { MementoManager } from '../../../core/mementoManager';
import type { SecretsManager } from '../../../core/secretsManager';
import { FormController } from './formController';
import { FormSave } from './formSave';
import { VscodeFormStorage } from './formStorage';
import { McpFormPanel, type PanelEnvironment } from './panel';
import { ENGLISH_STRINGS, UiStringsSchema, type UiStringKey, type UiStrings } from '../shared/uiStrings';

export { McpFormPanel };

export interface FormHostDeps {
  extensionUri: vscode.Uri;
  connection: Connection;
  log: Log;
  secrets: SecretsManager;
  mementos: MementoManager;
  /** Asks whether to save when an MCP server did not answer (the integration tests answer it). */
  confirm(question: FormQuestion): Promise<boolean>;
}

/** The question a save asks when an MCP server did not answer, in the user's language. */
export interface FormQuestion {
  lines: string[];
  strings: UiStrings;
}

export interface FormHost {
  store: VscodeFormStorage;
  /** Opens the form, or reveals it. */
  show(): void;
  /** The panel VS Code restored after a reload. */
  revive(panel: vscode.WebviewPanel): void;
}

export function createFormHost(deps: FormHostDeps): FormHost {
  const { connection, log } = deps;
  const store = new VscodeFormStorage(deps.secrets.mcpForm, deps.mementos);
  const strings = localizedStrings();
  const form = new FormSave(store, log, strings);
  const env: PanelEnvironment = {
    extensionUri: deps.extensionUri,
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
        mcpCheck: {
          probe: (targets) => probeMcpServers(targets),
          confirm: (lines) => deps.confirm({ lines, strings }),
        },
      }),
  };
  return {
    store,
    show: () => void McpFormPanel.show(env),
    revive: (panel) => void McpFormPanel.revive(panel, env),
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
