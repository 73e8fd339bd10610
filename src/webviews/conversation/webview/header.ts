/**
 * The panel's header (title, the agent's status, the sandbox, the model, the event count, the cost
 * and tokens with their breakdown, the Open in Browser and Log buttons) and, under it, the banner that says the transcript is not live:
 * connecting, reconnecting (with a countdown and Retry now), offline (with Resume Sandbox when the
 * sandbox can be resumed) or disconnected (with Retry); and the notice that the transcript is not
 * the whole conversation (paging stopped, a size limit reached), whether live or not. Texts from the
 * host go through text bindings.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { BrowserStrip, Header } from '../shared/protocol';
import { agentGitView, type AgentGitActions } from './agentGitView';
import { handedOverView } from './handedOverView';
import './imageView';
import { modelButtonView, type ModelActions } from './modelButton';
import { usageBreakdownView, usageButtonView, type UsageActions } from './usageView';
import {
  executionStatus,
  executionStatusLabel,
  formatCount,
  oneLine,
  sandboxStatusLabel,
  type ExecutionStatus,
} from './text';

export interface HeaderActions extends UsageActions, ModelActions, AgentGitActions {
  /** "Show the step" on the browser strip. */
  showRow(id: string): void;
  openInBrowser(): void;
  showLog(): void;
  reconnect(): void;
  resumeSandbox(): void;
  /** "Set Up the Model…" on the model's problem. */
  setUpModel(): void;
}

function ring(): TemplateResult {
  return html`<vscode-progress-ring
    class="ring"
    aria-hidden="true"
    role="presentation"
    aria-live="off"
  ></vscode-progress-ring>`;
}

const STATUS_ICONS: Partial<Record<ExecutionStatus, string>> = {
  idle: 'circle-large-outline',
  waiting_for_confirmation: 'question',
  paused: 'debug-pause',
  finished: 'pass',
  error: 'error',
  stuck: 'warning',
  unknown: 'circle-large-outline',
};

/** `usageOpen`: the usage breakdown is shown (the page keeps it across headers). */
export function headerView(header: Header | null, actions: HeaderActions, usageOpen = false): TemplateResult {
  const status = executionStatus(header?.executionStatus ?? null);
  const title = header ? oneLine(header.title, 300) : 'Conversation';
  // no agent yet to have a status
  const statusLabel = header?.starting && status === 'unknown' ? 'starting' : executionStatusLabel(status);
  const statusIcon = STATUS_ICONS[status];
  return html`<div class="header-main">
      <h1 class="title" title=${title}>${title}</h1>
      <div class="header-actions">
        <vscode-button
          id="open-in-browser"
          secondary
          icon="link-external"
          title="Open this conversation in the browser"
          @click=${actions.openInBrowser}
          >Open in Browser</vscode-button
        >
        <vscode-button
          id="show-log"
          secondary
          icon="output"
          title="Show the OpenHands log"
          @click=${actions.showLog}
          >Log</vscode-button
        >
      </div>
    </div>
    <div class="header-meta">
      <span class="exec-status" role="status" aria-live="polite" aria-label=${`Agent status: ${statusLabel}`}>
        ${status === 'running' ? ring() : nothing}
        <vscode-badge class="exec exec-${status}" title="The agent's execution status"
          >${statusIcon ? html`<span class="codicon codicon-${statusIcon}" aria-hidden="true"></span>` : nothing}${statusLabel}</vscode-badge
        >
      </span>
      ${
        header
          ? html`<span class="meta-item" title="Sandbox status"
                ><span class="codicon codicon-vm" aria-hidden="true"></span>Sandbox
                ${sandboxStatusLabel(header.sandboxStatus)}</span
              >
              ${modelButtonView(header, actions)}
              <span class="meta-item" title="Events received"
                ><span class="codicon codicon-history" aria-hidden="true"></span
                >${formatCount(header.eventCount)} ${header.eventCount === 1 ? 'event' : 'events'}</span
              >
              ${usageButtonView(header.usage, usageOpen, actions)}`
          : nothing
      }
    </div>
    ${agentGitView(header?.git, actions)} ${handedOverView(header?.handedOver)}
    ${usageBreakdownView(header?.usage, usageOpen)}`;
}

/**
 * The mark shown while the feed is not live, or nothing. `retrySeconds` is what is left of the
 * host's `retryInMs`, counted down by the page.
 */
export function bannerView(
  header: Header | null,
  retrySeconds: number | null,
  actions: HeaderActions,
): TemplateResult | typeof nothing {
  const feed = header?.feed ?? 'connecting';
  if (header?.starting)
    return html`<div class="feed-banner feed-connecting feed-starting" role="status" aria-live="polite">
      <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span>
      <div class="banner-text">
        <span class="banner-headline">${oneLine(header.starting.status, 300)}</span>
        <span class="banner-note"
          >The conversation is starting. You can write to the agent now: OpenHands queues your messages and
          the agent gets them once it has started.</span
        >
      </div>
    </div>`;
  if (feed === 'live') return nothing;
  const detail = header?.feedDetail ? oneLine(header.feedDetail, 400) : '';
  const stale = 'What is shown may be out of date.';
  let icon = 'sync';
  let spin = false;
  let headline: string | TemplateResult;
  let note = stale;
  let button: TemplateResult | typeof nothing = nothing;
  switch (feed) {
    case 'connecting':
      spin = true;
      headline = 'Connecting…';
      note = header ? stale : 'Loading the conversation.';
      break;
    case 'reconnecting':
      spin = retrySeconds === 0;
      // the countdown is seen, not announced every second
      headline =
        retrySeconds === null || retrySeconds === 0
          ? 'Reconnecting…'
          : html`Reconnecting<span class="countdown" aria-hidden="true"> in ${retrySeconds} s</span>`;
      // the host's reasons are sentences already
      if (detail) note = `${/[.!?…]$/.test(detail) ? detail : `${detail}.`} ${stale}`;
      button = html`<vscode-button id="retry-now" secondary icon="refresh" @click=${actions.reconnect}
        >Retry now</vscode-button
      >`;
      break;
    case 'offline':
      icon = 'debug-disconnect';
      headline = detail ? `Offline: ${detail}` : 'Offline';
      note = 'Showing the last known transcript; it may be out of date.';
      if (header?.canResume)
        button = html`<vscode-button id="resume-sandbox" icon="debug-start" @click=${actions.resumeSandbox}
          >Resume Sandbox</vscode-button
        >`;
      break;
    default:
      icon = 'debug-disconnect';
      headline = detail ? `Disconnected: ${detail}` : 'Disconnected';
      button = html`<vscode-button id="retry" secondary icon="refresh" @click=${actions.reconnect}
        >Retry</vscode-button
      >`;
  }
  return html`<div class="feed-banner feed-${feed}" role="status" aria-live="polite">
    <span class="codicon codicon-${icon}${spin ? ' codicon-modifier-spin' : ''}" aria-hidden="true"></span>
    <div class="banner-text">
      <span class="banner-headline">${headline}</span>
      <span class="banner-note">${note}</span>
    </div>
    ${button}
  </div>`;
}

/** Why the transcript shown is not the whole conversation, with the way to see all of it; or nothing. */
export function noticeView(header: Header | null, actions: HeaderActions): TemplateResult | typeof nothing {
  if (!header?.notice) return nothing;
  return html`<div class="history-notice" role="status" aria-live="polite">
    <span class="codicon codicon-warning" aria-hidden="true"></span>
    <div class="banner-text">
      <span class="banner-note">${oneLine(header.notice, 600)}</span>
    </div>
    <vscode-button id="notice-open-in-browser" secondary icon="link-external" @click=${actions.openInBrowser}
      >Open in Browser</vscode-button
    >
  </div>`;
}

/**
 * The model failed (a refused or missing key, an unknown model, a quota) or stays silent while the agent
 * runs: our words, the provider's beside them as text, and Set Up the Model…; or nothing.
 */
export function modelProblemView(
  header: Header | null,
  actions: HeaderActions,
): TemplateResult | typeof nothing {
  const problem = header?.modelProblem;
  if (!problem) return nothing;
  return html`<div class="model-problem model-${problem.kind}" role="alert">
    <span class="codicon codicon-${problem.kind === 'failed' ? 'error' : 'watch'}" aria-hidden="true"></span>
    <div class="banner-text">
      <span class="banner-headline">${oneLine(problem.text, 600)}</span>
      ${problem.detail ? html`<span class="banner-note">${oneLine(problem.detail, 600)}</span>` : nothing}
    </div>
    <vscode-button id="set-up-model" icon="settings-gear" @click=${actions.setUpModel}
      >Set Up the Model…</vscode-button
    >
  </div>`;
}

/** The newest page the agent saw, small, while it browses: a click opens it whole, "Show the step" finds its row. */
export function browserStripView(
  strip: BrowserStrip | null | undefined,
  actions: HeaderActions,
): TemplateResult | typeof nothing {
  if (!strip) return nothing;
  return html`<section class="browser-strip" aria-label="The page the agent sees">
    <openhands-image max-height="72" .ref=${strip.image}></openhands-image>
    <div class="strip-text">
      <span class="strip-title"
        ><span class="codicon codicon-globe" aria-hidden="true"></span>The agent is browsing</span
      >
      ${strip.url ? html`<span class="strip-url" title=${oneLine(strip.url, 2048)}>${oneLine(strip.url, 200)}</span>` : nothing}
      <button type="button" class="link-button" @click=${() => actions.showRow(strip.rowId)}>
        Show the step
      </button>
    </div>
  </section>`;
}
