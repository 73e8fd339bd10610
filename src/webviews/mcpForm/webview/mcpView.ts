/** The three kinds of MCP server entry (SSE, streamable HTTP, stdio), each with Remove. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { errorDomId, fieldDomId, fieldPath } from '../shared/fieldPath';
import { format } from '../shared/uiStrings';
import {
  newKey,
  type EditorDraft,
  type EnvEdit,
  type ShttpEdit,
  type SseEdit,
  type StdioEdit,
} from './editorDraft';
import { fieldMessage, secretField, textField } from './fields';
import type { ViewActions, ViewState } from './viewModel';

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

const REMOTE_PLACEHOLDERS = { sse: 'https://mcp.example.com/sse', shttp: 'https://mcp.example.com/mcp' };

/** An SSE or streamable HTTP server: URL, API key, and (HTTP only) a timeout. */
export function remoteView(
  state: ViewState,
  actions: ViewActions,
  kind: 'sse' | 'shttp',
  entry: SseEdit | ShttpEdit,
  index: number,
): TemplateResult {
  const s = state.strings;
  const title = format(s.entryTitle, kind === 'sse' ? s.kindSse : s.kindShttp, index + 1);
  const remote = (draft: EditorDraft): SseEdit | ShttpEdit | undefined => draft[kind][index];
  return html`<div class="card entry" id=${`entry-${kind}-${index}`}>
    ${entryHeader(state, actions, kind, index, title)}
    ${textField(state, actions, {
      path: fieldPath.url(kind, index),
      label: s.urlLabel,
      value: entry.url,
      placeholder: REMOTE_PLACEHOLDERS[kind],
      set: (draft, value) => {
        const target = remote(draft);
        if (target) target.url = value;
      },
    })}
    ${checkLine(state, kind, entry, index)}
    ${secretField(state, actions, {
      path: fieldPath.apiKey(kind, index),
      label: s.apiKeyLabel,
      edit: entry.apiKey,
      set: (draft, edit) => {
        const target = remote(draft);
        if (target) target.apiKey = edit;
      },
    })}
    ${
      'timeout' in entry
        ? textField(state, actions, {
            path: fieldPath.timeout(index),
            label: s.timeoutLabel,
            value: entry.timeout,
            help: s.timeoutHelp,
            inputMode: 'numeric',
            set: (draft, value) => {
              const target = draft.shttp[index];
              if (target) target.timeout = value;
            },
          })
        : nothing
    }
  </div>`;
}

const CHECK_ICONS = { ok: 'pass', failed: 'warning', skipped: 'info' } as const;

/** What the check before the last save found for this server: advice, the sandbox may see another network. */
function checkLine(
  state: ViewState,
  kind: 'sse' | 'shttp',
  entry: SseEdit | ShttpEdit,
  index: number,
): TemplateResult | typeof nothing {
  const check = state.checkFor(kind, entry.url);
  if (!check) return nothing;
  return html`<p class="check check-${check.status}" id=${`check-${kind}-${index}`}>
    <vscode-icon name=${CHECK_ICONS[check.status]}></vscode-icon><span>${check.message}</span>
  </p>`;
}

export function stdioView(
  state: ViewState,
  actions: ViewActions,
  entry: StdioEdit,
  index: number,
): TemplateResult {
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
            ${rowRemoveButton(state, path, label, () =>
              actions.edit(fieldPath.args(index), (draft) => {
                stdio(draft)?.args.splice(argIndex, 1);
              }),
            )}
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
            stdio(draft)?.args.push({ key: newKey(), value: '' });
          });
          actions.focusLater(fieldDomId(fieldPath.arg(index, argIndex)));
        }}
        >${s.addArg}</vscode-button
      >
    </fieldset>
    <fieldset class="rows" aria-describedby=${errorDomId(fieldPath.env(index))}>
      <legend>${s.envLabel}</legend>
      ${
        state.model?.mcp.stdio.find((model) => model.id === entry.id)?.envHidden
          ? html`<p class="warning" id=${`env-hidden-${index}`}>${s.envHidden}</p>`
          : nothing
      }
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
              key: newKey(),
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
    ${rowRemoveButton(state, namePath, format(s.envNameLabel, envIndex + 1), () =>
      actions.edit(fieldPath.env(index), (draft) => {
        draft.stdio[index]?.env.splice(envIndex, 1);
      }),
    )}
  </div>`;
}

/** The × that removes one row (an argument, a variable), named after the row for screen readers. */
function rowRemoveButton(
  state: ViewState,
  path: string,
  rowLabel: string,
  remove: () => void,
): TemplateResult {
  const label = format(state.strings.removeLabel, rowLabel);
  return html`<vscode-button
    class="row-remove"
    id=${`${fieldDomId(path)}-remove`}
    secondary
    icon="close"
    aria-label=${label}
    title=${label}
    @click=${remove}
  ></vscode-button>`;
}
