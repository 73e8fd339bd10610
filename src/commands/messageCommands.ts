/**
 * Messages to a running conversation from anywhere in VS Code: `openhands.sendMessage` (palette: a
 * conversation, most recent first, then the text) and `openhands.sendSelectionToConversation` (the
 * editor's selection after the user's instruction, as New Conversation about This Code builds it).
 * Says first when the message would run actions waiting for approval, offers Resume and Send for a
 * paused sandbox, shows each step, and keeps the text for Retry when a step fails.
 */
import * as vscode from 'vscode';
import { messageOf, type AppConversation } from '../api';
import { contextLabel, messageWithContext } from '../conversations/editorContext';
import type { Connection } from '../state/connection';
import { SteeringError, type ConversationSteering, type SendStep } from '../state/conversationSteering';
import type { ConversationWatch } from '../state/conversationWatch';
import { conversationTitle } from '../state/names';
import type { OpenHandsStore } from '../state/store';
import { editorContext } from './conversationCommands';
import { resolveConversation, type CommandTarget } from './targets';
import { checkImageBytes, MAX_IMAGE_BYTES } from '../api/agentServer/images';
import type { ConversationPanels } from '../webviews/conversation/host/register';
import { MAX_ATTACHMENTS, type Attachment } from '../webviews/conversation/shared/protocol';

export interface MessageCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  steering: ConversationSteering;
  watch: ConversationWatch;
  panels: ConversationPanels;
}

/** Arguments that skip the prompts (keybindings, other extensions, tests). */
export interface SendMessageArgs {
  conversationId: string;
  message?: string;
  /** Resume a paused sandbox without asking. */
  resume?: boolean;
  /** Send even when actions wait for approval (the message runs them), without asking. */
  runPending?: boolean;
}

export function registerMessageCommands(deps: MessageCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'openhands.sendImageToConversation',
      (uri?: vscode.Uri, selected?: vscode.Uri[], conversationId?: string) =>
        sendImages(deps, selected?.length ? selected : uri ? [uri] : [], conversationId),
    ),
    vscode.commands.registerCommand(
      'openhands.sendMessage',
      async (arg?: SendMessageArgs | CommandTarget) => {
        const args = isArgs(arg) ? arg : undefined;
        const conversation = await pick(deps, isArgs(arg) ? arg.conversationId : arg);
        if (!conversation) return false;
        const text =
          args?.message ??
          (await vscode.window.showInputBox({
            title: vscode.l10n.t('Message to “{0}”', conversationTitle(conversation)),
            prompt: vscode.l10n.t('The agent reads it and goes on working.'),
            ignoreFocusOut: true,
          }));
        if (!text?.trim()) return false;
        return send(deps, conversation, text, args);
      },
    ),
    vscode.commands.registerCommand(
      'openhands.sendSelectionToConversation',
      async (arg?: (SendMessageArgs & { instruction?: string }) | vscode.Uri) => {
        const args = arg instanceof vscode.Uri ? undefined : arg;
        const context = await editorContext(undefined);
        if (!context) return false;
        const conversation = await pick(deps, args?.conversationId);
        if (!conversation) return false;
        const instruction =
          args?.instruction ??
          (await vscode.window.showInputBox({
            title: vscode.l10n.t('Send {0} to “{1}”', contextLabel(context), conversationTitle(conversation)),
            prompt: vscode.l10n.t('What should the agent do with it? The code is added after your words.'),
            ignoreFocusOut: true,
          }));
        if (instruction === undefined) return false;
        return send(deps, conversation, messageWithContext(instruction, context), args);
      },
    ),
  ];
}

/**
 * Images from the explorer (or a file picker) go under a conversation's message input, checked by
 * their bytes; the user adds words and sends them from the panel. Returns whether any was attached.
 */
async function sendImages(
  deps: MessageCommandDeps,
  given: readonly vscode.Uri[],
  conversationId: string | undefined,
): Promise<boolean> {
  const uris = given.length
    ? given
    : ((await vscode.window.showOpenDialog({
        title: vscode.l10n.t('Send Image to Conversation'),
        canSelectMany: true,
        filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
      })) ?? []);
  if (uris.length === 0) return false;
  const images: Attachment[] = [];
  const refused: string[] = [];
  for (const uri of uris.slice(0, MAX_ATTACHMENTS)) {
    const name = uri.path.split('/').pop() ?? 'image';
    const stat = await vscode.workspace.fs.stat(uri).then(
      (found) => found,
      () => undefined,
    );
    if (!stat || stat.size > MAX_IMAGE_BYTES) {
      refused.push(
        stat ? vscode.l10n.t('{0} is larger than 8 MB.', name) : vscode.l10n.t('{0} cannot be read.', name),
      );
      continue;
    }
    const check = checkImageBytes(Buffer.from(await vscode.workspace.fs.readFile(uri)));
    if (check.ok) images.push({ name, mime: check.image.mime, base64: check.image.bytes.toString('base64') });
    else refused.push(vscode.l10n.t('{0} cannot be sent: {1}.', name, check.reason));
  }
  if (uris.length > MAX_ATTACHMENTS)
    refused.push(vscode.l10n.t('A message takes at most {0} images.', MAX_ATTACHMENTS));
  if (refused.length) void vscode.window.showWarningMessage(refused.join(' '));
  if (images.length === 0) return false;
  const conversation = await pick(deps, conversationId);
  if (!conversation) return false;
  deps.panels.attach(conversation.id, conversationTitle(conversation), images);
  return true;
}

function pick(deps: MessageCommandDeps, target: CommandTarget): Promise<AppConversation | undefined> {
  return resolveConversation(
    target,
    deps.store,
    deps.connection,
    vscode.l10n.t('Send to Conversation (most recent first)'),
  );
}

async function send(
  deps: MessageCommandDeps,
  conversation: AppConversation,
  text: string,
  args: Partial<SendMessageArgs> | undefined,
): Promise<boolean> {
  const title = conversationTitle(conversation);
  if (deps.watch.statusOf(conversation) === 'waiting_for_confirmation' && !args?.runPending) {
    const sendAndRun = vscode.l10n.t('Send and Run Them');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('“{0}” is waiting for you to approve actions.', title),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Sending a message runs the actions waiting for approval. To read them first, or reject them, open the conversation.',
        ),
      },
      sendAndRun,
    );
    if (choice !== sendAndRun) return false;
  }
  let resume = args?.resume ?? false;
  if (conversation.sandbox_status !== 'RUNNING' && !resume) {
    const resumeAndSend = vscode.l10n.t('Resume and Send');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('The sandbox of “{0}” is not running.', title),
      { modal: true, detail: vscode.l10n.t('Resume it, wait for its agent, then send the message?') },
      resumeAndSend,
    );
    if (choice !== resumeAndSend) return false;
    resume = true;
  }
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Message to “{0}”', title),
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const cancellation = token.onCancellationRequested(() => abort.abort());
        try {
          await deps.steering.send(conversation.id, text, {
            resume,
            signal: abort.signal,
            onStep: (step) => progress.report({ message: stepText(step) }),
          });
        } finally {
          cancellation.dispose();
        }
      },
    );
  } catch (error) {
    const retry = vscode.l10n.t('Retry');
    const copy = vscode.l10n.t('Copy Message');
    const reason = error instanceof SteeringError ? error.message : messageOf(error);
    void vscode.window
      .showErrorMessage(vscode.l10n.t('The message to “{0}” was not sent: {1}', title, reason), retry, copy)
      .then((choice) => {
        if (choice === retry) void send(deps, conversation, text, { ...args, resume, runPending: true });
        if (choice === copy) void vscode.env.clipboard.writeText(text);
      });
    return false;
  }
  // quiet: the conversation's notification says how it went
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Message sent to “{0}”', title), 5000);
  return true;
}

function stepText(step: SendStep): string {
  switch (step) {
    case 'resuming':
      return vscode.l10n.t('Resuming the sandbox…');
    case 'connecting':
      return vscode.l10n.t('Waiting for the sandbox to answer…');
    case 'sending':
      return vscode.l10n.t('Sending…');
  }
}

function isArgs(value: SendMessageArgs | CommandTarget | undefined): value is SendMessageArgs {
  return typeof value === 'object' && 'conversationId' in value;
}
