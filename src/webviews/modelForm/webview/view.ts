/**
 * The Model page (lit templates over VS Code Elements): the server, where the model stands, the model
 * (from the server's list, or a custom one), its key, the agent's options, Save, and the profiles.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Choice, ModelDraft, PageModel } from '../shared/pageModel';
import { format } from '../shared/uiStrings';
import { message, openInBrowser, textField, valueOf } from './fields';
import { profilesSection } from './profilesView';
import type { ShownList, ViewActions, ViewState } from './viewModel';

function checkedOf(event: Event): boolean {
  const target = event.target;
  return target !== null && 'checked' in target && target.checked === true;
}

export function appView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  const page = state.page;
  if (!page || !state.draft) return emptyView(state, actions);
  return html`
    <header class="page-header">
      <h1>${s.title}</h1>
      <p class="server" id="server-name">${format(s.serverLabel, page.serverName)}</p>
    </header>
    ${statusArea(state)}
    ${
      page.settingsRoute === 'none'
        ? notOfferedView(state, actions)
        : html`${modelSection(state, actions, page, state.draft)}
          ${keySection(state, actions, page, state.draft)}
          ${optionsSection(state, actions, page, state.draft)} ${toolbar(state, actions)}`
    }
    <section class="section" aria-labelledby="test-heading">
      <h2 id="test-heading">${s.testHeading}</h2>
      <p class="help" id="test-words">${s.testNoRoute}</p>
    </section>
    ${profilesSection(state, actions, page)}
  `;
}

function emptyView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  const busy = state.busy !== null;
  return html`<header class="page-header"><h1>${s.title}</h1></header>
    ${
      busy
        ? html`<p class="muted"><vscode-progress-ring></vscode-progress-ring>${s.loading}</p>`
        : state.problem
          ? html`<p class="message error" role="alert" id="load-problem">${state.problem}</p>
              <div class="toolbar">
                <vscode-button icon="refresh" @click=${actions.reload}>${s.reload}</vscode-button>
                <vscode-button secondary icon="output" @click=${actions.showLog}>${s.showLog}</vscode-button>
              </div>`
          : html`<p class="muted">${s.noServer}</p>
              <vscode-button id="configure-server" @click=${actions.configureServer}
                >${s.configureServer}</vscode-button
              >`
    }`;
}

function statusArea(state: ViewState): TemplateResult {
  const page = state.page;
  const notice = state.notice;
  const ready = page?.readiness === 'ready';
  // a save's notice ends with the readiness it read back: one line says both
  const saidByNotice = page !== null && notice?.kind === 'ok' && notice.text.endsWith(page.readinessText);
  return html`<div class="status" aria-live="polite">
    ${
      page && !saidByNotice
        ? html`<p class="readiness ${ready ? 'ok' : 'warn'}" id="readiness">
            <vscode-icon name=${ready ? 'pass' : 'warning'}></vscode-icon><span>${page.readinessText}</span>
          </p>`
        : nothing
    }
    ${
      notice
        ? html`<p
            class="notice ${notice.kind} ${saidByNotice ? `readiness ${ready ? 'ok' : 'warn'}` : ''}"
            id="notice"
            role=${notice.kind === 'error' ? 'alert' : 'status'}
          >
            ${
              saidByNotice ? html`<vscode-icon name=${ready ? 'pass' : 'warning'}></vscode-icon>` : nothing
            }<span>${notice.text}</span>
          </p>`
        : nothing
    }
    ${
      state.busy === 'save'
        ? html`<p class="muted"><vscode-progress-ring></vscode-progress-ring>${state.strings.saving}</p>`
        : nothing
    }
  </div>`;
}

function notOfferedView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  return html`<section class="section" aria-labelledby="model-heading">
    <h2 id="model-heading">${s.modelHeading}</h2>
    <p id="settings-not-offered">${s.notOfferedSettings}</p>
    ${openInBrowser(state, actions, 'open-in-browser')}
  </section>`;
}

function modelSection(
  state: ViewState,
  actions: ViewActions,
  page: PageModel,
  draft: ModelDraft,
): TemplateResult {
  const s = state.strings;
  const custom = draft.source === 'custom';
  return html`<section class="section" aria-labelledby="model-heading">
    <h2 id="model-heading">${s.modelHeading}</h2>
    ${
      page.catalogueOffered
        ? html`<div class="sources" role="radiogroup" aria-labelledby="model-heading">
            <vscode-radio
              id="source-catalogue"
              name="source"
              ?checked=${!custom}
              @change=${(e: Event) => checkedOf(e) && actions.edit('source', 'catalogue')}
              >${s.sourceCatalogue}</vscode-radio
            >
            <vscode-radio
              id="source-custom"
              name="source"
              ?checked=${custom}
              @change=${(e: Event) => checkedOf(e) && actions.edit('source', 'custom')}
              >${s.sourceCustom}</vscode-radio
            >
          </div>`
        : html`<p class="help">${s.noCatalogue}</p>`
    }
    ${custom || !page.catalogueOffered ? customFields(state, actions, draft) : catalogueFields(state, actions, draft)}
  </section>`;
}

function customFields(state: ViewState, actions: ViewActions, draft: ModelDraft): TemplateResult {
  const s = state.strings;
  return html`${textField(state, {
    id: 'custom-model',
    field: 'customModel',
    label: s.customModelLabel,
    value: draft.customModel,
    help: s.customModelHelp,
    placeholder: 'openai/my-model',
    onInput: (value) => actions.edit('customModel', value),
  })}
  ${textField(state, {
    id: 'base-url',
    field: 'baseUrl',
    label: s.baseUrlLabel,
    value: draft.baseUrl,
    help: s.baseUrlHelp,
    placeholder: 'http://127.0.0.1:8000/v1',
    onInput: (value) => actions.edit('baseUrl', value),
  })}`;
}

function catalogueFields(state: ViewState, actions: ViewActions, draft: ModelDraft): TemplateResult {
  const s = state.strings;
  return html`<div class="lists">
      ${choiceList(state, {
        id: 'provider',
        label: s.providerLabel,
        search: s.providerSearch,
        shown: state.providers,
        selected: draft.provider,
        onSearch: actions.searchProviders,
        onChoose: actions.chooseProvider,
      })}
      ${
        draft.provider
          ? choiceList(state, {
              id: 'model',
              label: s.modelLabel,
              search: s.modelSearch,
              shown: state.models,
              selected: draft.model,
              onSearch: actions.searchModels,
              onChoose: actions.chooseModel,
            })
          : html`<div class="field">
              <vscode-label>${s.modelLabel}</vscode-label>
              <p class="muted">${s.chooseProvider}</p>
            </div>`
      }
    </div>
    ${message(state, 'model')}`;
}

function choiceList(
  state: ViewState,
  options: {
    id: string;
    label: string;
    search: string;
    shown: ShownList;
    selected: string;
    onSearch(query: string): void;
    onChoose(value: string): void;
  },
): TemplateResult {
  const s = state.strings;
  const { items, more } = options.shown;
  // the stored choice stays visible although the list shown does not hold it
  const listed = items.some((item) => item.value === options.selected);
  const rows: Choice[] =
    options.selected && !listed && !options.shown.query
      ? [{ value: options.selected, label: options.selected, verified: false }, ...items]
      : items;
  return html`<div class="field choice-list">
    <vscode-label for=${`${options.id}-search`}>${options.label}</vscode-label>
    <vscode-textfield
      id=${`${options.id}-search`}
      placeholder=${options.search}
      aria-label=${options.search}
      .value=${live(options.shown.query)}
      @input=${(event: Event) => options.onSearch(valueOf(event))}
    >
      <vscode-icon slot="content-before" name="search"></vscode-icon>
    </vscode-textfield>
    <div class="choices" role="listbox" id=${`${options.id}-list`} aria-label=${options.label}>
      ${rows.length === 0 ? html`<p class="muted">${s.noMatches}</p>` : nothing}
      ${rows.map(
        (item) =>
          html`<div
            class="choice ${item.value === options.selected ? 'selected' : ''}"
            role="option"
            tabindex="0"
            data-value=${item.value}
            aria-selected=${item.value === options.selected ? 'true' : 'false'}
            @click=${() => options.onChoose(item.value)}
            @keydown=${(event: KeyboardEvent) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                options.onChoose(item.value);
              }
            }}
          >
            <span class="choice-label">${item.label}</span>
            ${item.verified ? html`<span class="badge">${s.verifiedMark}</span>` : nothing}
          </div>`,
      )}
    </div>
    ${more > 0 ? html`<vscode-form-helper>${format(s.moreMatches, more)}</vscode-form-helper>` : nothing}
  </div>`;
}

function keySection(
  state: ViewState,
  actions: ViewActions,
  page: PageModel,
  draft: ModelDraft,
): TemplateResult {
  const s = state.strings;
  const stored = page.stored?.apiKeySet ?? false;
  return html`<section class="section" aria-labelledby="key-heading">
    <h2 id="key-heading">${s.keyHeading}</h2>
    <p class="key-state ${stored ? '' : 'muted'}" id="key-state">
      <vscode-icon name=${stored ? 'lock' : 'unlock'}></vscode-icon>${stored ? s.keyStored : s.keyNotStored}
    </p>
    ${textField(state, {
      id: 'api-key',
      field: 'apiKey',
      label: s.keyLabel,
      value: draft.apiKey,
      help: s.keyHelp,
      password: true,
      onInput: (value) => actions.edit('apiKey', value),
    })}
  </section>`;
}

function optionsSection(
  state: ViewState,
  actions: ViewActions,
  page: PageModel,
  draft: ModelDraft,
): TemplateResult | typeof nothing {
  const s = state.strings;
  const stored = page.stored;
  if (!stored) return nothing;
  return html`<section class="section" aria-labelledby="options-heading">
    <h2 id="options-heading">${s.optionsHeading}</h2>
    ${
      stored.confirmationMode !== null
        ? html`<div class="field">
            <vscode-checkbox
              id="confirmation-mode"
              ?checked=${draft.confirmationMode === true}
              @change=${(e: Event) => actions.edit('confirmationMode', checkedOf(e))}
              >${s.confirmationLabel}</vscode-checkbox
            >
          </div>`
        : nothing
    }
    ${
      stored.condenserEnabled !== null
        ? html`<div class="field">
            <vscode-checkbox
              id="condenser"
              ?checked=${draft.condenserEnabled === true}
              @change=${(e: Event) => actions.edit('condenserEnabled', checkedOf(e))}
              >${s.condenserLabel}</vscode-checkbox
            >
          </div>`
        : nothing
    }
    ${
      stored.budgetOffered
        ? textField(state, {
            id: 'max-budget',
            field: 'maxBudget',
            label: s.budgetLabel,
            value: draft.maxBudget,
            help: s.budgetHelp,
            onInput: (value) => actions.edit('maxBudget', value),
          })
        : nothing
    }
  </section>`;
}

function toolbar(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  const busy = state.busy !== null;
  return html`<div class="toolbar" role="toolbar" aria-label=${s.title}>
      <vscode-button id="save" icon="save" ?disabled=${busy} @click=${actions.save}>${s.save}</vscode-button>
      <vscode-button id="reload" secondary icon="refresh" ?disabled=${busy} @click=${actions.reload}
        >${s.reload}</vscode-button
      >
      <vscode-button id="show-log" secondary icon="output" @click=${actions.showLog}
        >${s.showLog}</vscode-button
      >
    </div>
    ${message(state, 'form')}`;
}
