import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  ApiError,
  StartTaskFailedError,
  type AppConversation,
  type AppConversationStartRequest,
  type ConfirmationPolicy,
  type SandboxInfo,
  messageOf,
  sameUuid,
} from '../api';
import {
  contextLabel,
  MAX_CONTEXT_CHARS,
  messageWithContext,
  type EditorContext,
} from '../conversations/editorContext';
import { configuredMcpServers, mayBeMcpStartFailure, namedServers } from '../conversations/mcpStartHint';
import { startStatusMessage } from '../conversations/startStatus';
import { ConversationStart } from '../state/conversationStart';
import { workspaceRepository } from '../conversations/workspaceGit';
import { askForProfile, type ProfileStep } from '../conversations/profileStep';
import { askForHandoff, type HandoffPlan, type HandoffStep } from './handoffStep';
import { handOver } from './handoffDelivery';
import type { Connection } from '../state/connection';
import type { HandoffRecords } from '../state/handoffRecords';
import type { Log } from '../core/log';
import { rememberAsked } from '../state/askedWords';
import { conversationTitle, shortSpec } from '../state/names';
import { sandboxStatusStyle } from '../views/statusStyle';
import type { OpenHandsStore } from '../state/store';
import { resolveConversation, type CommandTarget } from './targets';
import { localChanges } from './changes/localChanges';
import type { ConversationPanels } from '../webviews/conversation/host/register';
import { startPolicy } from '../state/confirmationPolicy';
import type { ConversationSteering } from '../state/conversationSteering';
import type { ConversationWatch } from '../state/conversationWatch';
import { checkModel, needsModelSetup, type ModelCheck } from '../state/modelCheck';
import { missingModelText, setUpModelLabel, type ModelSetupOffer } from '../views/modelOffer';
import type { ModelReadyContext } from '../views/modelReadyContext';

/** Arguments other extensions, links and tests may pass to skip the prompts. */
export interface NewConversationArgs {
  message?: string;
  /** `owner/repo`; null for none. */
  repository?: string | null;
  branch?: string | null;
  /** An existing sandbox; null for a new one. */
  sandboxId?: string | null;
  gitProvider?: string | null;
  /** A saved LLM profile (OpenHands 1.11) to start on, skipping the model step. */
  profile?: string;
}

/** `openhands.newConversationFromEditor` arguments beyond the explorer's file: `instruction` skips its prompt. */
export interface EditorConversationArgs extends Omit<NewConversationArgs, 'message'> {
  instruction?: string;
  /** A file (URI string) to talk about instead of the active editor's selection, as from the explorer. */
  file?: string;
}

export interface ConversationCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  log: Log;
  reveal: (conversation: AppConversation) => Thenable<void>;
  panels: ConversationPanels;
  steering: ConversationSteering;
  watch: ConversationWatch;
  /** Where New Conversation remembers the model profile chosen last (a name, no secret). */
  workspaceState: vscode.Memento;
  /** Where a hand-off to a new conversation is kept, for Apply and the panel's header. */
  handoffRecords: Pick<HandoffRecords, 'save'>;
  modelOffer: Pick<ModelSetupOffer, 'open'>;
  modelReady: Pick<ModelReadyContext, 'report'>;
  /**
   * The server holds messages for a conversation still starting (1.11's pending messages, as its
   * /openapi.json says): the panel then opens at once and queues what is typed.
   */
  queueOffered?: () => Promise<boolean>;
}

/**
 * The task typed into a New Conversation that did not start (set up the model first, or cancelled at
 * that question): the next New Conversation offers it again, so nothing typed is lost. Memory only.
 */
interface Draft {
  message?: string;
}

export function registerConversationCommands(given: ConversationCommandDeps): vscode.Disposable[] {
  const { store, connection } = given;
  const deps: FlowDeps = { ...given, draft: {} };
  return [
    vscode.commands.registerCommand(
      'openhands.newConversation',
      (arg?: NewConversationArgs | CommandTarget) => newConversation(deps, arg),
    ),
    // From the editor (its selection, or its file) or the explorer (a file): the code rides along in
    // the first message, after the user's instruction.
    vscode.commands.registerCommand(
      'openhands.newConversationFromEditor',
      async (target?: vscode.Uri | EditorConversationArgs) => {
        const args: EditorConversationArgs = target instanceof vscode.Uri ? {} : (target ?? {});
        const { instruction: given, file, ...rest } = args;
        // the explorer and the editor context menu pass the file's URI
        const uri = target instanceof vscode.Uri ? target : file ? vscode.Uri.parse(file) : undefined;
        const context = await editorContext(uri);
        if (!context) return undefined;
        const instruction =
          given ??
          (await vscode.window.showInputBox({
            title: vscode.l10n.t('New Conversation about {0}', contextLabel(context)),
            prompt: vscode.l10n.t('What should OpenHands do with it? The code is added after your words.'),
            placeHolder: vscode.l10n.t('e.g. Explain why this can throw, then add a test for it'),
            ignoreFocusOut: true,
          }));
        if (instruction === undefined) return undefined;
        return newConversation(deps, { ...rest, message: messageWithContext(instruction, context) });
      },
    ),
    vscode.commands.registerCommand('openhands.openConversation', async (target: CommandTarget) => {
      const conversation = await resolveConversation(target, store, connection);
      if (!conversation) return false;
      deps.panels.show(conversation.id, conversationTitle(conversation));
      return true;
    }),
    vscode.commands.registerCommand('openhands.openConversationInBrowser', async (target: CommandTarget) => {
      const conversation = await resolveConversation(target, store, connection);
      if (!conversation) return false;
      return vscode.env.openExternal(vscode.Uri.parse(conversationWebUrl(connection, conversation)));
    }),
    vscode.commands.registerCommand('openhands.copyConversationId', async (target: CommandTarget) => {
      const conversation = await resolveConversation(target, store, connection);
      if (conversation) await vscode.env.clipboard.writeText(conversation.id);
      return conversation?.id;
    }),
    vscode.commands.registerCommand('openhands.filterConversations', async (filter?: string) => {
      const value =
        typeof filter === 'string'
          ? filter
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Filter Conversations by Title'),
              prompt: vscode.l10n.t(
                'Shows conversations whose title contains this text. Leave empty to show all.',
              ),
              value: store.titleFilter ?? '',
            });
      if (value === undefined) return;
      await store.setTitleFilter(value);
    }),
    vscode.commands.registerCommand('openhands.clearConversationFilter', () =>
      store.setTitleFilter(undefined),
    ),
    vscode.commands.registerCommand('openhands.loadMoreConversations', () =>
      vscode.window.withProgress({ location: { viewId: 'openhands.conversations' } }, () =>
        store.loadMoreConversations(),
      ),
    ),
  ];
}

/**
 * What the new conversation is about: the selection of the active editor when `file` is absent or
 * is that editor's file (the editor context menu passes it), else the whole file (the explorer).
 * Says why and returns undefined when there is nothing to go on.
 */
export async function editorContext(file: vscode.Uri | undefined): Promise<EditorContext | undefined> {
  const active = vscode.window.activeTextEditor;
  const editor = !file || active?.document.uri.toString() === file.toString() ? active : undefined;
  let document = editor?.document;
  if (!document && file) {
    try {
      document = await vscode.workspace.openTextDocument(file);
    } catch (error) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Cannot read {0} as text: {1}',
          vscode.workspace.asRelativePath(file, false),
          messageOf(error),
        ),
      );
      return undefined;
    }
  }
  if (!document) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a file, or select code in it, to start a conversation about it.'),
    );
    return undefined;
  }
  const path = vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, '/');
  const selection = editor && !editor.selection.isEmpty ? editor.selection : undefined;
  if (!selection) return { path, languageId: document.languageId };
  const text = document.getText(selection);
  if (text.length > MAX_CONTEXT_CHARS) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The selection has {0} characters; select at most {1}, or start the conversation about the whole file (nothing selected).',
        text.length,
        MAX_CONTEXT_CHARS,
      ),
    );
    return undefined;
  }
  // a selection ending at the start of a line does not include that line
  const endLine =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1;
  return { path, languageId: document.languageId, startLine: selection.start.line + 1, endLine, text };
}

/** The server's web UI page for a conversation. */
export function conversationWebUrl(connection: Connection, conversation: AppConversation): string {
  return `${connection.config.serverUrl ?? connection.config.rawServerUrl}/conversations/${conversation.id}`;
}

type FlowDeps = ConversationCommandDeps & { draft: Draft };

async function newConversation(
  deps: FlowDeps,
  arg: NewConversationArgs | CommandTarget,
): Promise<string | undefined> {
  const { connection, log } = deps;
  const client = connection.requireClient();
  const args: NewConversationArgs = isArgs(arg) ? { ...arg } : {};
  // from a sandbox row or with a sandbox id: start in that sandbox
  if (!isArgs(arg) && typeof arg === 'object' && arg.kind === 'sandbox') args.sandboxId = arg.sandbox.id;
  if (typeof arg === 'string') args.sandboxId = arg;

  // read while the user types: the answer is there when the task is
  const modelRead = checkModel(client, {
    onFailure: (reason) =>
      log.warn(`New conversation: could not read whether the model is set up: ${reason}`),
  });
  const request = await askForRequest(deps, args);
  if (!request) return undefined;
  const typed =
    request.initial_message?.content.map((part) => ('text' in part ? part.text : '')).join('') ?? '';
  // nothing typed is lost: a New Conversation that stops here offers it again next time
  const keepTyped = () => {
    if (typed.trim()) deps.draft.message = typed;
  };
  const model = await modelRead;
  deps.modelReady.report(model);
  if (needsModelSetup(model) && !(await startWithoutModel(deps, model))) {
    keepTyped();
    return undefined;
  }
  let profileStep: ProfileStep;
  try {
    profileStep = await askForProfile(
      { modelSetup: client.modelSetup, workspaceState: deps.workspaceState, warn: (text) => log.warn(text) },
      args.profile,
    );
  } catch (error) {
    keepTyped();
    void vscode.window.showErrorMessage(messageOf(error));
    return undefined;
  }
  if (profileStep.kind === 'cancelled') {
    keepTyped();
    return undefined;
  }
  // The local work the remote lacks: asked last before the start, so no built hand-off waits on a question.
  // A caller that named the repository (another extension, a link, a test) chose what the sandbox
  // starts from, and asks for no prompt.
  const handoffStep: HandoffStep =
    args.repository === undefined
      ? await askForHandoff(
          { client, log },
          await workspaceRepository(),
          request.selected_repository ?? undefined,
        )
      : { kind: 'start' };
  if (handoffStep.kind === 'cancelled') {
    keepTyped();
    return undefined;
  }
  if (handoffStep.kind === 'start' && handoffStep.withoutRepository) {
    delete request.selected_repository;
    delete request.selected_branch;
    delete request.git_provider;
  }
  const handoff = handoffStep.kind === 'handoff' ? handoffStep.plan : undefined;
  try {
    return await startConversation(deps, { args, request, typed, profileStep, handoff, keepTyped });
  } finally {
    // The parts are copies of the user's work: they go whatever happened.
    if (handoff) await localChanges().removeHandoff(handoff.handoff);
  }
}

interface StartInput {
  args: NewConversationArgs;
  request: AppConversationStartRequest;
  typed: string;
  profileStep: Exclude<ProfileStep, { kind: 'cancelled' }>;
  handoff: HandoffPlan | undefined;
  keepTyped: () => void;
}

async function startConversation(
  deps: FlowDeps,
  { args, request, typed, profileStep, handoff, keepTyped }: StartInput,
): Promise<string | undefined> {
  const { store, connection, log } = deps;
  const client = connection.requireClient();
  if (handoff?.kind === 'archive') {
    // the sandbox gets the repository from the hand-off: the server clones nothing
    delete request.selected_repository;
    delete request.selected_branch;
    delete request.git_provider;
  }
  if (handoff?.upstreamBranch) request.selected_branch = handoff.upstreamBranch;
  deps.draft.message = undefined;
  const switchTo = profileStep.kind === 'chosen' ? profileStep.switchTo : undefined;
  // The start request has no field for the confirmation policy, nor for a profile's whole LLM
  // (profileStep.ts): start without the message, switch the model and set the policy, then send it,
  // so the agent's first step already runs on the chosen model and under the chosen policy.
  const policy = startPolicy(connection.config.confirmationPolicy);
  // what the user asked names the conversation until the server titles it
  const asked = typed;
  if (policy || switchTo || handoff) delete request.initial_message;
  // Messages queued on the server reach the agent as the start ends, before anything sent after it:
  // only when the task itself goes with the start request is their order the user's.
  const early = !policy && !switchTo && !handoff && ((await deps.queueOffered?.()) ?? false);
  const start = early ? openWhileStarting(deps, request, asked) : undefined;

  const controller = new AbortController();
  try {
    const ready = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('New OpenHands conversation'),
        cancellable: true,
      },
      async (progress, token) => {
        const cancellation = token.onCancellationRequested(() => controller.abort());
        try {
          const task = await client.createConversation(request, { signal: controller.signal });
          start?.taskCreated(task.id);
          const report = (words: string) => {
            progress.report({ message: words });
            start?.report(words);
          };
          report(startStatusMessage(task.status));
          return await client.waitForStartTask(task.id, {
            signal: controller.signal,
            intervalMs: 1000,
            onProgress: (update) => report(startStatusMessage(update.status)),
          });
        } finally {
          cancellation.dispose();
        }
      },
    );
    const conversationId = ready.app_conversation_id;
    if (start) {
      start.started();
      // a server that named it otherwise (it ignored the id asked for): the panel opened for nothing
      if (!conversationId || !sameUuid(conversationId, request.conversation_id))
        deps.panels.close(request.conversation_id ?? '');
    }
    if (conversationId) deps.watch.watch(conversationId);
    if (conversationId) rememberAsked(conversationId, asked);
    if (conversationId && (policy || switchTo)) {
      // with a hand-off, the task waits for it too
      const applied = await prepareThenSend(deps, conversationId, { switchTo, policy }, handoff ? '' : asked);
      if (!applied) return conversationId;
    }
    if (conversationId && handoff) {
      const handed = await handOver(deps, conversationId, handoff, asked);
      if (!handed) {
        keepTyped();
        return conversationId;
      }
    }
    await store.refresh();
    const conversation = conversationId ? store.findConversation(conversationId) : undefined;
    if (conversation) await deps.reveal(conversation);
    log.info(`Conversation ${conversationId} started in sandbox ${ready.sandbox_id}.`);
    // its panel is open already and says so itself
    if (start && conversationId && deps.panels.isOpen(conversationId)) return conversationId;
    const open = vscode.l10n.t('Open Conversation');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('The conversation has started.'), open)
      .then((choice) => {
        if (choice === open && conversationId)
          void vscode.commands.executeCommand('openhands.openConversation', conversationId);
      });
    return conversationId ?? undefined;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'cancelled') {
      start?.stopped();
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Stopped waiting. The conversation may still start on the server; it will appear in the list.',
        ),
      );
      return undefined;
    }
    const failure =
      error instanceof StartTaskFailedError || error instanceof ApiError ? error.message : String(error);
    const mcpHint = mayBeMcpStartFailure(error) ? await mcpServersHint(client, log) : undefined;
    const message = mcpHint ? `${failure} ${mcpHint}` : failure;
    start?.failed(failure);
    log.error(`New conversation failed: ${message}`);
    const retry = vscode.l10n.t('Retry');
    const checkMcp = vscode.l10n.t('Check MCP Servers');
    const actions = mcpHint ? [checkMcp, retry] : [retry];
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
      if (choice === retry) void vscode.commands.executeCommand('openhands.newConversation', args);
      if (choice === checkMcp) void vscode.commands.executeCommand('openhands.editMcpAndGitProviders');
    });
    return undefined;
  } finally {
    void store.refresh();
  }
}

/**
 * The panel of a conversation not started yet, open at once: its id is chosen here and goes with the
 * start request (1.11 takes it), so the panel follows the conversation once it is READY; meanwhile it
 * shows the start's status, and what the user types there is queued on the server.
 */
function openWhileStarting(
  deps: FlowDeps,
  request: AppConversationStartRequest,
  asked: string,
): ConversationStart {
  const client = deps.connection.requireClient();
  const conversationId = randomUUID().replace(/-/g, '');
  request.conversation_id = conversationId;
  const start = new ConversationStart(
    { queueMessage: (id, text) => client.manage.queueMessage(id, text) },
    startStatusMessage('WORKING'),
    request.initial_message ? asked.trim() : '',
  );
  rememberAsked(conversationId, asked);
  deps.panels.show(
    conversationId,
    asked.trim() ? firstLine(asked) : vscode.l10n.t('New conversation'),
    start,
  );
  return start;
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * When a start failed the way a broken MCP server makes it fail on OpenHands 1.11 (the agent server's
 * 500), names the MCP servers the settings configure; undefined when there are none or the settings
 * cannot be read.
 */
async function mcpServersHint(
  client: Pick<ReturnType<Connection['requireClient']>, 'getSettings'>,
  log: Log,
): Promise<string | undefined> {
  let servers: string[];
  try {
    servers = configuredMcpServers(await client.getSettings());
  } catch (error) {
    log.warn(`New conversation: could not read the settings to name the MCP servers: ${messageOf(error)}`);
    return undefined;
  }
  if (servers.length === 0) return undefined;
  const names = namedServers(servers, (count) => vscode.l10n.t('and {0} more', count));
  return vscode.l10n.t(
    'OpenHands fails every conversation start while an MCP server the sandbox cannot reach is configured; configured: {0}. Check them in MCP & Git Providers.',
    names,
  );
}

/**
 * The chosen model profile, the confirmation policy, then the first message; a failure says what did
 * not happen (the message is never sent without them: it would run on another model, or its actions
 * unconfirmed) and offers the panel.
 */
async function prepareThenSend(
  deps: ConversationCommandDeps,
  conversationId: string,
  before: { switchTo: string | undefined; policy: ConfirmationPolicy | undefined },
  text: string,
): Promise<boolean> {
  let step: 'model' | 'policy' | 'message' = 'model';
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('New OpenHands conversation') },
      async (progress) => {
        if (before.switchTo) {
          progress.report({ message: vscode.l10n.t('Switching to the model of {0}…', before.switchTo) });
          const switched = await deps.connection
            .requireClient()
            .modelSetup.switchProfile(conversationId, before.switchTo);
          if (!switched.offered) throw new Error(vscode.l10n.t('this server cannot switch models'));
        }
        step = 'policy';
        if (before.policy) {
          progress.report({ message: vscode.l10n.t('Setting the confirmation policy…') });
          await deps.steering.setConfirmationPolicy(conversationId, before.policy);
        }
        if (!text.trim()) return;
        step = 'message';
        progress.report({ message: vscode.l10n.t('Sending the first message…') });
        await deps.steering.send(conversationId, text);
      },
    );
    return true;
  } catch (error) {
    const reason = messageOf(error);
    deps.log.error(`New conversation ${conversationId}: the ${step} step failed: ${reason}`);
    const open = vscode.l10n.t('Open Conversation');
    const message =
      step === 'model'
        ? vscode.l10n.t(
            'The conversation started, but it could not be switched to the model of {0} ({1}). Your message was not sent; switch the model from the conversation’s header, then send it.',
            before.switchTo ?? '',
            reason,
          )
        : step === 'policy'
          ? vscode.l10n.t(
              'The conversation started, but its confirmation policy could not be set ({0}). Your message was not sent; send it from the conversation.',
              reason,
            )
          : vscode.l10n.t('The conversation started, but the first message could not be sent ({0}).', reason);
    void vscode.window.showErrorMessage(message, open).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('openhands.openConversation', conversationId);
    });
    return false;
  }
}

/**
 * The server's agent has no usable model: asks before a conversation that would never be answered.
 * True to start anyway; Set Up the Model… asks for the Model page and starts nothing.
 */
async function startWithoutModel(deps: FlowDeps, model: ModelCheck): Promise<boolean> {
  const setUp = setUpModelLabel();
  const startAnyway = vscode.l10n.t('Start Anyway');
  const server = deps.connection.config.serverName;
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} has no model the agent can use.', server),
    {
      modal: true,
      detail: `${missingModelText(model) ?? ''} ${vscode.l10n.t(
        'Set up the model first; what you typed is kept for the next New Conversation.',
      )}`.trim(),
    },
    setUp,
    startAnyway,
  );
  if (answer === setUp) void deps.modelOffer.open();
  return answer === startAnyway;
}

/** Asks for what the arguments did not give; undefined when the user cancelled. */
async function askForRequest(
  { store, draft }: FlowDeps,
  args: NewConversationArgs,
): Promise<AppConversationStartRequest | undefined> {
  const message =
    args.message ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('New Conversation: what should OpenHands do?'),
      prompt: vscode.l10n.t('The first message to the agent. Leave empty to start a blank conversation.'),
      placeHolder: vscode.l10n.t('e.g. Fix the failing unit tests in src/auth'),
      // the task a New Conversation stopped before starting (to set up the model) is offered again
      value: draft.message,
      ignoreFocusOut: true,
    }));
  if (message === undefined) return undefined;

  let repository = args.repository;
  let branch = args.branch;
  let gitProvider = args.gitProvider;
  if (repository === undefined) {
    const workspace = await workspaceRepository();
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('New Conversation: repository'),
      prompt: vscode.l10n.t('owner/repository for the agent to clone, or empty for none.'),
      value: workspace?.repository ?? '',
      ignoreFocusOut: true,
    });
    if (typed === undefined) return undefined;
    repository = typed.trim() || null;
    if (repository && repository === workspace?.repository) {
      gitProvider ??= workspace.provider ?? null;
      branch ??= workspace.branch ?? null;
    }
    if (repository && args.branch === undefined) {
      const typedBranch = await vscode.window.showInputBox({
        title: vscode.l10n.t('New Conversation: branch'),
        prompt: vscode.l10n.t('Branch to check out, or empty for the default branch.'),
        value: branch ?? '',
        ignoreFocusOut: true,
      });
      if (typedBranch === undefined) return undefined;
      branch = typedBranch.trim() || null;
    }
  }

  let sandboxId = args.sandboxId;
  if (sandboxId === undefined) {
    const choice = await pickSandboxForConversation(store);
    if (choice === undefined) return undefined;
    sandboxId = choice;
  }

  const request: AppConversationStartRequest = {};
  if (message.trim())
    request.initial_message = { role: 'user', content: [{ type: 'text', text: message.trim() }] };
  if (repository) request.selected_repository = repository;
  if (branch) request.selected_branch = branch;
  if (gitProvider) request.git_provider = gitProvider;
  if (sandboxId) request.sandbox_id = sandboxId;
  return request;
}

/** A sandbox id, null for a new sandbox, undefined when cancelled. */
async function pickSandboxForConversation(store: OpenHandsStore): Promise<string | null | undefined> {
  if (store.sandboxes.length === 0) await store.refresh();
  const usable = store.sandboxes.filter((s) => s.status === 'RUNNING' || s.status === 'PAUSED');
  if (usable.length === 0) return null;
  const items: (vscode.QuickPickItem & { sandbox: SandboxInfo | null })[] = [
    {
      label: `$(add) ${vscode.l10n.t('New sandbox')}`,
      description: vscode.l10n.t('recommended'),
      sandbox: null,
    },
    ...usable.map((sandbox) => ({
      label: store.sandboxName(sandbox.id),
      description: `${sandboxStatusStyle(sandbox.status).label} · ${shortSpec(sandbox.sandbox_spec_id)}`,
      detail:
        sandbox.status === 'PAUSED'
          ? vscode.l10n.t('Paused: the server resumes it for the conversation.')
          : undefined,
      sandbox,
    })),
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('New Conversation: sandbox'),
    placeHolder: vscode.l10n.t('Where should the conversation run?'),
    ignoreFocusOut: true,
  });
  return chosen === undefined ? undefined : (chosen.sandbox?.id ?? null);
}

function isArgs(value: NewConversationArgs | CommandTarget): value is NewConversationArgs {
  return typeof value === 'object' && !('kind' in value);
}
