/**
 * The page's small pieces: a labelled text field with its message right under it, a field's message
 * alone, and the Open in Browser button the model and the profiles sections both offer.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Field } from '../shared/pageModel';
import type { ViewActions, ViewState } from './viewModel';

export function valueOf(event: Event): string {
  const target = event.target;
  return target !== null && 'value' in target && typeof target.value === 'string' ? target.value : '';
}

export function openInBrowser(
  state: ViewState,
  actions: ViewActions,
  id: string,
): TemplateResult | typeof nothing {
  if (!state.page?.webUrl) return nothing;
  return html`<vscode-button id=${id} secondary icon="link-external" @click=${actions.openInBrowser}
    >${state.strings.openInBrowser}</vscode-button
  >`;
}

export function message(state: ViewState, field: Field): TemplateResult {
  const error = state.errorFor(field);
  return html`<div
    class="message ${error ? 'error' : ''}"
    id=${`${field}-error`}
    role=${error ? 'alert' : nothing}
  >
    ${error ? html`<vscode-icon name="error"></vscode-icon><span>${error}</span>` : nothing}
  </div>`;
}

export function textField(
  state: ViewState,
  options: {
    id: string;
    field: Field;
    label: string;
    value: string;
    help?: string;
    placeholder?: string;
    password?: boolean;
    onInput(value: string): void;
  },
): TemplateResult {
  return html`<div class="field">
    <vscode-label for=${options.id}>${options.label}</vscode-label>
    <vscode-textfield
      id=${options.id}
      type=${options.password ? 'password' : 'text'}
      autocomplete="off"
      .value=${live(options.value)}
      placeholder=${options.placeholder ?? nothing}
      ?invalid=${state.errorFor(options.field) !== undefined}
      ?disabled=${state.busy === 'save'}
      @input=${(event: Event) => options.onInput(valueOf(event))}
    ></vscode-textfield>
    ${options.help ? html`<vscode-form-helper>${options.help}</vscode-form-helper>` : nothing}
    ${message(state, options.field)}
  </div>`;
}
