/**
 * The host side of one conversation panel: a thin mediator between the conversation's feed, the page
 * and the parts that do the work: the transcript (events as rows), the history sender (rows to the
 * page, by `epoch`/`rev`), the header model, the agent's controls (each request answered by id), the
 * message sender, the image broker and the workspace's folder. No vscode import: the panel wires it
 * to the webview.
 */
import type { AppConversation } from '../../../api';
import type { EventFeed } from '../../../api/agentServer/eventFeed';
import type { EventLogChange } from '../../../api/agentServer/eventLog';
import { scrubSecrets } from '../../../api/redact';
import type { Steering } from '../../../state/conversationSteering';
import type { StartSource } from '../../../state/conversationStart';
import type { ProviderHosts } from '../../../state/pullRequestLinks';
import { markOpening } from '../../../common/openingMarks';
import {
  dispatchMessage,
  WebviewToHostSchema,
  type Attachment,
  type BRANCH_ACTIONS,
  type CHANGE_ACTIONS,
  type ChangedFile,
  type HandedOver,
  type PanelChanges,
  type Header,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import type { Row } from '../shared/rows';
import { AgentControls } from './agentControls';
import { executionStatusOf, panelHeader } from './headerModel';
import { HistorySender } from './historySender';
import { ImageBroker } from './imageBroker';
import { MessageSender } from './messageSender';
import { pickAndSwitchModel, type ModelPickerDeps } from './modelPicker';
import { ModelSilence, SYSTEM_CLOCK, type PanelClock } from './modelSilence';
import { scrubDeep, scrubHeader } from './scrub';
import { Transcript, type TranscriptChange } from './rows/transcript';
import { hasWorkspaceHint, WorkspaceFolder } from './workspaceFolder';

/** The agent's changed files for the panel's list, and what the list's buttons do. */
export interface PanelChangesSource {
  current(): PanelChanges;
  /** The workspace's absolute folder, once known: the agent's paths show relative to it. */
  folder(): string | undefined;
  onDidChange(listener: () => void): { dispose(): void };
  open(file: ChangedFile): void;
  act(action: (typeof CHANGE_ACTIONS)[number]): void;
}

export interface ControllerDeps {
  conversationId: string;
  feed: EventFeed;
  /** The app server's view of the conversation, as last read. */
  conversation(): AppConversation | undefined;
  post(message: HostToWebview): void;
  /** Secrets that must never reach the page (the API key, the sandbox's key), read when needed. */
  secrets(): readonly (string | undefined)[];
  openLink(url: string): void;
  resumeSandbox(): void;
  openInBrowser(): void;
  showLog(): void;
  warn(message: string): void;
  /** Shows a checked image whole in an editor tab (`name`: a file name for its tab), or why it cannot be. */
  openImage?(image: { bytes: Buffer; name: string } | { problem: string }): void;
  steer: Steering;
  changes?: PanelChangesSource;
  /** The server's saved profiles and the pick among them, for the header's model picker. */
  models?: PanelModels;
  /** "Set Up the Model…" on the model's problem (runs `openhands.setUpModel`). */
  setUpModel?(): void;
  /** The panel's clock (tests move it): how long a running agent has been silent. */
  clock?: PanelClock;
  /** The providers' self-hosted hosts once known (asked for when a PR is to be linked). */
  providerHosts?(): ProviderHosts | undefined;
  /** The header's Check Out Branch and Open Pull Request (run the commands for this conversation). */
  branchAction?(action: (typeof BRANCH_ACTIONS)[number]): void;
  /** The conversation's start, when the panel opened while it runs: messages are queued until it ends. */
  start?: StartSource;
  /** What the conversation was handed from the user's local state, in words; null when nothing. */
  handedOver?(): HandedOver | null;
}

/** What the model picker needs beyond the conversation. */
export type PanelModels = Pick<ModelPickerDeps, 'modelSetup' | 'pick'>;

export class ConversationController {
  private readonly transcript = new Transcript();
  private readonly history: HistorySender;
  private readonly controls: AgentControls;
  private readonly messages: MessageSender;
  private readonly images: ImageBroker;
  private readonly folder: WorkspaceFolder;
  private readonly silence: ModelSilence;
  /** Images for the message input that wait for the page to load. */
  private attachments: Attachment[] = [];
  private disposed = false;
  private readonly subscriptions: { dispose(): void }[];
  private readonly handlers: MessageHandlers<WebviewToHost>;
  /** Settles once the page has been sent its first rows: the feed's older pages wait for it. */
  private firstRowsSent!: () => void;

  constructor(private readonly deps: ControllerDeps) {
    const { feed } = deps;
    feed.holdOlderUntil(new Promise<void>((resolve) => (this.firstRowsSent = resolve)));
    const headerChanged = () => {
      if (!this.disposed) this.postHeader();
    };
    this.silence = new ModelSilence(deps.clock ?? SYSTEM_CLOCK, headerChanged);
    this.history = new HistorySender({
      post: (message) => deps.post(message),
      rows: () => this.transcript.all,
      clean: (row) => this.clean(row),
      streaming: () => feed.current.streaming,
    });
    this.controls = new AgentControls(deps.steer, headerChanged, (reply) => {
      if (!this.disposed)
        deps.post(reply.error === undefined ? reply : { ...reply, error: this.scrub(reply.error) });
    });
    this.messages = new MessageSender(deps.steer, headerChanged);
    this.images = new ImageBroker({
      wholeEvent: (id) => feed.wholeEvent(id),
      post: (message) => deps.post(message),
      scrub: (text) => this.scrub(text),
      openImage: deps.openImage,
      closed: () => this.disposed,
    });
    this.folder = new WorkspaceFolder(
      () => deps.changes?.folder(),
      () => feed.events.events,
    );
    // the task went with the start request: it waits with the messages queued after it
    const start = deps.start?.view();
    if (start?.phase === 'starting' && deps.start?.task.trim())
      this.messages.outbox.add(deps.start.task, 'queued');
    this.take({ prepended: [], appended: feed.events.events });
    this.folder.learn();
    this.subscriptions = [
      feed.onEvents((change) => {
        this.messages.outbox.confirm(change.appended);
        const transcript = this.take(change);
        // an edit of a listed file can tell where the workspace is: then every row again, relative
        if (hasWorkspaceHint(change) && this.folder.learn()) this.resend();
        else {
          this.history.send(transcript);
          this.postHeader();
        }
      }),
      feed.onState(() => {
        this.history.streamingChanged();
        this.postHeader();
      }),
      ...(deps.start ? [deps.start.onDidChange(() => this.startChanged())] : []),
      ...(deps.changes
        ? [
            deps.changes.onDidChange(() => {
              if (this.folder.learn()) this.resend();
              else headerChanged();
            }),
          ]
        : []),
    ];
    this.handlers = {
      ready: (message) => this.ready(message.epoch, message.rev),
      openLink: (message) => deps.openLink(message.url),
      expand: (message) => void this.expand(message.id),
      resumeSandbox: () => deps.resumeSandbox(),
      reconnect: () => feed.wake(),
      openInBrowser: () => deps.openInBrowser(),
      showLog: () => deps.showLog(),
      setUpModel: () => deps.setUpModel?.(),
      branchAction: (message) => deps.branchAction?.(message.action),
      send: (message) => {
        this.controls.messageSent();
        const start = this.starting();
        if (start) void this.messages.queue(start, message.text, message.images ?? []);
        else void this.messages.send(message.text, message.resume, message.images ?? []);
      },
      dismissOutbox: (message) => {
        const attachments = this.messages.outbox.dismiss(message.id);
        if (!attachments) return;
        headerChanged();
        // the images go back under the input with the text
        if (attachments.length) deps.post({ type: 'attach', images: [...attachments] });
      },
      approve: (message) => void this.controls.approve(message.id),
      reject: (message) => void this.controls.reject(message.id, message.reason),
      continue: (message) => void this.controls.continue(message.id),
      pause: (message) => void this.controls.pause(message.id),
      stop: (message) => void this.controls.stop(message.id),
      setConfirmation: (message) => void this.controls.setConfirmation(message.id, message.on),
      switchModel: (message) => void this.controls.switchModel(message.id, () => this.pickModel()),
      openChange: (message) => deps.changes?.open(message.file),
      changes: (message) => deps.changes?.act(message.action),
      image: (message) => void this.images.send(message.event, message.index),
      openImage: (message) => void this.images.open(message.event, message.index),
    };
  }

  /** The header's model picker: the profiles, the pick, the switch; the feed then says the new model. */
  private pickModel(): Promise<unknown> {
    const models = this.deps.models;
    if (!models) return Promise.reject(new Error('The model cannot be switched from this panel.'));
    return pickAndSwitchModel({
      ...models,
      conversationId: this.deps.conversationId,
      currentModel: () => this.header().model,
    });
  }

  /** A message from the page; malformed ones are dropped. */
  receive(raw: unknown): void {
    const handled = dispatchMessage(WebviewToHostSchema, this.handlers, raw);
    if (!handled.ok) this.deps.warn(`Conversation panel: dropped a malformed message (${handled.problem}).`);
  }

  /**
   * The header as it stands (also sent whenever it changes). Every string in it came from a server
   * or the agent (the title, the model, statuses, tool names, changed paths, errors): scrubbed whole,
   * like the rows.
   */
  header(): Header {
    const { feed, conversationId, changes } = this.deps;
    const conversation = this.deps.conversation();
    const status = executionStatusOf(feed.current, conversation);
    // a feed that is not live hears nothing either way: its own banner says why, not the model
    this.silence.follow(status === 'running' && feed.current.awaitingAgent && feed.current.status === 'live');
    const header = panelHeader({
      conversationId,
      feed: feed.current,
      conversation,
      eventCount: feed.events.size,
      rows: this.transcript,
      outbox: this.messages.outbox.list,
      busy: this.controls.busy,
      rejected: this.controls.rejected(status),
      ...(changes ? { changes: changes.current() } : {}),
      now: Date.now(),
      silentMs: this.silence.silentMs(),
      // the settings are read only for a conversation with a PR to link
      ...(conversation?.pr_number.length ? { providerHosts: this.deps.providerHosts?.() } : {}),
      handedOver: this.deps.handedOver?.() ?? null,
    });
    return scrubHeader(this.withStart(header), this.secrets());
  }

  /**
   * While the start runs the feed finds no conversation yet (the server names it at READY): the
   * header says the start's status instead; a start that failed says why.
   */
  private withStart(header: Header): Header {
    const view = this.deps.start?.view();
    if (view?.phase === 'starting')
      return {
        ...header,
        sandboxStatus: 'STARTING',
        feed: 'connecting',
        feedDetail: null,
        retryInMs: null,
        starting: { status: view.words },
      };
    if (view?.phase === 'failed' && header.feed !== 'live')
      return {
        ...header,
        feed: 'offline',
        feedDetail: view.words,
        retryInMs: null,
        starting: null,
      };
    return header;
  }

  /** The start, while it runs. */
  private starting(): StartSource | undefined {
    const start = this.deps.start;
    return start?.view().phase === 'starting' ? start : undefined;
  }

  /** The start moved on: a finished one lets the feed find the conversation now; a failed one gives the queued texts back. */
  private startChanged(): void {
    if (this.disposed) return;
    const view = this.deps.start?.view();
    if (view?.phase === 'started' || view?.phase === 'stopped') this.deps.feed.wake();
    if (view?.phase === 'failed') this.messages.outbox.failQueued(sentence(view.words));
    this.postHeader();
  }

  /** Bytes of checked images the panel keeps now (within its budget; `npm run bench` reports it). */
  get imageBytes(): number {
    return this.images.bytes;
  }

  /** The rows as the page gets them (scrubbed), oldest first. */
  rows(): Row[] {
    return this.transcript.all.map((row) => this.clean(row));
  }

  /** The app server's view changed (title, sandbox status): the header follows. */
  conversationChanged(): void {
    this.postHeader();
  }

  dispose(): void {
    this.disposed = true;
    this.silence.dispose();
    // a panel closed before its page loaded holds the history back no longer
    this.firstRowsSent();
    this.history.dispose();
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  /** Images for the page's message input: now when the page is there (`shown`), else once it is ready. */
  attach(images: Attachment[], shown: boolean): void {
    if (shown) this.deps.post({ type: 'attach', images });
    else this.attachments.push(...images);
  }

  private postHeader(): void {
    this.deps.post({ type: 'header', header: this.header() });
  }

  private ready(epoch: number | undefined, rev: number | undefined): void {
    markOpening('pageReady');
    if (this.attachments.length) {
      this.deps.post({ type: 'attach', images: this.attachments.splice(0) });
    }
    if (this.history.isCurrent(epoch, rev)) this.postHeader();
    else this.resend();
    this.firstRowsSent();
  }

  private resend(): void {
    this.history.resend(this.header());
  }

  private take(change: EventLogChange): TranscriptChange {
    const older = change.prepended.length
      ? this.transcript.prepend(change.prepended)
      : { start: [], end: [], removed: [] };
    const newer = change.appended.length
      ? this.transcript.append(change.appended)
      : { start: [], end: [], removed: [] };
    return {
      start: older.start,
      end: [...older.end, ...newer.end],
      removed: [...older.removed, ...newer.removed],
    };
  }

  /** "Show all": the row from its events read whole (huge strings were cut when they arrived). */
  private async expand(id: string): Promise<void> {
    const ids = this.transcript.sourcesOf(id).map((event) => event.id);
    if (ids.length === 0) return;
    const whole = await this.deps.feed.wholeEvents(ids);
    // the row changed while its events were read (its observation came): a row built from fewer
    // events would replace the newer one on the page
    if (this.transcript.sourcesOf(id).length !== ids.length) return this.expand(id);
    const row = this.transcript.expand(id, whole);
    if (row) this.deps.post({ type: 'expanded', row: this.clean(row) });
  }

  /** A row as the page may hold it: its edit's path relative to the workspace, no secret in it. */
  private clean(row: Row): Row {
    const secrets = this.secrets();
    const shown = this.folder.relative(row);
    return secrets.length === 0 ? shown : scrubDeep(shown, secrets);
  }

  private scrub(text: string): string {
    return scrubSecrets(text, this.secrets());
  }

  /** The secrets of the moment, and every sandbox key the events were read with (a paused sandbox has none). */
  private secrets(): string[] {
    return [...this.deps.secrets(), ...this.deps.feed.events.sessionKeys].filter(
      (secret): secret is string => !!secret,
    );
  }
}

/** The server's words as a sentence (the page puts more after them). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
