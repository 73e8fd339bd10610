/**
 * The page of a conversation panel: the header, the not-live banner and the transcript. It holds a
 * copy of the host's rows (`rowStore.ts`), applied by epoch and rev; on load, or when a change was
 * missed, it sends `ready` with what it holds and the host sends everything again. It talks to the
 * host only through the protocol, and keeps in `setState` only where the reader was.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import './conversation.css';
import { html, nothing, render } from 'lit';
import { markOpening } from '../../../common/openingMarks';
import { vscodeApi } from '../../kit/webview/vscodeApi';
import {
  dispatchMessage,
  HostToWebviewSchema,
  type Header,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import type { Row } from '../shared/rows';
import { composerView, sendMode, type ComposerActions, type ComposerState } from './composer';
import { bannerView, browserStripView, headerView, noticeView, type HeaderActions } from './header';
import { changesView, type ChangesActions } from './changesList';
import { safeLinkUrl } from './linkPolicy';
import { RowStore, type Applied, type StoreChange } from './rowStore';
import { formatCount, secondsLeft } from './text';
import { Attachments } from './attachments';
import { setImageEnv } from './imageView';
import { PageImages } from './pageImages';
import { TranscriptView, type ViewPosition } from './transcriptView';
import { readViewState, viewState, type ViewState } from './viewState';

/** Asked again when the host has not started over this long after a `ready` sent for a gap. */
const RESYNC_RETRY_MS = 3000;
/** Where the reader is, saved this long after they stop scrolling. */
const PERSIST_DELAY_MS = 250;
/** After the first rows painted, the next messages wait for the frame, or this long at most. */
const PAINT_WAIT_MS = 100;

function hasClip(row: Row): boolean {
  switch (row.kind) {
    case 'message':
      return row.clip !== undefined;
    case 'action':
      return row.terminal?.outputClip !== undefined || row.resultClip !== undefined;
    case 'notice':
      return row.detailClip !== undefined;
    default:
      return false;
  }
}

class ConversationPage {
  private readonly api = vscodeApi<WebviewToHost, ViewState>();
  private readonly store = new RowStore();
  private readonly attachments = new Attachments();
  private readonly images = new PageImages((event, index) => this.post({ type: 'image', event, index }));
  private readonly view: TranscriptView;
  private readonly root: HTMLElement;
  private readonly headerEl: HTMLElement;
  private readonly bannerEl: HTMLElement;
  private readonly changesEl: HTMLElement;
  private readonly browserEl: HTMLElement;
  private readonly emptyEl: HTMLElement;
  private readonly jumpEl: HTMLElement;
  private readonly composerEl: HTMLElement;
  private header: Header | null = null;
  private composer: Omit<ComposerState, 'header'> = {
    draft: '',
    rejecting: false,
    reason: '',
    confirmRun: false,
    note: null,
  };
  /** Confirmation mode as the user just set it, until the host has answered. */
  private wantedConfirmation: boolean | null = null;
  private policyBusySeen = false;
  /** The pending actions (ids) "Send and Run" was shown for. */
  private confirmedFor = '';
  /** Failed messages already put back into the input. */
  private readonly restored = new Set<string>();
  private conversationId: string | undefined;
  private retryDeadline: number | null = null;
  private retrySeconds: number | null = null;
  private countdown: ReturnType<typeof setInterval> | undefined;
  private resyncTimer: ReturnType<typeof setTimeout> | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private persisted = '';
  /** The first `end` rows after a reset are the transcript sent again, not news. */
  private resent = false;
  private position: ViewPosition = { stuck: true, newRows: 0 };
  /** Host messages not handled yet, in order. */
  private readonly inbox: unknown[] = [];
  /** Handling waits for a frame to paint (the newest rows first: older chunks may be right behind). */
  private waitingForPaint = false;

  private readonly handlers: MessageHandlers<HostToWebview> = {
    reset: (message) => {
      const applied = this.store.reset(message.epoch, message.rev);
      if (applied.kind !== 'applied') return;
      this.stopResync();
      this.setHeader(message.header);
      this.resent = true;
      this.view.reset();
      this.view.setRows(this.store.rows, 0);
    },
    rows: (message) => {
      const wasEmpty = this.store.size === 0;
      this.apply(this.store.upsert(message.epoch, message.rev, message.at, message.rows), (change) => {
        let appended = change.appended;
        if (message.at === 'end' && this.resent) {
          this.resent = false;
          appended = 0;
        }
        // a row shown whole came again clipped (it changed): ask for its whole texts again
        for (const row of message.rows) {
          if (this.store.isExpanded(row.id) && hasClip(row)) {
            this.store.forgetExpanded(row.id);
            this.post({ type: 'expand', id: row.id });
          }
        }
        this.view.setRows(this.store.rows, appended);
        // the first rows paint now, and the older chunks queued right behind them wait for that paint
        if (wasEmpty && this.store.size > 0) {
          this.view.flush();
          markOpening('firstRows');
          requestAnimationFrame(() => markOpening('firstRowsPainted'));
          this.waitForPaint();
        }
      });
    },
    remove: (message) => {
      this.apply(this.store.remove(message.epoch, message.rev, message.ids), () =>
        this.view.setRows(this.store.rows, 0),
      );
    },
    header: (message) => this.setHeader(message.header),
    expanded: (message) => {
      if (this.store.expanded(message.row)) this.view.setRows(this.store.rows, 0);
    },
    image: (message) => this.images.receive(message),
    attach: (message) => {
      this.attachments.addChecked(message.images);
      this.renderComposer();
    },
  };

  /** Whether the changed-files fold is open (closed until the user opens it). */
  private changesOpen = false;
  private readonly changesActions: ChangesActions = {
    open: (file) => this.post({ type: 'openChange', file }),
    act: (action) => this.post({ type: 'changes', action }),
    toggled: (open) => {
      if (this.changesOpen === open) return;
      this.changesOpen = open;
      this.persist();
    },
  };

  private readonly headerActions: HeaderActions = {
    showRow: (id) => this.view.scrollToRow(id),
    openInBrowser: () => this.post({ type: 'openInBrowser' }),
    showLog: () => this.post({ type: 'showLog' }),
    reconnect: () => this.post({ type: 'reconnect' }),
    resumeSandbox: () => this.post({ type: 'resumeSandbox' }),
  };

  private readonly composerActions: ComposerActions = {
    input: (text) => {
      const hadText = this.composer.draft.trim() !== '';
      const hadNote = this.composer.note !== null;
      this.composer = { ...this.composer, draft: text, note: null };
      this.persistSoon();
      // the Send button follows whether there is anything to send; a "Not sent" note goes once typed over
      if (hadNote || hadText !== (text.trim() !== '')) this.renderComposer();
    },
    attachFiles: (files) =>
      void this.attachments
        .addFiles(files)
        .then((problems) =>
          this.updateComposer({ note: problems.length ? problems.join(' ') : null, noteKind: 'attach' }),
        ),
    removeAttachment: (id) => {
      this.attachments.remove(id);
      this.renderComposer();
    },
    send: () => this.send(),
    cancelRun: () => this.updateComposer({ confirmRun: false }),
    approve: () => this.post({ type: 'approve' }),
    startReject: () => {
      this.updateComposer({ rejecting: true, reason: '' });
      requestAnimationFrame(() => this.root.querySelector<HTMLInputElement>('#reject-reason')?.focus());
    },
    reasonInput: (text) => (this.composer = { ...this.composer, reason: text }),
    confirmReject: () => {
      // the host takes one control at a time: the form stays open until it can
      if (this.header?.controls.busy) return;
      const reason = this.composer.reason.trim();
      this.post({ type: 'reject', ...(reason ? { reason } : {}) });
      this.updateComposer({ rejecting: false, reason: '' });
    },
    cancelReject: () => this.updateComposer({ rejecting: false, reason: '' }),
    continueAgent: () => this.post({ type: 'continue' }),
    pause: () => this.post({ type: 'pause' }),
    stop: () => this.post({ type: 'stop' }),
    setConfirmation: (on) => {
      // the box shows the choice until the server has the policy (or said no)
      this.wantedConfirmation = on;
      this.post({ type: 'setConfirmation', on });
    },
  };

  constructor() {
    markOpening('pageScript');
    const root = document.getElementById('app');
    if (!root) throw new Error('missing #app');
    this.root = root;
    render(
      html`<div class="top">
          <header class="conv-header"></header>
          <div class="browser-slot"></div>
          <div class="changes-slot"></div>
          <div class="banner-slot"></div>
        </div>
        <div class="transcript-wrap">
          <div class="transcript" tabindex="0" role="region" aria-label="Transcript">
            <div class="column">
              <div class="spacer spacer-top" aria-hidden="true"></div>
              <div class="rows" role="list" aria-label="Events"></div>
              <div class="spacer spacer-bottom" aria-hidden="true"></div>
              <div class="empty" hidden>
                <p class="empty-title">No events yet</p>
                <p class="empty-hint">
                  Messages, commands and file edits appear here as the agent works. Send the agent a task
                  below to get it started.
                </p>
              </div>
            </div>
          </div>
          <div class="jump-slot"></div>
        </div>
        <div class="composer-slot"></div>`,
      root,
    );
    const find = (selector: string): HTMLElement => {
      const element = root.querySelector<HTMLElement>(selector);
      if (!element) throw new Error(`missing ${selector}`);
      return element;
    };
    this.headerEl = find('.conv-header');
    this.bannerEl = find('.banner-slot');
    this.changesEl = find('.changes-slot');
    this.browserEl = find('.browser-slot');
    this.emptyEl = find('.empty');
    this.jumpEl = find('.jump-slot');
    this.composerEl = find('.composer-slot');
    setImageEnv({
      images: this.images,
      open: (event, index) => this.post({ type: 'openImage', event, index }),
    });
    this.view = new TranscriptView(
      {
        scroller: find('.transcript'),
        topSpacer: find('.spacer-top'),
        list: find('.rows'),
        bottomSpacer: find('.spacer-bottom'),
      },
      { expand: (id) => this.post({ type: 'expand', id }) },
      (position) => this.positionChanged(position),
    );
    const kept = readViewState(this.api.getState());
    if (kept) {
      this.conversationId = kept.conversationId;
      this.composer = { ...this.composer, draft: kept.draft ?? '' };
      this.changesOpen = kept.changesOpen ?? false;
      this.view.restore(kept);
    }
    // links never navigate the page: the host opens them (http, https and mailto only)
    document.addEventListener('click', (event) => this.linkClicked(event), true);
    document.addEventListener('auxclick', (event) => this.linkClicked(event), true);
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      markOpening('firstMessage');
      this.inbox.push(event.data);
      this.drain();
    });
    this.renderChrome();
    this.post({ type: 'ready' });
  }

  private post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  /** Handles the messages received, in order, unless waiting for a paint. */
  private drain(): void {
    let changed = false;
    while (!this.waitingForPaint && this.inbox.length > 0) {
      this.received(this.inbox.shift());
      changed = true;
    }
    if (changed) this.renderChrome();
  }

  private waitForPaint(): void {
    this.waitingForPaint = true;
    let done = false;
    const resume = () => {
      if (done) return;
      done = true;
      this.waitingForPaint = false;
      this.drain();
    };
    // after the frame that paints (a hidden page gets no frames: the timer then)
    requestAnimationFrame(() => setTimeout(resume, 0));
    setTimeout(resume, PAINT_WAIT_MS);
  }

  private received(raw: unknown): void {
    const dispatched = dispatchMessage(HostToWebviewSchema, this.handlers, raw);
    if (!dispatched.ok) {
      console.warn(`Conversation: ignored a malformed host message (${dispatched.problem})`);
    }
  }

  private apply(applied: Applied, then: (change: StoreChange) => void): void {
    if (applied.kind === 'gap') this.resync();
    else if (applied.kind === 'applied') then(applied.change);
  }

  /** A change was missed: say what is held, so the host sends everything again. */
  private resync(): void {
    const held = this.store.held();
    this.post({ type: 'ready', ...held });
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      if (this.store.waitingForReset) this.resync();
    }, RESYNC_RETRY_MS);
  }

  private stopResync(): void {
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  private setHeader(header: Header): void {
    this.header = header;
    this.restoreFailed(header);
    if (this.wantedConfirmation !== null) {
      if (header.controls.busy === 'policy') this.policyBusySeen = true;
      else if (this.policyBusySeen) {
        this.wantedConfirmation = null;
        this.policyBusySeen = false;
      }
    }
    // "Send and Run" was agreed for the actions shown then: other actions ask again
    const pendingIds = header.controls.pendingActions.map((action) => action.id).join(' ');
    if (this.composer.confirmRun && pendingIds !== this.confirmedFor)
      this.composer = { ...this.composer, confirmRun: false };
    if (this.conversationId !== header.conversationId) {
      this.conversationId = header.conversationId;
      this.persistSoon();
    }
    const retryIn = header.retryInMs;
    this.retryDeadline =
      header.feed === 'reconnecting' && retryIn !== null && Number.isFinite(retryIn) && retryIn > 0
        ? Date.now() + Math.min(retryIn, 24 * 3600_000)
        : null;
    this.tick();
    if (this.retryDeadline !== null && !this.countdown) this.countdown = setInterval(() => this.tick(), 250);
  }

  /** The reconnect countdown, re-rendered when its whole seconds change. */
  private tick(): void {
    const seconds = this.retryDeadline === null ? null : secondsLeft(this.retryDeadline, Date.now());
    if (seconds === null || seconds === 0) {
      if (this.countdown) clearInterval(this.countdown);
      this.countdown = undefined;
    }
    if (seconds !== this.retrySeconds) {
      this.retrySeconds = seconds;
      this.renderChrome();
    }
  }

  private positionChanged(position: ViewPosition): void {
    const jumpChanged = position.stuck !== this.position.stuck || position.newRows !== this.position.newRows;
    this.position = position;
    if (jumpChanged) this.renderJump();
    this.persistSoon();
  }

  private persistSoon(): void {
    if (this.persistTimer) return;
    this.persistTimer = setTimeout(() => this.persist(), PERSIST_DELAY_MS);
  }

  /** Saves now: a click that hides the page right after (a file of the change opening) must not lose it. */
  private persist(): void {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    const position = this.view.position;
    const state = viewState(
      this.conversationId,
      position.stuck,
      position.top,
      this.composer.draft,
      this.changesOpen,
    );
    const text = JSON.stringify(state);
    if (text === this.persisted) return;
    this.persisted = text;
    this.api.setState(state);
  }

  private linkClicked(event: MouseEvent): void {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const link = target.closest('a');
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.type !== 'click' && event.button !== 1) return;
    const url = safeLinkUrl(link.getAttribute('href'));
    if (url) this.post({ type: 'openLink', url });
  }

  private renderChrome(): void {
    this.root.setAttribute('aria-busy', String(!this.store.started));
    render(headerView(this.header, this.headerActions), this.headerEl);
    render(browserStripView(this.header?.browser, this.headerActions), this.browserEl);
    render(changesView(this.header?.changes, this.changesOpen, this.changesActions), this.changesEl);
    render(
      html`${bannerView(this.header, this.retrySeconds, this.headerActions)}${noticeView(this.header, this.headerActions)}`,
      this.bannerEl,
    );
    this.emptyEl.hidden = !(this.store.started && this.store.size === 0);
    this.renderJump();
    this.renderComposer();
  }

  private send(): void {
    const text = this.composer.draft.trim();
    const mode = sendMode({ header: this.header, ...this.composer });
    const images = this.attachments.payload();
    if ((!text && images.length === 0) || mode === 'unavailable') return;
    // a message runs the actions waiting for approval: say so once before it goes
    if (mode === 'send' && (this.header?.controls.pendingActions.length ?? 0) > 0) {
      this.confirmedFor = (this.header?.controls.pendingActions ?? []).map((action) => action.id).join(' ');
      this.updateComposer({ confirmRun: true });
      return;
    }
    this.post({ type: 'send', text, resume: mode === 'resumeAndSend', ...(images.length ? { images } : {}) });
    this.attachments.clear();
    this.updateComposer({ draft: '', confirmRun: false, note: null });
    this.persistSoon();
  }

  /** A message the host could not send comes back into the input, with why. */
  private restoreFailed(header: Header): void {
    for (const entry of header.controls.outbox) {
      if (entry.state !== 'failed' || this.restored.has(entry.id)) continue;
      this.restored.add(entry.id);
      const draft = this.composer.draft.trim() ? `${entry.text}\n\n${this.composer.draft}` : entry.text;
      this.composer = {
        ...this.composer,
        draft,
        note: entry.reason ?? 'the server did not take it.',
        noteKind: 'unsent',
      };
      this.persistSoon();
      this.post({ type: 'dismissOutbox', id: entry.id });
    }
  }

  private updateComposer(patch: Partial<Omit<ComposerState, 'header'>>): void {
    this.composer = { ...this.composer, ...patch };
    this.renderComposer();
  }

  private renderComposer(): void {
    render(
      composerView(
        {
          header: this.header,
          ...this.composer,
          wantedConfirmation: this.wantedConfirmation,
          attachments: this.attachments.list,
        },
        this.composerActions,
      ),
      this.composerEl,
    );
  }

  private renderJump(): void {
    const { stuck, newRows } = this.position;
    render(
      stuck || this.store.size === 0
        ? nothing
        : html`<button
            type="button"
            class="jump ${newRows > 0 ? 'has-new' : ''}"
            title="Scroll to the newest events and follow them"
            @click=${() => this.view.scrollToBottom()}
          >
            <span class="codicon codicon-arrow-down" aria-hidden="true"></span>${
              newRows > 0 ? `${formatCount(newRows)} new` : 'Latest'
            }
          </button>`,
      this.jumpEl,
    );
  }
}

new ConversationPage();
