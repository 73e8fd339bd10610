/**
 * The page of a conversation panel: the header, the not-live banner, the transcript and the composer. It
 * holds a copy of the host's rows (`rowStore.ts`), applied by epoch and rev; on load, or when a change was
 * missed, it sends `ready` with what it holds and the host sends everything again. It talks to the host
 * only through the protocol (`hostChannel.ts`), and keeps in `setState` only where the reader was
 * (`stateSaver.ts`).
 */
import { html, render } from 'lit';
import { vscodeApi } from '../../kit/webview/vscodeApi';
import type { Header, HostToWebview, MessageHandlers, WebviewToHost } from '../shared/protocol';
import type { Row } from '../shared/rows';
import { changesView, type ChangesActions } from './changesList';
import { ComposerWiring } from './composerWiring';
import {
  bannerView,
  browserStripView,
  headerView,
  modelProblemView,
  noticeView,
  type HeaderActions,
} from './header';
import { HostChannel } from './hostChannel';
import { setImageEnv } from './imageView';
import { jumpButtonView } from './jumpButton';
import { renderLayout, type PageSlots } from './layout';
import { sendLinksToHost } from './linkClicks';
import { PageImages } from './pageImages';
import { ReconnectCountdown } from './reconnectCountdown';
import { RowStore, type Applied, type StoreChange } from './rowStore';
import { StateSaver } from './stateSaver';
import { TranscriptView, type ViewPosition } from './transcriptView';
import { readViewState, viewState, type ViewState } from './viewState';
import { markOpening } from '../../../common/openingMarks';

/** Asked again when the host has not started over this long after a `ready` sent for a gap. */
const RESYNC_RETRY_MS = 3000;

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

export class ConversationPage {
  private readonly api = vscodeApi<WebviewToHost, ViewState>();
  private readonly store = new RowStore();
  private readonly images = new PageImages((event, index) => this.post({ type: 'image', event, index }));
  private readonly view: TranscriptView;
  private readonly root: HTMLElement;
  private readonly slots: PageSlots;
  private readonly channel: HostChannel;
  private readonly composer: ComposerWiring;
  private readonly countdown = new ReconnectCountdown(() => this.renderChrome());
  private readonly saver = new StateSaver(this.api, () => this.currentState());
  private header: Header | null = null;
  private conversationId: string | undefined;
  private resyncTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first `end` rows after a reset are the transcript sent again, not news. */
  private resent = false;
  private position: ViewPosition = { stuck: true, newRows: 0 };

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
          this.channel.waitForPaint();
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
    reply: (message) => this.composer.settle(message),
    attach: (message) => this.composer.attach(message.images),
  };

  /** Whether the changed-files fold is open (closed until the user opens it). */
  private changesOpen = false;
  private readonly changesActions: ChangesActions = {
    open: (file) => this.post({ type: 'openChange', file }),
    act: (action) => this.post({ type: 'changes', action }),
    toggled: (open) => {
      if (this.changesOpen === open) return;
      this.changesOpen = open;
      this.saver.now();
    },
  };

  /** Whether the usage breakdown is open (closed on each load: a glance, not a setting). */
  private usageOpen = false;

  private readonly headerActions: HeaderActions = {
    toggleUsage: () => {
      this.usageOpen = !this.usageOpen;
      this.renderChrome();
    },
    showRow: (id) => this.view.scrollToRow(id),
    switchModel: () => this.composer.switchModel(),
    openInBrowser: () => this.post({ type: 'openInBrowser' }),
    showLog: () => this.post({ type: 'showLog' }),
    reconnect: () => this.post({ type: 'reconnect' }),
    resumeSandbox: () => this.post({ type: 'resumeSandbox' }),
    setUpModel: () => this.post({ type: 'setUpModel' }),
    checkOutBranch: () => this.post({ type: 'branchAction', action: 'checkOut' }),
    openPullRequest: () => this.post({ type: 'branchAction', action: 'openPullRequest' }),
  };

  constructor() {
    markOpening('pageScript');
    const root = document.getElementById('app');
    if (!root) throw new Error('missing #app');
    this.root = root;
    this.slots = renderLayout(root);
    this.channel = new HostChannel(this.api, this.handlers, () => this.renderChrome());
    this.composer = new ComposerWiring(this.slots.composer, {
      post: (message) => this.post(message),
      draftChanged: () => this.saver.soon(),
    });
    setImageEnv({
      images: this.images,
      open: (event, index) => this.post({ type: 'openImage', event, index }),
    });
    this.view = new TranscriptView(
      this.slots.transcript,
      { expand: (id) => this.post({ type: 'expand', id }) },
      (position) => this.positionChanged(position),
    );
    const kept = readViewState(this.api.getState());
    if (kept) {
      this.conversationId = kept.conversationId;
      this.composer.restoreDraft(kept.draft ?? '');
      this.changesOpen = kept.changesOpen ?? false;
      this.view.restore(kept);
    }
    sendLinksToHost((url) => this.post({ type: 'openLink', url }));
    this.channel.listen();
    this.renderChrome();
    this.post({ type: 'ready' });
  }

  private post(message: WebviewToHost): void {
    this.channel.post(message);
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
    this.composer.setHeader(header);
    if (this.conversationId !== header.conversationId) {
      this.conversationId = header.conversationId;
      this.saver.soon();
    }
    this.countdown.follow(header);
  }

  private positionChanged(position: ViewPosition): void {
    const jumpChanged = position.stuck !== this.position.stuck || position.newRows !== this.position.newRows;
    this.position = position;
    if (jumpChanged) this.renderJump();
    this.saver.soon();
  }

  private currentState(): ViewState {
    const position = this.view.position;
    return viewState(
      this.conversationId,
      position.stuck,
      position.top,
      this.composer.draft,
      this.changesOpen,
    );
  }

  private renderChrome(): void {
    this.root.setAttribute('aria-busy', String(!this.store.started));
    render(headerView(this.header, this.headerActions, this.usageOpen), this.slots.header);
    render(browserStripView(this.header?.browser, this.headerActions), this.slots.browser);
    render(changesView(this.header?.changes, this.changesOpen, this.changesActions), this.slots.changes);
    render(
      html`${modelProblemView(this.header, this.headerActions)}${bannerView(this.header, this.countdown.seconds, this.headerActions)}${noticeView(this.header, this.headerActions)}`,
      this.slots.banner,
    );
    // while it starts the banner and the queued task say what happens; "send a task" would not
    this.slots.empty.hidden = !(this.store.started && this.store.size === 0) || !!this.header?.starting;
    this.renderJump();
    this.composer.render();
  }

  private renderJump(): void {
    render(
      jumpButtonView(this.position, this.store.size > 0, () => this.view.scrollToBottom()),
      this.slots.jump,
    );
  }
}
