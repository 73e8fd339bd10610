/**
 * The bottom of the panel: what the agent waits for you to approve (with Approve and Reject, and a
 * reason), the choice after a reject, the messages on their way, the message input (Enter sends,
 * Shift+Enter a new line) and the agent's controls (Pause, Stop, Continue, confirmation mode).
 * Texts from the host go through text bindings only.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Header, OutboxEntry, PendingAction } from '../shared/protocol';
import type { HeldAttachment } from './attachments';
import { executionStatus, oneLine } from './text';

export interface ComposerState {
  header: Header | null;
  draft: string;
  /** The reject form is open. */
  rejecting: boolean;
  reason: string;
  /** The user pressed Send while actions wait: the next Send runs them. */
  confirmRun: boolean;
  /** Why the last message was not sent (its text is back in the input), or why an image was not attached. */
  note: string | null;
  noteKind?: 'unsent' | 'attach';
  /** Confirmation mode as the user just set it, shown until the host has answered. */
  wantedConfirmation?: boolean | null;
  /** Why the last control failed, from its reply. */
  controlError?: string | null;
  /** Images to send with the message (pasted, dropped, or given by the host). */
  attachments?: readonly HeldAttachment[];
}

export interface ComposerActions {
  input(text: string): void;
  /** Image files pasted or dropped. */
  attachFiles(files: File[]): void;
  removeAttachment(id: number): void;
  send(): void;
  cancelRun(): void;
  approve(): void;
  startReject(): void;
  reasonInput(text: string): void;
  confirmReject(): void;
  cancelReject(): void;
  continueAgent(): void;
  pause(): void;
  stop(): void;
  setConfirmation(on: boolean): void;
}

const OUTBOX_LABELS: Record<OutboxEntry['state'], string> = {
  resuming: 'Resuming the sandbox…',
  connecting: 'Waiting for the sandbox to answer…',
  sending: 'Sending…',
  sent: 'Sent; waiting for the agent to receive it…',
  queued: 'Queued: the agent gets it once the conversation has started',
  failed: 'Not sent',
};

/** What the Send button does now. */
export type SendMode = 'send' | 'resumeAndSend' | 'sendAndRun' | 'unavailable';

export function sendMode(state: ComposerState): SendMode {
  const header = state.header;
  if (!header) return 'unavailable';
  // the sandbox is on its way: what is typed is queued
  if (header.starting) return 'send';
  if (header.sandboxStatus !== null && header.sandboxStatus !== 'RUNNING')
    return header.canResume ? 'resumeAndSend' : 'unavailable';
  if (state.confirmRun) return 'sendAndRun';
  return 'send';
}

export function composerView(state: ComposerState, actions: ComposerActions): TemplateResult {
  const controls = state.header?.controls;
  const status = executionStatus(state.header?.executionStatus ?? null);
  const busy = controls?.busy ?? null;
  const mode = sendMode(state);
  const pending = controls?.pendingActions ?? [];
  const policy = controls?.confirmationPolicy ?? null;
  const confirming = state.wantedConfirmation ?? (policy !== null && policy !== 'NeverConfirm');
  const online = state.header?.feed === 'live';
  return html`${pending.length ? confirmationView(pending, state, actions, busy) : nothing}
    ${
      controls?.rejected && !pending.length
        ? html`<section class="after-reject" id="after-reject" aria-label="Rejected">
            <span class="codicon codicon-circle-slash" aria-hidden="true"></span>
            <div class="card-text">
              <strong>You rejected the action; the agent is waiting.</strong>
              <span>Let it continue (it reads your reason), or tell it what to do instead below.</span>
            </div>
            <vscode-button
              id="continue-after-reject"
              icon="debug-continue"
              ?disabled=${busy !== null || !online}
              @click=${actions.continueAgent}
              >Let the Agent Continue</vscode-button
            >
          </section>`
        : nothing
    }
    ${(controls?.outbox ?? [])
      .filter((entry) => entry.state !== 'failed')
      .map(
        (entry) =>
          html`<div class="outbox-entry outbox-${entry.state}" role="status">
            <div class="bubble">${outboxText(entry)}</div>
            <span class="outbox-state"
              ><span
                class="codicon ${entry.state === 'queued' ? 'codicon-clock' : 'codicon-loading codicon-modifier-spin'}"
                aria-hidden="true"
              ></span
              >${OUTBOX_LABELS[entry.state]}</span
            >
          </div>`,
      )}
    ${
      state.controlError
        ? html`<div class="control-error" role="alert">
            <span class="codicon codicon-error" aria-hidden="true"></span>${oneLine(state.controlError, 400)}
          </div>`
        : nothing
    }
    <div
      class="composer"
      @dragover=${(event: DragEvent) => {
        if (hasFiles(event.dataTransfer)) event.preventDefault();
      }}
      @drop=${(event: DragEvent) => {
        const files = imageFiles(event.dataTransfer);
        if (!files.length) return;
        event.preventDefault();
        actions.attachFiles(files);
      }}
    >
      ${attachmentsView(state.attachments ?? [], actions)}
      <textarea
        id="message-input"
        rows="3"
        aria-label="Message to the agent"
        placeholder=${
          state.header?.starting
            ? 'Message the agent (queued until the conversation has started)… Enter sends, Shift+Enter for a new line'
            : mode === 'resumeAndSend'
              ? 'Message the agent (the sandbox is resumed first)… Enter sends, Shift+Enter for a new line'
              : 'Message the agent… Enter sends, Shift+Enter for a new line'
        }
        .value=${live(state.draft)}
        ?disabled=${mode === 'unavailable'}
        @input=${(event: Event) => actions.input((event.target as HTMLTextAreaElement).value)}
        @paste=${(event: ClipboardEvent) => {
          const files = imageFiles(event.clipboardData);
          if (!files.length) return;
          // an image on the clipboard (a screenshot): attached, not pasted as text
          event.preventDefault();
          actions.attachFiles(files);
        }}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          actions.send();
        }}
      ></textarea>
      ${
        state.confirmRun && pending.length
          ? html`<div class="composer-note warning" role="alert">
              <span class="codicon codicon-warning" aria-hidden="true"></span>
              <span
                >Sending runs the ${pending.length === 1 ? 'action' : `${pending.length} actions`} waiting for
                approval. Send again to go ahead, or approve or reject ${pending.length === 1 ? 'it' : 'them'}
                above.</span
              >
              <vscode-button id="send-cancel" secondary @click=${actions.cancelRun}>Cancel</vscode-button>
            </div>`
          : nothing
      }
      ${
        state.note
          ? html`<div class="composer-note error" role="alert">
              <span class="codicon codicon-error" aria-hidden="true"></span
              ><span
                >${
                  state.noteKind === 'attach'
                    ? `Not attached: ${oneLine(state.note, 600)}`
                    : `Not sent: ${oneLine(state.note, 400)} Your message is back in the input.`
                }</span
              >
            </div>`
          : nothing
      }
      <div class="composer-bar">
        <label
          class="confirm-mode"
          title="The agent asks before it acts (the conversation's confirmation policy)"
        >
          <input
            type="checkbox"
            id="confirm-mode"
            .checked=${live(confirming)}
            ?disabled=${!online || busy !== null}
            @change=${(event: Event) => actions.setConfirmation((event.target as HTMLInputElement).checked)}
          />Ask before actions${policy === 'ConfirmRisky' ? ' (risky ones)' : ''}
        </label>
        <span class="bar-spacer"></span>
        ${
          status === 'running'
            ? html`<vscode-button
                  id="pause-agent"
                  secondary
                  icon="debug-pause"
                  ?disabled=${busy !== null || !online}
                  title="Pause after the current step"
                  @click=${actions.pause}
                  >Pause</vscode-button
                >
                <vscode-button
                  id="stop-agent"
                  secondary
                  icon="debug-stop"
                  ?disabled=${busy !== null || !online}
                  title="Stop now: cancel the model call in flight"
                  @click=${actions.stop}
                  >Stop</vscode-button
                >`
            : nothing
        }
        ${
          status === 'paused'
            ? html`<vscode-button
                id="continue-agent"
                secondary
                icon="debug-continue"
                ?disabled=${busy !== null || !online}
                @click=${actions.continueAgent}
                >Continue</vscode-button
              >`
            : nothing
        }
        <vscode-button
          id="send"
          icon=${mode === 'resumeAndSend' ? 'debug-start' : 'send'}
          ?disabled=${mode === 'unavailable' || (!state.draft.trim() && !state.attachments?.length)}
          @click=${actions.send}
          >${mode === 'resumeAndSend' ? 'Resume and Send' : mode === 'sendAndRun' ? 'Send and Run' : 'Send'}</vscode-button
        >
      </div>
    </div>`;
}

/** The images under the input, each with a button that removes it. */
function attachmentsView(
  attachments: readonly HeldAttachment[],
  actions: ComposerActions,
): TemplateResult | typeof nothing {
  if (!attachments.length) return nothing;
  return html`<ul class="attachments" aria-label="Images to send">
    ${attachments.map(
      (attachment) =>
        html`<li class="attachment" title=${oneLine(attachment.name, 260)}>
          <img src=${attachment.url} alt=${oneLine(attachment.name, 260)} />
          <button
            type="button"
            class="attachment-remove"
            aria-label=${`Remove ${oneLine(attachment.name, 100)}`}
            title="Remove"
            @click=${() => actions.removeAttachment(attachment.id)}
          >
            <span class="codicon codicon-close" aria-hidden="true"></span>
          </button>
        </li>`,
    )}
  </ul>`;
}

/** A message on its way: its text, and how many images go with it. */
function outboxText(entry: OutboxEntry): string {
  const images = entry.images === 1 ? '1 image' : `${entry.images} images`;
  const text = oneLine(entry.text, 300);
  if (!entry.images) return text;
  return text ? `${text} (${images})` : `(${images})`;
}

function hasFiles(data: DataTransfer | null): boolean {
  return !!data && [...data.types].includes('Files');
}

/** The image files of a paste or a drop (the page reads what they are from their bytes later). */
function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  return [...data.files].filter((file) => file.type.startsWith('image/') || file.type === '');
}

function confirmationView(
  pending: readonly PendingAction[],
  state: ComposerState,
  actions: ComposerActions,
  busy: string | null,
): TemplateResult {
  const count = pending.length === 1 ? 'its next action' : `${pending.length} actions`;
  return html`<section class="confirmation" id="confirmation" aria-label="Waiting for your approval">
    <div class="confirmation-head">
      <span class="codicon codicon-shield" aria-hidden="true"></span>
      <strong>The agent waits for you to approve ${count}.</strong>
    </div>
    <ul class="pending-actions">
      ${pending.map(
        (action) =>
          html`<li class="pending-action">
            <div class="pending-head">
              <span class="tool">${oneLine(action.tool, 60)}</span>
              <span class="pending-summary">${oneLine(action.summary, 300)}</span>
              <span
                class="risk-badge risk-${action.risk.toLowerCase()}"
                title="Security risk the model gave it"
                >${action.risk === 'UNKNOWN' ? 'risk not rated' : `${action.risk.toLowerCase()} risk`}</span
              >
            </div>
            ${action.detail ? html`<pre class="pending-detail">${action.detail}</pre>` : nothing}
          </li>`,
      )}
    </ul>
    ${
      state.rejecting
        ? html`<div class="reject-form">
            <input
              id="reject-reason"
              type="text"
              maxlength="2000"
              placeholder="Why (optional): the agent reads this"
              aria-label="Why you reject it"
              .value=${live(state.reason)}
              @input=${(event: Event) => actions.reasonInput((event.target as HTMLInputElement).value)}
              @keydown=${(event: KeyboardEvent) => {
                if (event.key === 'Enter' && !event.isComposing && busy === null) actions.confirmReject();
                if (event.key === 'Escape') actions.cancelReject();
              }}
            />
            <vscode-button id="reject-confirm" ?disabled=${busy !== null} @click=${actions.confirmReject}
              >Reject</vscode-button
            >
            <vscode-button id="reject-cancel" secondary @click=${actions.cancelReject}>Cancel</vscode-button>
          </div>`
        : html`<div class="confirmation-buttons">
            <vscode-button id="approve" icon="check" ?disabled=${busy !== null} @click=${actions.approve}
              >${busy === 'approve' ? 'Approving…' : 'Approve'}</vscode-button
            >
            <vscode-button
              id="reject"
              secondary
              icon="close"
              ?disabled=${busy !== null}
              @click=${actions.startReject}
              >Reject…</vscode-button
            >
          </div>`
    }
  </section>`;
}
