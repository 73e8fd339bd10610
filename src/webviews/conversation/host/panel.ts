/**
 * A conversation in an editor tab: one panel per conversation (revealed when opened again),
 * restored after a reload by the serializer of `VIEW_TYPE`. The page is not retained while hidden:
 * the controller keeps the transcript and sends it again when the page comes back.
 */
import * as vscode from 'vscode';
import { normalizeUuid } from '../../../api';
import type { FeedLease } from '../../../state/conversationFeeds';
import { webviewDocument } from '../../kit/host/document';
import { newNonce, postChecked, webviewAsset, webviewOptions } from '../../kit/host/panel';
import {
  HostToWebviewSchema,
  VIEW_TYPE,
  type Attachment,
  type BRANCH_ACTIONS,
  type HandedOver,
  type HostToWebview,
} from '../shared/protocol';
import type { ProviderHosts } from '../../../state/pullRequestLinks';
import type { Steering } from '../../../state/conversationSteering';
import type { StartSource } from '../../../state/conversationStart';
import { markOpening } from '../../../common/openingMarks';
import { ConversationController, type PanelChangesSource, type PanelModels } from './controller';

export interface PanelEnvironment {
  extensionUri: vscode.Uri;
  acquire(conversationId: string): FeedLease;
  /** Fires with a conversation id when the app server's view of it changed. */
  onDidChangeConversation: vscode.Event<string>;
  secrets(lease: FeedLease): readonly (string | undefined)[];
  openLink(url: string): void;
  /** Resumes the sandbox; settles when the command is done (the sandbox running, or the attempt over). */
  resumeSandbox(sandboxId: string): Thenable<unknown>;
  openInBrowser(conversationId: string): void;
  showLog(): void;
  /** Asks for the Model page (`openhands.setUpModel`). */
  setUpModel(): void;
  warn(message: string): void;
  /** Opens a checked image of a conversation whole in an editor tab. */
  openImage(conversationId: string, name: string, bytes: Uint8Array): void;
  /** What the panel tells the conversation's agent. */
  steer(conversationId: string): Steering;
  /** A panel opened: the conversation is watched from now on. */
  opened(conversationId: string): void;
  /** The agent's changed files of a conversation, for the panel's list. */
  changes?(conversationId: string): PanelChangesSource;
  /** The server's saved profiles and the pick among them, for the header's model picker. */
  models?: PanelModels;
  /** The providers' self-hosted hosts once known; asking starts the read. */
  providerHosts?(): ProviderHosts | undefined;
  /** Fires when the providers' hosts became known (the headers link their PRs). */
  onDidChangeProviderHosts?: vscode.Event<void>;
  /** The header's Check Out Branch and Open Pull Request. */
  branchAction?(conversationId: string, action: (typeof BRANCH_ACTIONS)[number]): void;
  /** What a conversation was handed from the user's local state, for its header; null when nothing. */
  handedOver?(conversationId: string): HandedOver | null;
}

/**
 * Conversation panels open at once: each holds a live feed (up to 64 MB of events) and a webview
 * process; ten is more than fit side by side, and keeps a window with many tabs bounded.
 */
export const MAX_OPEN_PANELS = 10;

/** What VS Code keeps for a reload: the page's state must carry the conversation id. */
export interface PanelState {
  conversationId?: unknown;
}

export class ConversationPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ConversationPanel>();

  private readonly disposables: vscode.Disposable[] = [];
  private readonly lease: FeedLease;
  private readonly posted = new vscode.EventEmitter<HostToWebview>();
  /** Every message sent to the page (tests observe the transcript through it). */
  readonly onDidPost = this.posted.event;
  readonly controller: ConversationController;
  private disposed = false;

  static get all(): readonly ConversationPanel[] {
    return [...ConversationPanel.panels.values()];
  }

  static find(conversationId: string): ConversationPanel | undefined {
    return ConversationPanel.panels.get(normalizeUuid(conversationId));
  }

  /**
   * The conversation's panel, revealed or opened; undefined (and the user told) when too many are open.
   * `start`: the conversation is still starting (a new panel says so and queues what is typed).
   */
  static show(
    conversationId: string,
    title: string,
    env: PanelEnvironment,
    start?: StartSource,
  ): ConversationPanel | undefined {
    const existing = ConversationPanel.find(conversationId);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    if (ConversationPanel.panels.size >= MAX_OPEN_PANELS) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'OpenHands keeps at most {0} conversations open. Close one to open another.',
          MAX_OPEN_PANELS,
        ),
      );
      return undefined;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, title, vscode.ViewColumn.Active, {
      ...webviewOptions(env.extensionUri),
      retainContextWhenHidden: false,
      enableFindWidget: true,
    });
    markOpening('panelCreated');
    return new ConversationPanel(panel, normalizeUuid(conversationId), env, start);
  }

  /** After a reload: the panel VS Code restored, for the conversation its page remembered. */
  static revive(panel: vscode.WebviewPanel, state: PanelState | undefined, env: PanelEnvironment): void {
    const id = typeof state?.conversationId === 'string' ? normalizeUuid(state.conversationId) : undefined;
    if (
      !id ||
      !/^[0-9a-f]{32}$/.test(id) ||
      ConversationPanel.find(id) ||
      ConversationPanel.panels.size >= MAX_OPEN_PANELS
    ) {
      panel.dispose();
      return;
    }
    new ConversationPanel(panel, id, env);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    readonly conversationId: string,
    env: PanelEnvironment,
    start?: StartSource,
  ) {
    ConversationPanel.panels.set(conversationId, this);
    panel.iconPath = vscode.Uri.joinPath(env.extensionUri, 'media', 'openhands.svg');
    panel.webview.options = webviewOptions(env.extensionUri);
    this.lease = env.acquire(conversationId);
    const lease = this.lease;
    this.controller = new ConversationController({
      conversationId,
      feed: lease.feed,
      conversation: () => lease.conversation,
      post: (message) => this.post(message, env),
      secrets: () => env.secrets(lease),
      openLink: (url) => env.openLink(url),
      resumeSandbox: () => {
        const sandboxId = lease.conversation?.sandbox_id;
        // follow at once when it runs again, not at the views' next refresh
        if (sandboxId)
          void Promise.resolve(env.resumeSandbox(sandboxId)).then(
            () => lease.feed.wake(),
            () => undefined,
          );
      },
      openInBrowser: () => env.openInBrowser(conversationId),
      showLog: () => env.showLog(),
      setUpModel: () => env.setUpModel(),
      warn: (message) => env.warn(message),
      openImage: (image) => {
        if ('problem' in image) void vscode.window.showWarningMessage(image.problem);
        else env.openImage(conversationId, image.name, image.bytes);
      },
      steer: env.steer(conversationId),
      changes: env.changes?.(conversationId),
      models: env.models,
      providerHosts: env.providerHosts && (() => env.providerHosts?.()),
      branchAction: (action) => env.branchAction?.(conversationId, action),
      start,
      handedOver: () => env.handedOver?.(conversationId) ?? null,
    });
    env.opened(conversationId);
    this.retitle();
    panel.webview.html = html(panel.webview, env);
    markOpening('htmlSet');
    this.disposables.push(
      this.posted,
      panel.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(raw)),
      env.onDidChangeConversation((id) => {
        if (id !== conversationId) return;
        this.retitle();
        this.controller.conversationChanged();
      }),
      panel.onDidDispose(() => this.dispose()),
      ...(env.onDidChangeProviderHosts
        ? [env.onDidChangeProviderHosts(() => this.controller.conversationChanged())]
        : []),
    );
  }

  /** The panel is the active editor of a focused window: the user is looking at it. */
  /** Images for the message input: the page shows them at once when it is there, else when it loads. */
  attach(images: Attachment[], pageLoaded: boolean): void {
    this.controller.attach(images, pageLoaded && this.panel.visible);
  }

  get inView(): boolean {
    return this.panel.active && this.panel.visible && vscode.window.state.focused;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (ConversationPanel.panels.get(this.conversationId) === this)
      ConversationPanel.panels.delete(this.conversationId);
    this.controller.dispose();
    this.lease.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private retitle(): void {
    this.panel.title = this.controller.header().title;
  }

  private post(message: HostToWebview, env: PanelEnvironment): void {
    if (this.disposed) return;
    const sent = postChecked(this.panel.webview, HostToWebviewSchema, message, () =>
      env.warn(`Conversation panel: not sending an invalid ${message.type} message to the page.`),
    );
    if (sent) this.posted.fire(sent);
  }
}

function html(webview: vscode.Webview, env: PanelEnvironment): string {
  const asset = (name: string) => webviewAsset(webview, env.extensionUri, name);
  return webviewDocument({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: asset('conversation.js'),
    stylesheets: [
      { href: asset('codicon.css'), id: 'vscode-codicon-stylesheet' },
      { href: asset('conversation.css') },
    ],
    title: vscode.l10n.t('OpenHands Conversation'),
    lang: vscode.env.language,
    body: '<main id="app" aria-busy="true"></main>',
    blobImages: true,
  });
}
