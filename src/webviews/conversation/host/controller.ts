/**
 * The host side of one conversation panel: follows the conversation's feed, keeps its transcript
 * (rows, numbered by `epoch`/`rev`), and sends the page what changed. A page that was just loaded or
 * missed a change asks with `ready` and gets the whole transcript again, newest rows first, so a
 * long conversation paints its end at once. No vscode import: the panel wires it to the webview.
 */
import type { AppConversation } from '../../../api';
import type { EventFeed, FeedState } from '../../../api/agentServer/eventFeed';
import type { EventLogChange } from '../../../api/agentServer/eventLog';
import { messageOf } from '../../../api/errors';
import { scrubSecrets } from '../../../api/redact';
import { absoluteWorkspaceDir, relativeToWorkspace } from '../../../api/agentServer/workspace';
import type { AgentEvent } from '../../../api/agentServer/events';
import { isRecord } from '../../../api/records';
import { checkBase64 } from '../../../api/agentServer/images';
import {
  dispatchMessage,
  WebviewToHostSchema,
  type Attachment,
  type BrowserStrip,
  type CHANGE_ACTIONS,
  type ChangedFile,
  type Controls,
  type PanelChanges,
  type Header,
  type HostToWebview,
  type MessageHandlers,
  type PendingAction,
  type WebviewToHost,
} from '../shared/protocol';
import { STREAMING_ROW_ID, type Row } from '../shared/rows';
import { markOpening } from '../../../common/openingMarks';
import { Outbox } from './outbox';
import { PanelImages } from './panelImages';
import { Transcript, type TranscriptChange } from './transcript';

/** What a send is doing now (`ConversationSteering`'s steps). */
export type SendStep = 'resuming' | 'connecting' | 'sending';

/** What the panel can tell the agent; each settles when the server took it, or fails with a readable error. */
export interface Steering {
  /** `images`: `data:image/…;base64,` URLs the controller checked. */
  send(
    text: string,
    resume: boolean,
    onStep: (step: SendStep) => void,
    images: readonly string[],
  ): Promise<void>;
  approve(): Promise<void>;
  reject(reason: string | undefined): Promise<void>;
  continue(): Promise<void>;
  pause(): Promise<void>;
  stop(): Promise<void>;
  setConfirmation(on: boolean): Promise<void>;
}

type ControlName = NonNullable<Controls['busy']>;

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
}

/** The newest rows sent first after a reset; the rest follows in older chunks. */
const FIRST_CHUNK = 300;
const OLDER_CHUNK = 1000;

export class ConversationController {
  private readonly transcript = new Transcript();
  private epoch = Date.now();
  private rev = 0;
  private streamingShown = false;
  private readonly outbox = new Outbox();
  private readonly images: PanelImages;
  /** Images for the message input that wait for the page to load. */
  private attachments: Attachment[] = [];
  private busy: ControlName | null = null;
  private controlError: string | null = null;
  /** The user rejected the pending actions; the agent waits until told to go on. */
  private rejected = false;
  private disposed = false;
  /** The workspace's absolute folder once known: file-edit rows show their paths relative to it. */
  private folder: string | undefined;
  /** Whether `folder` is certain (the server's, or an edit of a listed file) or read from a command. */
  private folderCertain = false;
  private readonly subscriptions: { dispose(): void }[];
  private readonly handlers: MessageHandlers<WebviewToHost>;
  /** A resend's older rows not yet posted, newest chunk first. */
  private olderChunks: Row[][] = [];
  private olderTimer: ReturnType<typeof setTimeout> | undefined;
  /** Settles once the page has been sent its first rows: the feed's older pages wait for it. */
  private firstRowsSent!: () => void;

  constructor(private readonly deps: ControllerDeps) {
    deps.feed.holdOlderUntil(new Promise<void>((resolve) => (this.firstRowsSent = resolve)));
    this.images = new PanelImages((id) => deps.feed.wholeEvent(id));
    this.take({ prepended: [], appended: deps.feed.events.events });
    this.learnFolder();
    this.subscriptions = [
      deps.feed.onEvents((change) => {
        this.outbox.confirm(change.appended);
        const transcript = this.take(change);
        // an edit of a listed file can tell where the workspace is: then every row again, relative
        if (hasWorkspaceHint(change) && this.learnFolder()) this.resend();
        else this.send(transcript);
      }),
      deps.feed.onState((state) => this.stateChanged(state)),
      ...(deps.changes
        ? [
            deps.changes.onDidChange(() => {
              if (this.learnFolder()) this.resend();
              else this.headerChanged();
            }),
          ]
        : []),
    ];
    this.handlers = {
      ready: (message) => this.ready(message.epoch, message.rev),
      openLink: (message) => deps.openLink(message.url),
      expand: (message) => this.expand(message.id),
      resumeSandbox: () => deps.resumeSandbox(),
      reconnect: () => deps.feed.wake(),
      openInBrowser: () => deps.openInBrowser(),
      showLog: () => deps.showLog(),
      send: (message) => void this.sendMessage(message.text, message.resume, message.images ?? []),
      dismissOutbox: (message) => {
        const attachments = this.outbox.dismiss(message.id);
        if (!attachments) return;
        this.headerChanged();
        // the images go back under the input with the text
        if (attachments.length) this.deps.post({ type: 'attach', images: [...attachments] });
      },
      approve: () => this.control('approve', () => deps.steer.approve()),
      reject: (message) =>
        this.control('reject', async () => {
          await deps.steer.reject(message.reason);
          this.rejected = true;
        }),
      continue: () =>
        this.control('continue', async () => {
          this.rejected = false;
          await deps.steer.continue();
        }),
      pause: () => this.control('pause', () => deps.steer.pause()),
      stop: () => this.control('stop', () => deps.steer.stop()),
      setConfirmation: (message) => this.control('policy', () => deps.steer.setConfirmation(message.on)),
      openChange: (message) => deps.changes?.open(message.file),
      changes: (message) => deps.changes?.act(message.action),
      image: (message) => void this.sendImage(message.event, message.index),
      openImage: (message) => void this.openImage(message.event, message.index),
    };
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
    const state = this.deps.feed.current;
    const conversation = this.deps.conversation();
    const sandboxStatus = conversation?.sandbox_status ?? null;
    const header: Header = {
      conversationId: this.deps.conversationId,
      title: conversation?.title || `Conversation ${this.deps.conversationId.slice(0, 5)}`,
      executionStatus: state.executionStatus ?? conversation?.execution_status ?? null,
      sandboxStatus,
      model: state.model ?? conversation?.llm_model ?? null,
      feed: state.status,
      feedDetail: feedDetail(state),
      retryInMs: state.retryAt === undefined ? null : Math.max(0, state.retryAt - Date.now()),
      notice: state.notice ?? null,
      canResume: sandboxStatus === 'PAUSED' || sandboxStatus === 'MISSING' || sandboxStatus === 'ERROR',
      eventCount: this.deps.feed.events.size,
      controls: this.controls(),
      ...(this.deps.changes ? { changes: this.deps.changes.current() } : {}),
      browser: this.browserStrip(),
    };
    const secrets = this.secrets();
    if (secrets.length === 0) return header;
    const scrubbed = scrubRow(header, secrets) as Header;
    // the user's own unsent words go back into the input as typed
    scrubbed.controls.outbox = header.controls.outbox.map((entry) => ({
      ...entry,
      reason: entry.reason === null ? null : this.scrub(entry.reason),
    }));
    return scrubbed;
  }

  private controls(): Controls {
    const status = this.deps.feed.current.executionStatus ?? this.deps.conversation()?.execution_status;
    if (status === 'running') this.rejected = false;
    return {
      confirmationPolicy: this.deps.feed.current.confirmationPolicy ?? null,
      pendingActions: status === 'waiting_for_confirmation' ? this.pendingActions() : [],
      outbox: [...this.outbox.list],
      busy: this.busy,
      error: this.controlError,
      rejected: this.rejected && status !== 'running',
    };
  }

  /**
   * While the agent browses (it works, and its newest step is a browser step), the newest screenshot it
   * took among its recent steps, with the last address it opened; null otherwise.
   */
  private browserStrip(): BrowserStrip | null {
    const status = this.deps.feed.current.executionStatus ?? this.deps.conversation()?.execution_status;
    if (status !== 'running') return null;
    const rows = this.transcript.recent(50);
    let browsing: boolean | undefined;
    let image: BrowserStrip | null = null;
    let url: string | null = null;
    for (let index = rows.length - 1; index >= 0; index--) {
      const row = rows[index];
      if (row?.kind !== 'action') continue;
      const browser = row.tool.startsWith('browser_');
      browsing ??= browser;
      if (!browsing) return null;
      if (!browser) break;
      const shot = row.images?.[0];
      if (!image && shot) image = { rowId: row.id, image: shot, url: null };
      if (!url && row.summary.startsWith('Open '))
        url = row.summary.slice('Open '.length).split(' ')[0] ?? null;
    }
    return image ? { ...image, url } : null;
  }

  /** The actions at the end of the transcript with no result yet: the ones the agent waits to run. */
  private pendingActions(): PendingAction[] {
    const pending: PendingAction[] = [];
    const rows = this.transcript.all;
    for (let index = rows.length - 1; index >= 0 && rows.length - index <= 200; index--) {
      const row = rows[index];
      if (row?.kind !== 'action' || (row.state !== 'pending' && row.state !== 'awaiting')) continue;
      const action = this.transcript.sourcesOf(row.id).find((event) => event.kind === 'ActionEvent')?.[
        'action'
      ];
      pending.unshift({
        id: row.id,
        tool: row.tool,
        summary: row.summary,
        detail: argumentsText(action),
        risk: row.risk,
      });
    }
    return pending;
  }

  private async sendMessage(
    text: string,
    resume: boolean,
    attachments: readonly Attachment[],
  ): Promise<void> {
    // what the page attached is checked again here, by its bytes: only real images leave
    const checked = attachments.map((attachment) => ({ attachment, check: checkBase64(attachment.base64) }));
    const images = checked.flatMap(({ check }) =>
      check.ok ? [`data:${check.image.mime};base64,${check.image.bytes.toString('base64')}`] : [],
    );
    const refused = checked.find(({ check }) => !check.ok);
    const id = this.outbox.add(
      text,
      resume ? 'resuming' : 'sending',
      checked.flatMap(({ attachment, check }) => (check.ok ? [attachment] : [])),
    );
    this.rejected = false;
    if (refused && !refused.check.ok) {
      this.outbox.step(
        id,
        'failed',
        `the image “${refused.attachment.name}” cannot be sent: ${refused.check.reason}.`,
      );
      this.headerChanged();
      return;
    }
    this.headerChanged();
    try {
      await this.deps.steer.send(
        text,
        resume,
        (step) => {
          if (this.outbox.step(id, step)) this.headerChanged();
        },
        images,
      );
      this.outbox.step(id, 'sent');
    } catch (error) {
      this.outbox.step(id, 'failed', messageOf(error));
    }
    this.headerChanged();
  }

  /** One control at a time; its failure shows in the panel until the next control succeeds. */
  private async control(name: ControlName, act: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = name;
    this.controlError = null;
    this.headerChanged();
    try {
      await act();
    } catch (error) {
      this.controlError = messageOf(error);
    } finally {
      this.busy = null;
      this.headerChanged();
    }
  }

  private headerChanged(): void {
    if (!this.disposed) this.deps.post({ type: 'header', header: this.header() });
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
    this.deps.post({ type: 'header', header: this.header() });
  }

  dispose(): void {
    this.disposed = true;
    // a panel closed before its page loaded holds the history back no longer
    this.firstRowsSent();
    clearTimeout(this.olderTimer);
    this.olderChunks = [];
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  /** Images for the page's message input: now when the page is there (`shown`), else once it is ready. */
  attach(images: Attachment[], shown: boolean): void {
    if (shown) this.deps.post({ type: 'attach', images });
    else this.attachments.push(...images);
  }

  private ready(epoch: number | undefined, rev: number | undefined): void {
    markOpening('pageReady');
    if (this.attachments.length) {
      this.deps.post({ type: 'attach', images: this.attachments.splice(0) });
    }
    if (epoch === this.epoch && rev === this.rev) {
      this.deps.post({ type: 'header', header: this.header() });
    } else this.resend();
    this.firstRowsSent();
  }

  /**
   * Everything again: a reset and the newest rows now, then older chunks back to the first, one a
   * turn (cleaned as they go), so the newest leave before the rest is even read. Anything else the
   * page is sent first flushes what is left, keeping the rows in order.
   */
  private resend(): void {
    this.epoch = Math.max(Date.now(), this.epoch + 1);
    this.rev = 0;
    this.deps.post({ type: 'reset', epoch: this.epoch, rev: this.rev, header: this.header() });
    const rows = [...this.transcript.all];
    const first = rows.splice(Math.max(0, rows.length - FIRST_CHUNK)).map((row) => this.clean(row));
    if (this.deps.feed.current.streaming) first.push(this.streamingRow());
    this.streamingShown = this.deps.feed.current.streaming !== undefined;
    this.postRows('end', first);
    if (first.length) markOpening('firstRowsPosted');
    this.olderChunks = [];
    for (let end = rows.length; end > 0; end -= OLDER_CHUNK)
      this.olderChunks.push(rows.slice(Math.max(0, end - OLDER_CHUNK), end));
    this.postOlderLater();
  }

  private postOlderLater(): void {
    if (this.olderTimer || this.olderChunks.length === 0 || this.disposed) return;
    this.olderTimer = setTimeout(() => {
      this.olderTimer = undefined;
      this.postOlder(1);
      this.postOlderLater();
    }, 0);
  }

  /** Posts the next `count` older chunks of a resend (all of them: Infinity). */
  private postOlder(count: number): void {
    for (let posted = 0; posted < count; posted++) {
      const chunk = this.olderChunks.shift();
      if (!chunk) return;
      this.postRows(
        'start',
        chunk.map((row) => this.clean(row)),
      );
    }
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

  private send(change: TranscriptChange): void {
    this.postOlder(Infinity);
    if (change.start.length)
      this.postRows(
        'start',
        change.start.map((row) => this.clean(row)),
      );
    if (change.removed.length) {
      this.deps.post({ type: 'remove', epoch: this.epoch, rev: ++this.rev, ids: change.removed });
    }
    if (change.end.length) {
      // the final message replaces the streaming bubble, which must stay the last row until then: it
      // goes before the new rows and comes back after them while the reply still streams
      const streaming = this.streamingShown;
      if (streaming) this.dropStreaming();
      this.postRows(
        'end',
        change.end.map((row) => this.clean(row)),
      );
      if (streaming && this.deps.feed.current.streaming) {
        this.streamingShown = true;
        this.postRows('end', [this.streamingRow()]);
      }
    }
    this.deps.post({ type: 'header', header: this.header() });
  }

  private stateChanged(state: FeedState): void {
    if (state.streaming) {
      this.streamingShown = true;
      this.postRows('end', [this.streamingRow()]);
    } else if (this.streamingShown) this.dropStreaming();
    this.deps.post({ type: 'header', header: this.header() });
  }

  private dropStreaming(): void {
    this.streamingShown = false;
    this.deps.post({ type: 'remove', epoch: this.epoch, rev: ++this.rev, ids: [STREAMING_ROW_ID] });
  }

  private streamingRow(): Row {
    const streaming = this.deps.feed.current.streaming;
    return this.clean({
      id: STREAMING_ROW_ID,
      timestamp: '',
      kind: 'streaming',
      text: streaming?.text ?? '',
      ...(streaming?.reasoning ? { reasoning: streaming.reasoning } : {}),
    });
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

  /** An image's bytes for the page once checked, or why it cannot be shown. */
  private async sendImage(event: string, index: number): Promise<void> {
    const check = await this.images.image(event, index);
    if (this.disposed) return;
    if (!check.ok) {
      this.deps.post({ type: 'image', event, index, problem: this.scrub(check.reason) });
      return;
    }
    const { mime, width, height, frames, bytes } = check.image;
    this.deps.post({
      type: 'image',
      event,
      index,
      image: { mime, width, height, ...(frames > 1 ? { frames } : {}), base64: bytes.toString('base64') },
    });
  }

  private async openImage(event: string, index: number): Promise<void> {
    const check = await this.images.image(event, index);
    if (this.disposed || !this.deps.openImage) return;
    if (!check.ok) {
      this.deps.openImage({ problem: `The image cannot be opened: ${this.scrub(check.reason)}.` });
      return;
    }
    const extension = check.image.mime.slice('image/'.length).replace('jpeg', 'jpg');
    this.deps.openImage({ bytes: check.image.bytes, name: `${event.slice(0, 8)}-${index + 1}.${extension}` });
  }

  private postRows(at: 'start' | 'end', rows: Row[]): void {
    if (rows.length === 0) return;
    this.deps.post({ type: 'rows', epoch: this.epoch, rev: ++this.rev, at, rows });
  }

  /**
   * The page never holds a secret: an agent can print the sandbox's key (`env`), and a server can
   * echo the API key, so every text of a row is scrubbed of the secrets the extension knows.
   */
  /** Whether the workspace's folder just became known (or changed). */
  private learnFolder(): boolean {
    if (this.folderCertain) return false;
    const before = this.folder;
    const certain = this.deps.changes?.folder();
    if (certain) {
      this.folder = certain;
      this.folderCertain = true;
    } else {
      // a paused sandbox cannot say: the folder the agent's first command ran in (as the patch reads it)
      this.folder ??= absoluteWorkspaceDir(
        { id: '', execution_status: null, title: null },
        this.deps.feed.events.events,
      );
    }
    return this.folder !== before;
  }

  private clean(row: Row): Row {
    const secrets = this.secrets();
    const shown = this.relative(row);
    if (secrets.length === 0) return shown;
    return scrubRow(shown, secrets) as Row;
  }

  /** A file edit's path as the user knows it: relative to the workspace, absolute only outside it. */
  private relative(row: Row): Row {
    if (row.kind !== 'action' || !row.edit) return row;
    const path = relativeToWorkspace(row.edit.path, this.folder);
    return path === row.edit.path ? row : { ...row, edit: { ...row.edit, path } };
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

/** An action's arguments as readable text: its fields but the kind, as indented JSON, clipped. */
function argumentsText(action: unknown): string {
  if (typeof action !== 'object' || action === null) return '';
  const { kind: _kind, ...fields } = action as Record<string, unknown>;
  const text = JSON.stringify(fields, null, 2) ?? '';
  return text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text;
}

function scrubRow(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string')
    return secrets.some((secret) => value.includes(secret)) ? scrubSecrets(value, secrets) : value;
  if (Array.isArray(value)) return value.map((item) => scrubRow(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = scrubRow(child, secrets);
  return copy;
}

/** Whether a batch holds a file edit's or a command's result (what can tell the workspace's folder). */
function hasWorkspaceHint(change: EventLogChange): boolean {
  const hints = (event: AgentEvent) => {
    const observation = event['observation'];
    return (
      event.kind === 'ObservationEvent' &&
      isRecord(observation) &&
      (typeof observation['path'] === 'string' || isRecord(observation['metadata']))
    );
  };
  return change.appended.some(hints) || change.prepended.some(hints);
}

/**
 * Why the panel is not live, in words a user knows: a failure's own message names sockets, routes and
 * status codes (the log keeps it whole), so a reconnect or a failure is said by its kind.
 */
function feedDetail(state: FeedState): string | null {
  if (!state.detail) return null;
  if (state.status !== 'reconnecting' && state.status !== 'failed') return state.detail;
  // a half-open socket: the sidebar may still say running, so say what the panel saw
  if (state.status === 'reconnecting' && state.silentMs !== undefined)
    return `No word from the sandbox for ${Math.round(state.silentMs / 1000)} s; reconnecting`;
  switch (state.failure) {
    case undefined:
      return state.detail;
    case 'network':
      return 'The sandbox cannot be reached';
    case 'timeout':
      return 'The sandbox did not answer in time';
    case 'unauthorized':
      return 'The sandbox did not accept its key';
    case 'not_found':
      return 'The sandbox does not know this conversation';
    case 'rate_limited':
      return 'The sandbox has too many connections to this conversation';
    case 'server':
      return 'The sandbox reported an error (the log has the details)';
    case 'cancelled':
      return 'The connection was cancelled';
    default:
      return 'The sandbox sent something unexpected (the log has the details)';
  }
}
