/**
 * The header's model as a button: a click asks the host for the server's saved profiles (the host
 * shows them in a pick and switches to the one chosen; its reply settles the request). Disabled
 * while any control is under way: the host takes one at a time. The model's name is the server's:
 * drawn through a text binding.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Header } from '../shared/protocol';
import { oneLine } from './text';

export interface ModelActions {
  switchModel(): void;
}

export function modelButtonView(header: Header, actions: ModelActions): TemplateResult | typeof nothing {
  if (!header.model) return nothing;
  const model = oneLine(header.model, 300);
  const switching = header.controls.busy === 'model';
  return html`<button
    type="button"
    id="model-picker"
    class="meta-item model model-picker"
    title=${`Model: ${model}. Click to switch to another saved profile.`}
    aria-label=${`Model ${model}: switch`}
    aria-haspopup="listbox"
    ?disabled=${header.controls.busy !== null}
    @click=${actions.switchModel}
  >
    <span
      class="codicon codicon-${switching ? 'loading codicon-modifier-spin' : 'sparkle'}"
      aria-hidden="true"
    ></span
    ><span class="model-name">${oneLine(header.model, 120)}</span
    ><span class="codicon codicon-chevron-down" aria-hidden="true"></span>
  </button>`;
}
