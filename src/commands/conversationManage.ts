/**
 * Keeping or closing a conversation: Rename, Delete and Download (OpenHands 1.11's routes). Each
 * changes the store at once (the row, its sandbox's row and an open panel follow without a poll); a
 * server without the route says so in words, never as an error.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  agentEndpointOf,
  exportedEvents,
  readAllEvents,
  type AgentEndpoint,
  type AgentEvent,
  type AgentServerClient,
  MAX_TITLE_CHARS,
  messageOf,
  sameUuid,
  type AppConversation,
  type Offered,
} from '../api';
import { transcriptMarkdown } from '../webviews/conversation/host/markdownExport';
import type { Log } from '../core/log';
import type { Connection } from '../state/connection';
import { conversationTitle } from '../state/names';
import type { OpenHandsStore } from '../state/store';
import { safeFileName } from './manage/fileNames';
import { writeWholeFile } from './manage/wholeFile';
import { resolveConversation, type CommandTarget } from './targets';

export interface ManageCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  log: Log;
  /** Closes the conversation's panel when one is open; true when it did. */
  closePanel: (conversationId: string) => boolean;
  /** A REST client of an agent server (the feeds' own: the extension's timeout, TLS and log). */
  agentClient: (endpoint: AgentEndpoint) => Pick<AgentServerClient, 'searchEvents'>;
}

export function registerManageCommands({
  store,
  connection,
  log,
  closePanel,
  agentClient,
}: ManageCommandDeps): vscode.Disposable[] {
  return [
    // a title argument (keybindings, other extensions, tests) renames without asking
    vscode.commands.registerCommand(
      'openhands.renameConversation',
      async (target: CommandTarget, given?: unknown) => {
        const conversation = await resolveConversation(
          target,
          store,
          connection,
          vscode.l10n.t('Rename Conversation'),
        );
        if (!conversation) return false;
        const current = conversationTitle(conversation);
        const title =
          typeof given === 'string'
            ? given
            : await vscode.window.showInputBox({
                title: vscode.l10n.t('Rename Conversation'),
                prompt: vscode.l10n.t('The new title of “{0}”', current),
                value: conversation.title ?? '',
                validateInput: (text) =>
                  !text.trim()
                    ? vscode.l10n.t('A title cannot be empty.')
                    : text.trim().length > MAX_TITLE_CHARS
                      ? vscode.l10n.t('A title is at most {0} characters.', MAX_TITLE_CHARS)
                      : undefined,
              });
        if (title === undefined || title.trim() === conversation.title) return false;
        try {
          const renamed = await connection.requireClient().manage.rename(conversation.id, title);
          if (!renamed.offered)
            return notOffered(
              vscode.l10n.t(
                'This OpenHands server cannot rename conversations: OpenHands 1.11 and later can.',
              ),
            );
          store.replaceConversation(renamed.value);
          return true;
        } catch (error) {
          return failed(vscode.l10n.t('Could not rename “{0}”: {1}', current, messageOf(error)), log);
        }
      },
    ),

    vscode.commands.registerCommand('openhands.deleteConversation', async (target: CommandTarget) => {
      const conversation = await resolveConversation(
        target,
        store,
        connection,
        vscode.l10n.t('Delete Conversation'),
      );
      if (!conversation) return false;
      const title = conversationTitle(conversation);
      // an id argument comes from a keybinding, link or extension that already decided: no prompt
      if (typeof target !== 'string' && !(await confirmDelete(conversation, store))) return false;
      let deleted: Offered<unknown>;
      try {
        deleted = await connection.requireClient().manage.delete(conversation.id);
      } catch (error) {
        return failed(vscode.l10n.t('Could not delete “{0}”: {1}', title, messageOf(error)), log);
      }
      if (!deleted.offered)
        return notOffered(
          vscode.l10n.t('This OpenHands server cannot delete conversations: OpenHands 1.11 and later can.'),
        );
      store.removeConversation(conversation.id);
      if (closePanel(conversation.id))
        void vscode.window.showInformationMessage(
          vscode.l10n.t('“{0}” was deleted, so its panel was closed.', title),
        );
      // the server deletes an unshared sandbox after its reply: the sandbox row follows
      void store.refresh();
      return true;
    }),

    // a file path argument (other extensions, tests) saves there without the dialog
    vscode.commands.registerCommand(
      'openhands.downloadConversation',
      async (target: CommandTarget, given?: unknown) => {
        const conversation = await resolveConversation(
          target,
          store,
          connection,
          vscode.l10n.t('Download Conversation'),
        );
        if (!conversation) return undefined;
        const title = conversationTitle(conversation);
        const name = `${safeFileName(title, `conversation-${conversation.id.slice(0, 8)}`)}.zip`;
        const chosen =
          typeof given === 'string' && given
            ? vscode.Uri.file(given)
            : await vscode.window.showSaveDialog({
                title: vscode.l10n.t('Download Conversation'),
                saveLabel: vscode.l10n.t('Download'),
                defaultUri: vscode.Uri.joinPath(defaultFolder(), name),
                filters: { [vscode.l10n.t('Zip archive')]: ['zip'] },
              });
        if (!chosen) return undefined;
        const client = connection.requireClient();
        try {
          const saved = await vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: vscode.l10n.t('Downloading “{0}”…', title),
              cancellable: true,
            },
            async (_progress, token) => {
              const abort = new AbortController();
              const cancelled = token.onCancellationRequested(() => abort.abort());
              try {
                const zip = await client.manage.download(conversation.id, { signal: abort.signal });
                if (!zip.offered) return false;
                await writeWhole(chosen, zip.value, abort.signal);
                return true;
              } finally {
                cancelled.dispose();
              }
            },
          );
          if (!saved)
            return notOffered(
              vscode.l10n.t(
                'This OpenHands server cannot download conversations: OpenHands 1.11 and later can.',
              ),
            );
          void vscode.window.showInformationMessage(
            vscode.l10n.t('“{0}” was saved as {1}.', title, chosen.fsPath),
          );
          return chosen.fsPath;
        } catch (error) {
          if (isCancel(error)) return undefined;
          void failed(vscode.l10n.t('Could not download “{0}”: {1}', title, messageOf(error)), log);
          return undefined;
        }
      },
    ),

    // a file path argument (other extensions, tests) writes there without the dialog
    vscode.commands.registerCommand(
      'openhands.exportConversationMarkdown',
      async (target: CommandTarget, given?: unknown) => {
        const conversation = await resolveConversation(
          target,
          store,
          connection,
          vscode.l10n.t('Export Conversation as Markdown'),
        );
        if (!conversation) return undefined;
        const title = conversationTitle(conversation);
        const name = `${safeFileName(title, `conversation-${conversation.id.slice(0, 8)}`)}.md`;
        const chosen =
          typeof given === 'string' && given
            ? vscode.Uri.file(given)
            : await vscode.window.showSaveDialog({
                title: vscode.l10n.t('Export Conversation as Markdown'),
                saveLabel: vscode.l10n.t('Export'),
                defaultUri: vscode.Uri.joinPath(defaultFolder(), name),
                filters: { [vscode.l10n.t('Markdown')]: ['md'] },
              });
        if (!chosen) return undefined;
        // the pictures' folder is named after the file the user chose, and made one safe segment
        const stem = path.posix.basename(chosen.path).replace(/\.(md|markdown)$/i, '');
        const picturesFolder = `${safeFileName(stem, 'conversation')}_files`;
        try {
          const written = await vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: vscode.l10n.t('Exporting “{0}”…', title),
              cancellable: true,
            },
            async (_progress, token) => {
              const abort = new AbortController();
              const cancelled = token.onCancellationRequested(() => abort.abort());
              try {
                const events = await exportEvents(conversation.id, abort.signal);
                if (!events) return false;
                const exported = transcriptMarkdown(events, {
                  title,
                  secrets: [connection.apiKey ?? '', conversation.session_api_key ?? ''],
                  picturesFolder,
                });
                const folder = vscode.Uri.joinPath(chosen, '..', picturesFolder);
                for (const picture of exported.pictures)
                  await writeWhole(vscode.Uri.joinPath(folder, picture.name), picture.bytes, abort.signal);
                await writeWhole(chosen, Buffer.from(exported.markdown, 'utf8'), abort.signal);
                return true;
              } finally {
                cancelled.dispose();
              }
            },
          );
          if (!written)
            return notOffered(
              vscode.l10n.t(
                'This OpenHands server cannot hand over a conversation to export: OpenHands 1.11 and later can.',
              ),
            );
          void vscode.window.showInformationMessage(
            vscode.l10n.t('“{0}” was exported as {1}.', title, chosen.fsPath),
          );
          return chosen.fsPath;
        } catch (error) {
          if (isCancel(error)) return undefined;
          void failed(vscode.l10n.t('Could not export “{0}”: {1}', title, messageOf(error)), log);
          return undefined;
        }
      },
    ),
  ];

  /**
   * The events the panel reads: the agent server's history while its sandbox runs; else the server's
   * zip (1.11 keeps there what the agent server sent back, which a local process sandbox never does).
   * `undefined`: the server offers neither.
   */
  async function exportEvents(
    conversationId: string,
    signal: AbortSignal,
  ): Promise<AgentEvent[] | undefined> {
    const client = connection.requireClient();
    const [fresh] = await client.getConversations([conversationId], { signal });
    const endpoint = fresh?.sandbox_status === 'RUNNING' ? agentEndpointOf(fresh) : undefined;
    if (endpoint) return (await readAllEvents(agentClient(endpoint), { signal })).events;
    const zip = await client.manage.download(conversationId, { signal });
    return zip.offered ? exportedEvents(zip.value).events : undefined;
  }
}

/** Asks first, saying whether the sandbox goes with it: it does when no other conversation uses it. */
async function confirmDelete(conversation: AppConversation, store: OpenHandsStore): Promise<boolean> {
  const title = conversationTitle(conversation);
  const sandbox = store.sandboxName(conversation.sandbox_id);
  let others: number | undefined;
  try {
    const listed = await store.conversationsOfSandbox(conversation.sandbox_id);
    const count = listed.items.filter((other) => !sameUuid(other.id, conversation.id)).length;
    others = listed.complete || count > 0 ? count : undefined;
  } catch {
    others = undefined;
  }
  const detail =
    others === 0
      ? vscode.l10n.t(
          'No other conversation uses its sandbox “{0}”, so the sandbox and its workspace are deleted too. This cannot be undone.',
          sandbox,
        )
      : others === undefined
        ? vscode.l10n.t(
            'Its sandbox “{0}” is deleted too unless another conversation uses it. This cannot be undone.',
            sandbox,
          )
        : vscode.l10n.t(
            'Its sandbox “{0}” stays: {1} other conversation(s) use it. This cannot be undone.',
            sandbox,
            others,
          );
  const remove = vscode.l10n.t('Delete');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete conversation “{0}”?', title),
    { modal: true, detail },
    remove,
  );
  return choice === remove;
}

/** The workspace's first folder, else the home folder: where a download is offered first. */
function defaultFolder(): vscode.Uri {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
}

async function writeWhole(target: vscode.Uri, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  if (target.scheme === 'file') return writeWholeFile(target.fsPath, bytes, signal);
  // another file system (a remote window's): a temporary file beside the target, renamed over it
  const temporary = target.with({ path: `${target.path}.part` });
  try {
    await vscode.workspace.fs.writeFile(temporary, bytes);
    signal.throwIfAborted();
    await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
  } catch (error) {
    await Promise.resolve(vscode.workspace.fs.delete(temporary)).catch(() => undefined);
    throw error;
  }
}

function isCancel(error: unknown): boolean {
  return (
    (error instanceof Error && error.name === 'AbortError') ||
    (typeof error === 'object' && error !== null && 'kind' in error && error.kind === 'cancelled')
  );
}

/** A route the server does not have: said, not an error. */
function notOffered(message: string): false {
  void vscode.window.showInformationMessage(message);
  return false;
}

function failed(message: string, log: Log): false {
  log.warn(message);
  const showLog = vscode.l10n.t('Show Log');
  void vscode.window.showErrorMessage(message, showLog).then((choice) => {
    if (choice === showLog) log.show();
  });
  return false;
}
