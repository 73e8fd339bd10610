/**
 * The form page (lit templates over VS Code Elements): title, toolbar, outcome and status lines,
 * then the git providers and the MCP servers.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { fieldPath } from '../shared/fieldPath';
import { isSettled, type PartOutcome } from '../shared/saveOutcome';
import { format, type UiStrings } from '../shared/uiStrings';
import { remoteView, stdioView } from './mcpView';
import { providerView } from './providerView';
import type { ViewActions, ViewState } from './viewModel';

export function appView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  if (!state.model || !state.draft) return emptyView(state, actions);
  const draft = state.draft;
  return html`
    <header class="page-header">
      <h1>${s.title}</h1>
      <p class="server">${format(s.serverLabel, state.model.serverUrl)}</p>
    </header>
    ${toolbar(state, actions)} ${statusArea(state)}
    <section class="section" aria-labelledby="providers-heading">
      <h2 id="providers-heading">${s.providersHeading}</h2>
      <p class="help">${s.providersHelp} ${s.hostHelp}</p>
      ${repeat(
        draft.providers,
        (provider) => provider.provider,
        (provider, index) => providerView(state, actions, provider, index),
      )}
    </section>
    <section class="section" aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">${s.mcpHeading}</h2>
      <p class="help">${s.mcpHelp}</p>
      ${
        draft.sse.length + draft.shttp.length + draft.stdio.length === 0
          ? html`<p class="empty">${s.mcpEmpty}</p>`
          : nothing
      }
      ${repeat(
        draft.sse,
        (e) => e.key,
        (entry, index) => remoteView(state, actions, 'sse', entry, index),
      )}
      ${repeat(
        draft.shttp,
        (e) => e.key,
        (entry, index) => remoteView(state, actions, 'shttp', entry, index),
      )}
      ${repeat(
        draft.stdio,
        (e) => e.key,
        (entry, index) => stdioView(state, actions, entry, index),
      )}
      <div class="add-row">
        <vscode-button id="add-sse" secondary icon="add" @click=${actions.addSse}>${s.addSse}</vscode-button>
        <vscode-button id="add-shttp" secondary icon="add" @click=${actions.addShttp}
          >${s.addShttp}</vscode-button
        >
        <vscode-button id="add-stdio" secondary icon="add" @click=${actions.addStdio}
          >${s.addStdio}</vscode-button
        >
      </div>
    </section>
    ${toolbar(state, actions, 'bottom')}
  `;
}

function toolbar(state: ViewState, actions: ViewActions, where: 'top' | 'bottom' = 'top'): TemplateResult {
  const s = state.strings;
  const busy = state.busy !== null;
  const suffix = where === 'top' ? '' : '-bottom';
  return html`<div class="toolbar ${where}" role="toolbar" aria-label=${s.title}>
    <vscode-button id=${`save${suffix}`} icon="save" ?disabled=${busy} @click=${actions.save}
      >${s.save}</vscode-button
    >
    <vscode-button
      id=${`discard${suffix}`}
      secondary
      ?disabled=${busy || !state.dirty}
      @click=${actions.discard}
      >${s.discard}</vscode-button
    >
    ${
      where === 'top'
        ? html`<vscode-button id="reload" secondary icon="refresh" ?disabled=${busy} @click=${actions.reload}
              >${s.reload}</vscode-button
            >
            <vscode-button id="show-log" secondary icon="output" @click=${actions.showLog}
              >${s.showLog}</vscode-button
            >
            ${state.dirty ? html`<span class="dirty">${s.unsavedChanges}</span>` : nothing}`
        : nothing
    }
  </div>`;
}

/** No form to show: loading, no server configured, or the server could not be read. */
function emptyView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  const action = state.loadProblem
    ? html`<p class="warning" id="load-problem">${format(s.loadProblem, state.loadProblem)}</p>
        <vscode-button id="reload" icon="refresh" @click=${actions.reload}>${s.reload}</vscode-button>
        <vscode-button id="show-log" secondary icon="output" @click=${actions.showLog}
          >${s.showLog}</vscode-button
        >`
    : html`<p>${s.noServer}</p>
        <vscode-button id="configure-server" @click=${actions.configureServer}
          >${s.configureServer}</vscode-button
        >`;
  return html`<h1>${s.title}</h1>
    ${state.busy === 'load' ? html`<p>${s.loading}</p>` : action}`;
}

function statusArea(state: ViewState): TemplateResult {
  const s = state.strings;
  const lines: TemplateResult[] = [];
  if (state.busy) {
    const label = state.busy === 'save' ? s.saving : state.busy === 'check' ? s.checking : s.loading;
    lines.push(html`<p class="busy"><vscode-progress-ring class="ring"></vscode-progress-ring>${label}</p>`);
  }
  const formError = state.errorFor(fieldPath.form);
  if (formError) {
    lines.push(html`<p class="error-banner" id="form-error" role="alert">${formError}</p>`);
  } else if (state.banner === 'invalid') {
    lines.push(html`<p class="error-banner" id="validation-banner">${s.validationBanner}</p>`);
  }
  const outcome = state.outcome;
  if (state.banner === 'saved' && outcome) {
    const failed = !isSettled(outcome.tokens) || !isSettled(outcome.mcp);
    // one reason for both (the server could not be read): said once
    const oneReason =
      !isSettled(outcome.tokens) && !isSettled(outcome.mcp) && outcome.tokens.message === outcome.mcp.message;
    const banner = oneReason ? s.nothingSaved : failed ? s.notSavedBanner : undefined;
    lines.push(
      html`<div class="outcome" id="save-outcome" tabindex="-1">
        ${banner ? html`<p class="error-banner" id="not-saved-banner">${banner}</p>` : nothing}
        ${
          oneReason
            ? html`<p id="outcome-all" class="part part-failed">${outcome.mcp.message}</p>`
            : html`<p id="outcome-tokens" class=${partClass(outcome.tokens)}>
                  ${s.tokensPart}: ${partText(s, outcome.tokens)}
                </p>
                <p id="outcome-mcp" class=${partClass(outcome.mcp)}>
                  ${s.mcpPart}: ${partText(s, outcome.mcp)}
                </p>`
        }
      </div>`,
    );
  }
  if (state.loadProblem) {
    lines.push(html`<p class="warning" id="load-problem">${format(s.loadProblem, state.loadProblem)}</p>`);
  }
  if (state.stale) {
    lines.push(html`<p class="warning" id="stale-draft">${s.staleDraft}</p>`);
  }
  return html`<div class="status" role="status" aria-live="polite">${lines}</div>`;
}

function partClass(part: PartOutcome): string {
  return `part part-${part.status}`;
}

function partText(s: UiStrings, part: PartOutcome): string {
  switch (part.status) {
    case 'synced':
      return part.via === 'settings' ? s.statusSyncedViaSettings : s.statusSynced;
    case 'unchanged':
      return s.statusUnchanged;
    case 'failed':
      return format(s.statusFailed, part.message ?? '');
  }
}
