/**
 * Wires conversation panels into the extension: the feeds they follow, the serializer (panels come
 * back after a reload), and a `vscode://` link that opens one. Which conversation a command means is
 * the commands' business (`openhands.openConversation` calls `show`).
 */
import * as vscode from 'vscode';
import { pickModel } from './modelQuickPick';
import { codeRunningReason, normalizeUuid } from '../../../api';
import { FlowNotice } from '../../../core/flowNotice';
import type { Log } from '../../../core/log';
import type { Connection } from '../../../state/connection';
import type { ConversationChanges } from '../../../state/conversationChanges';
import type { ConversationFeeds } from '../../../state/conversationFeeds';
import type { ConversationSteering } from '../../../state/conversationSteering';
import type { ConversationWatch } from '../../../state/conversationWatch';
import type { StartSource } from '../../../state/conversationStart';
import type { ProviderHostsCache } from '../../../state/providerHosts';
import { handedOverHeader } from './handedOverHeader';
import { confirmationPolicyFor } from '../../../state/confirmationPolicy';
import { VIEW_TYPE, type Attachment, type CHANGE_ACTIONS, type Header } from '../shared/protocol';
import type { Row } from '../shared/rows';
import type { PanelChangesSource } from './controller';
import { ImageDocuments } from './imageDocuments';
import { ConversationPanel, type PanelEnvironment, type PanelState } from './panel';

/** "Switch Back" stays a while longer than a plain notice: the user may look at the other server first. */
const SWITCH_BACK_LIFETIME_MS = 30_000;

export interface ConversationPanels {
  /** Opens (or reveals) the panel of a conversation; `start` while it is still starting. */
  show(conversationId: string, title: string, start?: StartSource): void;
  /** The conversation's panel is the active editor of a focused window. */
  isInView(conversationId: string): boolean;
  /** The conversation has a panel (seen or not). */
  isOpen(conversationId: string): boolean;
  /** Opens the panel and puts checked images under its message input (the user sends them). */
  attach(conversationId: string, title: string, images: Attachment[]): void;
  /** Closes the conversation's panel (it was deleted); true when one was open. */
  close(conversationId: string): boolean;
}

/** Hooks for the integration tests, returned only when the extension runs its test suite. */
export interface ConversationPanelTestApi {
  openIds(): string[];
  /** Every message the host sent a conversation's page since the panel opened (or the last `clear`). */
  posted(conversationId: string): unknown[];
  /** Hands a message to a panel's host as if its page had posted it. */
  sendFromWebview(conversationId: string, message: unknown): boolean;
  /** What a panel shows: its header and rows (as sent to the page). */
  snapshot(conversationId: string): { header: Header; rows: Row[] } | undefined;
  feedCount(): number;
  close(conversationId: string): void;
}

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export function registerConversationPanels(
  context: vscode.ExtensionContext,
  deps: {
    connection: Connection;
    feeds: ConversationFeeds;
    steering: ConversationSteering;
    watch: ConversationWatch;
    log: Log;
    changes?: ConversationChanges;
    /** "Set Up the Model…" on a model's failure or silence: asks for the Model page. */
    setUpModel?: () => void;
    /** The providers' self-hosted hosts, for the headers' PR links. */
    providerHosts?: ProviderHostsCache;
    /** Opens a checked link outside VS Code (the tests' extension host records it instead). */
    openExternal?: (uri: vscode.Uri) => Thenable<boolean>;
    /** Where the serializer and the link handler go: `vscode.window`, or the entry's stand-ins registered at activation. */
    registrar: Pick<typeof vscode.window, 'registerWebviewPanelSerializer' | 'registerUriHandler'>;
  },
): { panels: ConversationPanels; testApi: ConversationPanelTestApi | undefined } {
  const { connection, feeds, steering, log } = deps;
  const imageDocuments = new ImageDocuments();
  context.subscriptions.push(imageDocuments);
  /** "… was closed: Switch Back to …", taken back once it is stale. */
  const switchNotice = new FlowNotice(SWITCH_BACK_LIFETIME_MS);
  const env: PanelEnvironment = {
    extensionUri: context.extensionUri,
    acquire: (id) => feeds.acquire(id),
    onDidChangeConversation: feeds.onDidChangeConversation,
    secrets: (lease) => [connection.apiKey, lease.conversation?.session_api_key ?? undefined],
    openLink: (url) => void openLink(url, log, deps.openExternal),
    resumeSandbox: (sandboxId) => vscode.commands.executeCommand('openhands.resumeSandbox', sandboxId),
    openInBrowser: (id) => void vscode.commands.executeCommand('openhands.openConversationInBrowser', id),
    showLog: () => log.show(),
    setUpModel: () => deps.setUpModel?.(),
    warn: (message) => log.warn(message),
    openImage: (id, name, bytes) => void imageDocuments.open(id, name, bytes),
    steer: (id) => ({
      send: (text, resume, onStep, images) => steering.send(id, text, { resume, onStep, images }),
      approve: () => steering.approve(id),
      reject: (reason) => steering.reject(id, reason),
      continue: () => steering.continue(id),
      pause: () => steering.pause(id),
      stop: () => steering.stop(id),
      setConfirmation: (on) =>
        steering.setConfirmationPolicy(id, confirmationPolicyFor(on, connection.config.confirmationPolicy)),
    }),
    opened: (id) => deps.watch.watch(id),
    models: { modelSetup: () => connection.requireClient().modelSetup, pick: pickModel },
    changes: deps.changes ? (id) => panelChanges(id, deps.changes as ConversationChanges) : undefined,
    providerHosts: () => {
      const known = deps.providerHosts?.known();
      // the first panel with a PR asks the server; every header links once it answered
      if (!known) void deps.providerHosts?.read();
      return known;
    },
    onDidChangeProviderHosts: deps.providerHosts?.onDidChange,
    handedOver: (id) => handedOverHeader(deps.changes?.handoff(id)),
    branchAction: (id, action) =>
      void vscode.commands.executeCommand(
        action === 'checkOut' ? 'openhands.checkOutAgentBranch' : 'openhands.openPullRequest',
        id,
      ),
  };

  const recorded = new Map<string, unknown[]>();
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const track = (panel: ConversationPanel) => {
    if (!testing) return;
    const messages: unknown[] = [];
    recorded.set(panel.conversationId, messages);
    panel.onDidPost((message) => messages.push(message));
  };

  context.subscriptions.push(
    deps.registrar.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: PanelState | undefined) => {
        ConversationPanel.revive(panel, state, env);
        const revived =
          typeof state?.conversationId === 'string'
            ? ConversationPanel.find(state.conversationId)
            : undefined;
        if (revived) track(revived);
      },
    }),
    deps.registrar.registerUriHandler({
      handleUri: (uri) => {
        const id = conversationIdOf(uri);
        if (id) void vscode.commands.executeCommand('openhands.openConversation', id);
        else
          void vscode.window.showWarningMessage(vscode.l10n.t('This OpenHands link names no conversation.'));
      },
    }),
    { dispose: () => ConversationPanel.all.forEach((panel) => panel.dispose()) },
    // a panel follows its conversation through the server of the moment: on another server it
    // would show nothing of its own, so it closes and says why
    switchNotice,
    connection.onDidSwitchServer(({ from, to }) => {
      // any switch makes the last "Switch Back" stale: back already, or somewhere else now
      switchNotice.end();
      const open = ConversationPanel.all;
      if (!from || open.length === 0) return;
      for (const panel of open) panel.dispose();
      const back = vscode.l10n.t('Switch Back to {0}', from.name);
      const message =
        open.length === 1
          ? vscode.l10n.t(
              'The conversation of {0} was closed: the views now show {1}.',
              from.name,
              to?.name ?? vscode.l10n.t('no server'),
            )
          : vscode.l10n.t(
              '{0} conversations of {1} were closed: the views now show {2}.',
              open.length,
              from.name,
              to?.name ?? vscode.l10n.t('no server'),
            );
      switchNotice.show(message, { label: back, command: 'openhands.switchServer', args: [from.url] });
    }),
  );

  const panels: ConversationPanels = {
    show: (conversationId, title, start) => {
      const known = ConversationPanel.find(conversationId);
      const panel = ConversationPanel.show(conversationId, title, env, start);
      if (panel && !known) track(panel);
    },
    isInView: (conversationId) => ConversationPanel.find(conversationId)?.inView ?? false,
    isOpen: (conversationId) => ConversationPanel.find(conversationId) !== undefined,
    attach: (conversationId, title, images) => {
      const known = ConversationPanel.find(conversationId);
      panels.show(conversationId, title);
      // a panel just made has no page yet: the images wait for its `ready`
      ConversationPanel.find(conversationId)?.attach(images, known !== undefined);
    },
    close: (conversationId) => {
      const panel = ConversationPanel.find(conversationId);
      panel?.dispose();
      return panel !== undefined;
    },
  };
  if (!testing) return { panels, testApi: undefined };
  return {
    panels,
    testApi: {
      openIds: () => ConversationPanel.all.map((panel) => panel.conversationId),
      posted: (id) => recorded.get(normalizeUuid(id)) ?? [],
      sendFromWebview: (id, message) => {
        const panel = ConversationPanel.find(id);
        panel?.controller.receive(message);
        return panel !== undefined;
      },
      snapshot: (id) => {
        const controller = ConversationPanel.find(id)?.controller;
        return controller ? { header: controller.header(), rows: controller.rows() } : undefined;
      },
      feedCount: () => feeds.openCount,
      close: (id) => ConversationPanel.find(id)?.dispose(),
    },
  };
}

/** `vscode://<extension>/conversation?id=<id>` or `…/conversations/<id>`. */
export function conversationIdOf(uri: vscode.Uri): string | undefined {
  const fromQuery = new URLSearchParams(uri.query).get('id');
  const fromPath = /^\/conversations?\/([0-9a-fA-F-]{32,36})\/?$/.exec(uri.path)?.[1];
  const id = fromQuery ?? fromPath;
  return id && /^[0-9a-f]{32}$/.test(normalizeUuid(id)) ? normalizeUuid(id) : undefined;
}

/** Links from a page open here, after a check: only http(s) and mailto, never command: or file:. */
async function openLink(
  url: string,
  log: Log,
  openExternal: (uri: vscode.Uri) => Thenable<boolean> = (uri) => vscode.env.openExternal(uri),
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (!LINK_SCHEMES.has(parsed.protocol)) {
    log.warn(`Conversation panel: a link with the scheme ${parsed.protocol} was not opened.`);
    return;
  }
  await openExternal(vscode.Uri.parse(parsed.toString(), true));
}

/** The panel's list of changed files: read when the panel opens, kept fresh by `ConversationChanges`. */
function panelChanges(conversationId: string, changes: ConversationChanges): PanelChangesSource {
  void changes.ensure(conversationId);
  const commandOf: Record<(typeof CHANGE_ACTIONS)[number], string> = {
    openAll: 'openhands.openAllChanges',
    apply: 'openhands.applyChanges',
    savePatch: 'openhands.saveChangesAsPatch',
    refresh: 'openhands.refreshChanges',
  };
  return {
    current: () => {
      const state = changes.state(conversationId);
      const files = changes.latest(conversationId)?.files ?? [];
      return {
        state: state.kind,
        files: files.map((file) => {
          const runsCode = codeRunningReason(file);
          return { path: file.path, status: file.status, ...(runsCode ? { runsCode } : {}) };
        }),
        message: state.kind === 'failed' ? state.message : null,
      };
    },
    folder: () => changes.workspaceFolder(conversationId),
    onDidChange: (listener) =>
      changes.onDidChange((id) => {
        if (id === normalizeUuid(conversationId)) listener();
      }),
    open: (file) => void vscode.commands.executeCommand('openhands.openChange', { conversationId, ...file }),
    act: (action) => void vscode.commands.executeCommand(commandOf[action], conversationId),
  };
}
