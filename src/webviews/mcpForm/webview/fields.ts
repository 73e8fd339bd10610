/**
 * The form's two kinds of field: a labelled text field, and a write-only secret (the stored value
 * is never shown, only whether there is one). Each has its message right under it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { errorDomId, fieldDomId } from '../shared/fieldPath';
import { format } from '../shared/uiStrings';
import type { EditorDraft, SecretEdit } from './editorDraft';
import type { ViewActions, ViewState } from './viewModel';

export function valueOf(event: Event): string {
  const target = event.target;
  return target !== null && 'value' in target && typeof target.value === 'string' ? target.value : '';
}

export interface TextFieldOptions {
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

export function fieldMessage(state: ViewState, path: string): TemplateResult {
  const error = state.errorFor(path);
  return html`<div
    class="message ${error ? 'error' : ''}"
    id=${errorDomId(path)}
    role=${error ? 'alert' : nothing}
  >
    ${error ? html`<vscode-icon name="error"></vscode-icon><span>${error}</span>` : nothing}
  </div>`;
}

export function textField(state: ViewState, actions: ViewActions, options: TextFieldOptions): TemplateResult {
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

export interface SecretFieldOptions {
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
export function secretField(
  state: ViewState,
  actions: ViewActions,
  options: SecretFieldOptions,
): TemplateResult {
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
