/**
 * Wires a form's panel into the extension: the command that opens it, the serializer (so the panel
 * survives a reload), the reaction to another server or key, and the test hooks both forms share.
 */
import * as vscode from 'vscode';
import type { Connection } from '../../../state/connection';
import {
  FormPanelSlot,
  type FormPage,
  type FormPanelController,
  type FormPanelEnvironment,
} from './formPanel';

export interface FormPanelRegistration<Message extends { type: string }, Controller> {
  command: string;
  page: FormPage<Message>;
  env: FormPanelEnvironment<Message, Controller>;
  connection: Pick<Connection, 'client' | 'onDidChange'>;
  /** Where the panel's serializer goes: `vscode.window`, or the entry's stand-in registered at activation. */
  registrar: Pick<typeof vscode.window, 'registerWebviewPanelSerializer'>;
  /** Before the command opens a new panel (not when it brings an open one forward). */
  beforeOpen?(): void;
}

export function registerFormPanel<Message extends { type: string }, Controller extends FormPanelController>(
  context: vscode.ExtensionContext,
  registration: FormPanelRegistration<Message, Controller>,
): FormPanelSlot<Message, Controller> {
  const { connection } = registration;
  const panels = new FormPanelSlot(registration.page, registration.env);
  let lastClient = connection.client;
  context.subscriptions.push(
    vscode.commands.registerCommand(registration.command, () => {
      if (!panels.open) registration.beforeOpen?.();
      panels.show();
    }),
    registration.registrar.registerWebviewPanelSerializer(registration.page.viewType, {
      // The page restores its form from its state; the host only needs to exist again.
      deserializeWebviewPanel: async (panel) => void panels.revive(panel),
    }),
    connection.onDidChange(() => {
      if (connection.client === lastClient) return;
      lastClient = connection.client;
      panels.open?.controller.serverChanged();
    }),
    panels,
  );
  return panels;
}

/** The hooks of the integration tests that both forms offer. */
export interface FormPanelTestApi<Message> {
  /**
   * Hands a message to the open panel's host as if its page had posted it, and resolves with what
   * the host sent back once it is done. Undefined when no panel is open.
   */
  sendFromWebview(message: unknown): Promise<Message[] | undefined>;
  isPanelOpen(): boolean;
  closePanel(): void;
}

export function formPanelTestApi<Message extends { type: string }, Controller extends FormPanelController>(
  panels: FormPanelSlot<Message, Controller>,
): FormPanelTestApi<Message> {
  return {
    sendFromWebview: async (message) => {
      const panel = panels.open;
      if (!panel) return undefined;
      const answers: Message[] = [];
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
    isPanelOpen: () => panels.open !== undefined,
    closePanel: () => panels.open?.dispose(),
  };
}
