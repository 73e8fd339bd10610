/**
 * The form's markup (lit templates over VS Code Elements). Every input has a label, every icon
 * button an accessible name, and each field's message sits right under it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { errorDomId, fieldDomId, fieldPath } from '../fieldPath';
import type { FormModel, ProviderModel } from '../formSchema';
import type { BusyOperation } from '../protocol';
import type { PartOutcome, SyncStatus } from '../syncOutcome';
import { format, type UiStrings } from '../uiStrings';
import type {
  EditorDraft,
  EnvEdit,
  ProviderEdit,
  SecretEdit,
  ShttpEdit,
  SseEdit,
  StdioEdit,
} from './editorDraft';

export type Banner = 'saved' | 'synced' | 'invalid' | null;

export interface ViewState {
  strings: UiStrings;
  model: FormModel | null;
  sync: SyncStatus;
  draft: EditorDraft | null;
  busy: BusyOperation | null;
  dirty: boolean;
  stale: boolean;
  banner: Banner;
  errorFor(path: string): string | undefined;
}

export interface ViewActions {
  edit(path: string, apply: (draft: EditorDraft) => void): void;
  touch(path: string): void;
  focusLater(domId: string): void;
  addSse(): void;
  addShttp(): void;
  addStdio(): void;
  removeEntry(kind: 'sse' | 'shttp' | 'stdio', index: number): void;
  save(): void;
  discard(): void;
  reload(): void;
  retrySync(): void;
  showLog(): void;
  configureServer(): void;
}

export function valueOf(event: Event): string {
  const target = event.target;
  return target !== null && 'value' in target && typeof target.value === 'string' ? target.value : '';
}

export function appView(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  if (!state.model || !state.draft) {
    return html`<h1>${s.title}</h1>
      <p>${state.busy === 'load' ? s.loading : s.noServer}</p>
      ${
        state.busy === 'load'
          ? nothing
          : html`<vscode-button id="configure-server" @click=${actions.configureServer}
              >${s.configureServer}</vscode-button
            >`
      }`;
  }
  const draft = state.draft;
  return html`
    <header class="page-header">
      <h1>${s.title}</h1>
      <p class="server">${format(s.serverLabel, state.model.serverUrl)}</p>
    </header>
    ${toolbar(state, actions)} ${statusArea(state, actions)}
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
        (entry, index) => sseView(state, actions, entry, index),
      )}
      ${repeat(
        draft.shttp,
        (e) => e.key,
        (entry, index) => shttpView(state, actions, entry, index),
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

function statusArea(state: ViewState, actions: ViewActions): TemplateResult {
  const s = state.strings;
  const lines: TemplateResult[] = [];
  if (state.busy) {
    const label = state.busy === 'save' ? s.saving : state.busy === 'sync' ? s.syncing : s.loading;
    lines.push(html`<p class="busy"><vscode-progress-ring class="ring"></vscode-progress-ring>${label}</p>`);
  }
  if (state.banner === 'invalid') {
    lines.push(html`<p class="error-banner" id="validation-banner">${s.validationBanner}</p>`);
  }
  const last = state.sync.last;
  if ((state.banner === 'saved' || state.banner === 'synced') && last) {
    lines.push(
      html`<div class="outcome" id="sync-outcome" tabindex="-1">
        ${state.banner === 'saved' ? html`<p><strong>${s.savedLocally}</strong></p>` : nothing}
        <p id="outcome-tokens" class=${partClass(last.tokens)}>
          ${s.tokensPart}: ${partText(s, last.tokens)}
        </p>
        <p id="outcome-mcp" class=${partClass(last.mcp)}>${s.mcpPart}: ${partText(s, last.mcp)}</p>
      </div>`,
    );
  }
  if (state.sync.pending.tokens || state.sync.pending.mcp) {
    lines.push(
      html`<p class="pending" id="pending-banner">
        <vscode-icon name="cloud-upload"></vscode-icon>${s.pendingBanner}
        <vscode-button id="retry-sync" secondary ?disabled=${state.busy !== null} @click=${actions.retrySync}
          >${s.retrySync}</vscode-button
        >
      </p>`,
    );
  }
  if (state.sync.loadProblem) {
    lines.push(
      html`<p class="warning" id="load-problem">${format(s.loadProblem, state.sync.loadProblem)}</p>`,
    );
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
    case 'pending':
      return format(s.statusPending, part.message ?? '');
    case 'failed':
      return format(s.statusFailed, part.message ?? '');
  }
}

// ---- providers ----

/** Shown as the host placeholder: what an empty host means. */
const DEFAULT_HOSTS: Record<ProviderEdit['provider'], string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  enterprise_sso: '',
};

function providerLabel(s: UiStrings, provider: ProviderEdit['provider']): string {
  return s[`provider_${provider}`];
}

function serverStatus(s: UiStrings, model: ProviderModel | undefined): TemplateResult {
  const badges: TemplateResult[] = [];
  const server = model?.server;
  if (server === null || server === undefined)
    badges.push(html`<span class="badge muted">${s.serverUnknown}</span>`);
  else if (server.set) {
    const text = server.host ? format(s.serverSetHost, server.host) : s.serverSet;
    badges.push(html`<span class="badge ok"><vscode-icon name="pass"></vscode-icon>${text}</span>`);
  } else badges.push(html`<span class="badge muted">${s.serverNotSet}</span>`);
  if (model?.pending) badges.push(html`<span class="badge pending">${s.pendingChange}</span>`);
  return html`${badges}`;
}

function providerView(
  state: ViewState,
  actions: ViewActions,
  provider: ProviderEdit,
  index: number,
): TemplateResult {
  const s = state.strings;
  const label = providerLabel(s, provider.provider);
  const model = state.model?.providers.find((p) => p.provider === provider.provider);
  const tokenPath = fieldPath.providerToken(provider.provider);
  const hostPath = fieldPath.providerHost(provider.provider);
  const hasToken = provider.token.input.state === 'set' || provider.token.input.state === 'replace';
  return html`<div class="card provider" id=${`provider-${provider.provider}`}>
    <div class="card-header">
      <h3>${label}</h3>
      <span class="badges">${serverStatus(s, model)}</span>
    </div>
    <div class="provider-fields">
      ${secretField(state, actions, {
        path: tokenPath,
        label: format(s.tokenLabel, label),
        edit: provider.token,
        set: (draft, edit) => {
          const target = draft.providers[index];
          if (target) target.token = edit;
        },
      })}
      ${textField(state, actions, {
        path: hostPath,
        label: format(s.hostLabel, label),
        value: provider.host,
        placeholder: DEFAULT_HOSTS[provider.provider],
        disabled: !hasToken,
        set: (draft, value) => {
          const target = draft.providers[index];
          if (target) target.host = value;
        },
      })}
    </div>
  </div>`;
}

// ---- MCP entries ----

function entryHeader(
  state: ViewState,
  actions: ViewActions,
  kind: 'sse' | 'shttp' | 'stdio',
  index: number,
  title: string,
): TemplateResult {
  return html`<div class="card-header">
    <h3>${title}</h3>
    <vscode-button
      id=${`remove-${kind}-${index}`}
      secondary
      icon="trash"
      aria-label=${format(state.strings.removeLabel, title)}
      @click=${() => actions.removeEntry(kind, index)}
      >${state.strings.remove}</vscode-button
    >
  </div>`;
}

function sseView(state: ViewState, actions: ViewActions, entry: SseEdit, index: number): TemplateResult {
  const s = state.strings;
  const title = format(s.entryTitle, s.kindSse, index + 1);
  return html`<div class="card entry" id=${`entry-sse-${index}`}>
    ${entryHeader(state, actions, 'sse', index, title)}
    ${textField(state, actions, {
      path: fieldPath.url('sse', index),
      label: s.urlLabel,
      value: entry.url,
      placeholder: 'https://mcp.example.com/sse',
      set: (draft, value) => {
        const target = draft.sse[index];
        if (target) target.url = value;
      },
    })}
    ${secretField(state, actions, {
      path: fieldPath.apiKey('sse', index),
      label: s.apiKeyLabel,
      edit: entry.apiKey,
      set: (draft, edit) => {
        const target = draft.sse[index];
        if (target) target.apiKey = edit;
      },
    })}
  </div>`;
}

function shttpView(state: ViewState, actions: ViewActions, entry: ShttpEdit, index: number): TemplateResult {
  const s = state.strings;
  const title = format(s.entryTitle, s.kindShttp, index + 1);
  return html`<div class="card entry" id=${`entry-shttp-${index}`}>
    ${entryHeader(state, actions, 'shttp', index, title)}
    ${textField(state, actions, {
      path: fieldPath.url('shttp', index),
      label: s.urlLabel,
      value: entry.url,
      placeholder: 'https://mcp.example.com/mcp',
      set: (draft, value) => {
        const target = draft.shttp[index];
        if (target) target.url = value;
      },
    })}
    ${secretField(state, actions, {
      path: fieldPath.apiKey('shttp', index),
      label: s.apiKeyLabel,
      edit: entry.apiKey,
      set: (draft, edit) => {
        const target = draft.shttp[index];
        if (target) target.apiKey = edit;
      },
    })}
    ${textField(state, actions, {
      path: fieldPath.timeout(index),
      label: s.timeoutLabel,
      value: entry.timeout,
      help: s.timeoutHelp,
      inputMode: 'numeric',
      set: (draft, value) => {
        const target = draft.shttp[index];
        if (target) target.timeout = value;
      },
    })}
  </div>`;
}

function stdioView(state: ViewState, actions: ViewActions, entry: StdioEdit, index: number): TemplateResult {
  const s = state.strings;
  const title = format(s.entryTitle, s.kindStdio, index + 1);
  const stdio = (draft: EditorDraft) => draft.stdio[index];
  return html`<div class="card entry" id=${`entry-stdio-${index}`}>
    ${entryHeader(state, actions, 'stdio', index, title)}
    ${textField(state, actions, {
      path: fieldPath.name(index),
      label: s.nameLabel,
      value: entry.name,
      placeholder: 'fetch',
      set: (draft, value) => {
        const target = stdio(draft);
        if (target) target.name = value;
      },
    })}
    ${textField(state, actions, {
      path: fieldPath.command(index),
      label: s.commandLabel,
      value: entry.command,
      placeholder: 'uvx',
      help: s.commandHelp,
      set: (draft, value) => {
        const target = stdio(draft);
        if (target) target.command = value;
      },
    })}
    <fieldset class="rows" aria-describedby=${errorDomId(fieldPath.args(index))}>
      <legend>${s.argsLabel}</legend>
      ${repeat(
        entry.args,
        (arg) => arg.key,
        (arg, argIndex) => {
          const path = fieldPath.arg(index, argIndex);
          const label = format(s.argLabel, argIndex + 1);
          return html`<div class="row">
            ${textField(state, actions, {
              path,
              label,
              value: arg.value,
              hiddenLabel: true,
              set: (draft, value) => {
                const target = stdio(draft)?.args[argIndex];
                if (target) target.value = value;
              },
            })}
            <vscode-button
              class="row-remove"
              id=${`${fieldDomId(path)}-remove`}
              secondary
              icon="close"
              aria-label=${format(s.removeLabel, label)}
              title=${format(s.removeLabel, label)}
              @click=${() =>
                actions.edit(fieldPath.args(index), (draft) => {
                  stdio(draft)?.args.splice(argIndex, 1);
                })}
            ></vscode-button>
          </div>`;
        },
      )}
      ${fieldMessage(state, fieldPath.args(index))}
      <vscode-button
        id=${`add-arg-${index}`}
        secondary
        icon="add"
        @click=${() => {
          const argIndex = entry.args.length;
          actions.edit(fieldPath.args(index), (draft) => {
            stdio(draft)?.args.push({ key: newRowKey(), value: '' });
          });
          actions.focusLater(fieldDomId(fieldPath.arg(index, argIndex)));
        }}
        >${s.addArg}</vscode-button
      >
    </fieldset>
    <fieldset class="rows" aria-describedby=${errorDomId(fieldPath.env(index))}>
      <legend>${s.envLabel}</legend>
      ${repeat(
        entry.env,
        (row) => row.key,
        (row, envIndex) => envRow(state, actions, index, envIndex, row),
      )}
      ${fieldMessage(state, fieldPath.env(index))}
      <vscode-button
        id=${`add-env-${index}`}
        secondary
        icon="add"
        @click=${() => {
          const envIndex = entry.env.length;
          actions.edit(fieldPath.env(index), (draft) => {
            stdio(draft)?.env.push({
              key: newRowKey(),
              id: null,
              name: '',
              value: { input: { state: 'replace', value: '' }, stored: 'unset' },
            });
          });
          actions.focusLater(fieldDomId(fieldPath.envName(index, envIndex)));
        }}
        >${s.addEnv}</vscode-button
      >
    </fieldset>
  </div>`;
}

function envRow(
  state: ViewState,
  actions: ViewActions,
  index: number,
  envIndex: number,
  row: EnvEdit,
): TemplateResult {
  const s = state.strings;
  const namePath = fieldPath.envName(index, envIndex);
  return html`<div class="row env-row">
    ${textField(state, actions, {
      path: namePath,
      label: format(s.envNameLabel, envIndex + 1),
      value: row.name,
      placeholder: 'API_TOKEN',
      hiddenLabel: true,
      set: (draft, value) => {
        const target = draft.stdio[index]?.env[envIndex];
        if (target) target.name = value;
      },
    })}
    ${secretField(state, actions, {
      path: fieldPath.envValue(index, envIndex),
      label: format(s.envValueLabel, envIndex + 1),
      edit: row.value,
      hiddenLabel: true,
      set: (draft, edit) => {
        const target = draft.stdio[index]?.env[envIndex];
        if (target) target.value = edit;
      },
    })}
    <vscode-button
      class="row-remove"
      id=${`${fieldDomId(namePath)}-remove`}
      secondary
      icon="close"
      aria-label=${format(s.removeLabel, format(s.envNameLabel, envIndex + 1))}
      title=${format(s.removeLabel, format(s.envNameLabel, envIndex + 1))}
      @click=${() =>
        actions.edit(fieldPath.env(index), (draft) => {
          draft.stdio[index]?.env.splice(envIndex, 1);
        })}
    ></vscode-button>
  </div>`;
}

let rowCounter = 0;
function newRowKey(): string {
  rowCounter += 1;
  return `r${Date.now().toString(36)}${rowCounter.toString(36)}`;
}

// ---- fields ----

interface TextFieldOptions {
  path: string;
  label: string;
  value: string;
  help?: string;
  placeholder?: string;
  disabled?: boolean;
  hiddenLabel?: boolean;
  inputMode?: 'numeric';
  set(draft: EditorDraft, value: string): void;
}

function fieldMessage(state: ViewState, path: string): TemplateResult {
  const error = state.errorFor(path);
  return html`<div
    class="message ${error ? 'error' : ''}"
    id=${errorDomId(path)}
    role=${error ? 'alert' : nothing}
  >
    ${error ? html`<vscode-icon name="error"></vscode-icon><span>${error}</span>` : nothing}
  </div>`;
}

function textField(state: ViewState, actions: ViewActions, options: TextFieldOptions): TemplateResult {
  const id = fieldDomId(options.path);
  const error = state.errorFor(options.path);
  return html`<div class="field">
    <vscode-label for=${id} class=${options.hiddenLabel ? 'visually-hidden' : ''}
      >${options.label}</vscode-label
    >
    <vscode-textfield
      id=${id}
      data-path=${options.path}
      .value=${live(options.value)}
      placeholder=${options.placeholder ?? nothing}
      inputmode=${options.inputMode ?? nothing}
      ?disabled=${options.disabled ?? false}
      ?invalid=${error !== undefined}
      @input=${(event: Event) => actions.edit(options.path, (draft) => options.set(draft, valueOf(event)))}
      @change=${() => actions.touch(options.path)}
    ></vscode-textfield>
    ${options.help ? html`<vscode-form-helper>${options.help}</vscode-form-helper>` : nothing}
    ${fieldMessage(state, options.path)}
  </div>`;
}

interface SecretFieldOptions {
  path: string;
  label: string;
  edit: SecretEdit;
  hiddenLabel?: boolean;
  set(draft: EditorDraft, edit: SecretEdit): void;
}

/**
 * A write-only secret: the stored value is never shown, only whether there is one, with Replace /
 * Clear (or Set… when there is none). Typing happens in a password field.
 */
function secretField(state: ViewState, actions: ViewActions, options: SecretFieldOptions): TemplateResult {
  const s = state.strings;
  const id = fieldDomId(options.path);
  const { input, stored } = options.edit;
  const change = (next: SecretEdit['input'], focus: string) => {
    actions.edit(options.path, (draft) => options.set(draft, { input: next, stored }));
    actions.focusLater(focus);
  };
  const button = (
    suffix: string,
    text: string,
    ariaLabel: string,
    next: SecretEdit['input'],
    focus: string,
  ) =>
    html`<vscode-button
      id=${`${id}-${suffix}`}
      secondary
      aria-label=${format(ariaLabel, options.label)}
      @click=${() => change(next, focus)}
      >${text}</vscode-button
    >`;
  const back = stored === 'set' ? `${id}-replace` : `${id}-set`;
  let body: TemplateResult;
  if (input.state === 'replace') {
    body = html`<vscode-textfield
        id=${id}
        data-path=${options.path}
        type="password"
        autocomplete="off"
        .value=${live(input.value)}
        ?invalid=${state.errorFor(options.path) !== undefined}
        @input=${(event: Event) =>
          actions.edit(options.path, (draft) =>
            options.set(draft, { input: { state: 'replace', value: valueOf(event) }, stored }),
          )}
        @change=${() => actions.touch(options.path)}
      ></vscode-textfield>
      ${button('cancel', s.cancel, s.cancelLabel, { state: stored }, back)}`;
  } else if (input.state === 'clear') {
    body = html`<span class="secret-state cleared" id=${`${id}-state`}>${s.secretWillClear}</span>
      ${button('undo', s.undo, s.undoLabel, { state: stored }, back)}`;
  } else if (stored === 'set') {
    body = html`<span class="secret-state" id=${`${id}-state`}
        ><vscode-icon name="lock"></vscode-icon>${s.secretSet}</span
      >
      ${button('replace', s.replace, s.replaceLabel, { state: 'replace', value: '' }, id)}
      ${button('clear', s.clear, s.clearLabel, { state: 'clear' }, `${id}-undo`)}`;
  } else {
    body = html`<span class="secret-state muted" id=${`${id}-state`}>${s.secretUnset}</span>
      ${button('set', s.setValue, s.setLabel, { state: 'replace', value: '' }, id)}`;
  }
  // Label the password field when present, otherwise the group (its state text and buttons).
  return html`<div class="field secret" role="group" aria-label=${options.label}>
    <vscode-label for=${id} class=${options.hiddenLabel ? 'visually-hidden' : ''}
      >${options.label}</vscode-label
    >
    <div class="secret-controls">${body}</div>
    ${fieldMessage(state, options.path)}
  </div>`;
}
