/**
 * The composer's wiring: what the user has typed and chosen at the bottom of the panel (the draft, the
 * reject form and its reason, "Send and Run", the confirmation mode just set, the images to send), what
 * each of its controls posts to the host, and a message the host could not send put back into the input.
 * `composer.ts` draws it from this state.
 */
import { render } from 'lit';
import type { Attachment, Header, Reply, WebviewToHost } from '../shared/protocol';
import { Attachments } from './attachments';
import { composerView, sendMode, type ComposerActions, type ComposerState } from './composer';
import { Requests } from './requests';

export interface ComposerHost {
  post(message: WebviewToHost): void;
  /** The draft changed: the page saves it soon. */
  draftChanged(): void;
}

export class ComposerWiring {
  private readonly attachments = new Attachments();
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
  private policyRequest: number | undefined;
  private readonly requests = new Requests(
    (message) => this.host.post(message),
    () => this.render(),
  );
  /** The pending actions (ids) "Send and Run" was shown for. */
  private confirmedFor = '';
  /** Failed messages already put back into the input. */
  private readonly restored = new Set<string>();

  private readonly actions: ComposerActions = {
    input: (text) => {
      const hadText = this.composer.draft.trim() !== '';
      const hadNote = this.composer.note !== null;
      this.composer = { ...this.composer, draft: text, note: null };
      this.host.draftChanged();
      // the Send button follows whether there is anything to send; a "Not sent" note goes once typed over
      if (hadNote || hadText !== (text.trim() !== '')) this.render();
    },
    attachFiles: (files) =>
      void this.attachments
        .addFiles(files)
        .then((problems) =>
          this.update({ note: problems.length ? problems.join(' ') : null, noteKind: 'attach' }),
        ),
    removeAttachment: (id) => {
      this.attachments.remove(id);
      this.render();
    },
    send: () => this.send(),
    cancelRun: () => this.update({ confirmRun: false }),
    approve: () => this.requests.ask({ type: 'approve' }),
    startReject: () => {
      this.update({ rejecting: true, reason: '' });
      requestAnimationFrame(() => this.el.querySelector<HTMLInputElement>('#reject-reason')?.focus());
    },
    reasonInput: (text) => (this.composer = { ...this.composer, reason: text }),
    confirmReject: () => {
      // the host takes one control at a time: the form stays open until it can
      if (this.header?.controls.busy) return;
      const reason = this.composer.reason.trim();
      this.requests.ask({ type: 'reject', ...(reason ? { reason } : {}) });
      this.update({ rejecting: false, reason: '' });
    },
    cancelReject: () => this.update({ rejecting: false, reason: '' }),
    continueAgent: () => this.requests.ask({ type: 'continue' }),
    pause: () => this.requests.ask({ type: 'pause' }),
    stop: () => this.requests.ask({ type: 'stop' }),
    setConfirmation: (on) => {
      // the box shows the choice until the host has answered (the server has the policy, or said no)
      this.wantedConfirmation = on;
      this.policyRequest = this.requests.ask({ type: 'setConfirmation', on }, (reply) => {
        // an earlier choice's answer leaves the newer choice shown
        if (reply.id === this.policyRequest) this.wantedConfirmation = null;
      });
    },
  };

  /** `el`: the composer's slot, rendered into by `render()`. */
  constructor(
    private readonly el: HTMLElement,
    private readonly host: ComposerHost,
  ) {}

  /** The unsent message, as the page keeps it. */
  get draft(): string {
    return this.composer.draft;
  }

  /** The unsent message kept from before the page was hidden or reloaded. */
  restoreDraft(draft: string): void {
    this.composer = { ...this.composer, draft };
  }

  /** Images the host gave (Send Image to Conversation…, or a failed send's back). */
  attach(images: readonly Attachment[]): void {
    this.attachments.addChecked(images);
    this.render();
  }

  /** The header's model picker: a control like the others, its failure shown with theirs. */
  switchModel(): void {
    if (this.header?.controls.busy) return;
    this.requests.ask({ type: 'switchModel' });
  }

  /** The host's answer to one of the controls. */
  settle(reply: Reply): void {
    this.requests.settle(reply);
  }

  setHeader(header: Header): void {
    this.header = header;
    this.restoreFailed(header);
    // "Send and Run" was agreed for the actions shown then: other actions ask again
    const pendingIds = header.controls.pendingActions.map((action) => action.id).join(' ');
    if (this.composer.confirmRun && pendingIds !== this.confirmedFor)
      this.composer = { ...this.composer, confirmRun: false };
  }

  render(): void {
    render(
      composerView(
        {
          header: this.header,
          ...this.composer,
          wantedConfirmation: this.wantedConfirmation,
          controlError: this.requests.error,
          attachments: this.attachments.list,
        },
        this.actions,
      ),
      this.el,
    );
  }

  private send(): void {
    const text = this.composer.draft.trim();
    const mode = sendMode({ header: this.header, ...this.composer });
    const images = this.attachments.payload();
    if ((!text && images.length === 0) || mode === 'unavailable') return;
    // a message runs the actions waiting for approval: say so once before it goes
    if (mode === 'send' && (this.header?.controls.pendingActions.length ?? 0) > 0) {
      this.confirmedFor = (this.header?.controls.pendingActions ?? []).map((action) => action.id).join(' ');
      this.update({ confirmRun: true });
      return;
    }
    this.host.post({
      type: 'send',
      text,
      resume: mode === 'resumeAndSend',
      ...(images.length ? { images } : {}),
    });
    this.attachments.clear();
    this.update({ draft: '', confirmRun: false, note: null });
    this.host.draftChanged();
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
      this.host.draftChanged();
      this.host.post({ type: 'dismissOutbox', id: entry.id });
    }
  }

  private update(patch: Partial<Omit<ComposerState, 'header'>>): void {
    this.composer = { ...this.composer, ...patch };
    this.render();
  }
}
