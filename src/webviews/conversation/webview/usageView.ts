/**
 * The header's usage: cost, tokens and how full the context window is on one line (a warning mark when
 * the budget or the context is 80 % used); a click opens the breakdown under it. The texts are the
 * host's (api/usage/usageText.ts), drawn through text bindings.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Usage } from '../shared/protocol';
import { oneLine } from './text';

export interface UsageActions {
  toggleUsage(): void;
}

/** The line in the header's meta row, or nothing before any LLM call is known. */
export function usageButtonView(
  usage: Usage | null | undefined,
  open: boolean,
  actions: UsageActions,
): TemplateResult | typeof nothing {
  if (!usage) return nothing;
  const warning = usage.warning ? oneLine(usage.warning, 300) : null;
  const summary = oneLine(usage.summary, 300);
  const source = usage.source === 'live' ? '' : ' (as last listed by the server)';
  return html`<button
    type="button"
    id="usage-toggle"
    class="meta-item usage-toggle${warning ? ' usage-warn' : ''}"
    aria-expanded=${String(open)}
    aria-controls="usage-breakdown"
    title=${`${warning ? `${warning}. ` : ''}Cost, tokens and context${source}: click for the breakdown`}
    @click=${actions.toggleUsage}
  >
    <span class="codicon codicon-${warning ? 'warning' : 'dashboard'}" aria-hidden="true"></span
    ><span class="usage-summary">${summary}</span
    ><span class="codicon codicon-chevron-${open ? 'up' : 'down'}" aria-hidden="true"></span>
  </button>`;
}

/** The breakdown (each figure on its line), while open. */
export function usageBreakdownView(
  usage: Usage | null | undefined,
  open: boolean,
): TemplateResult | typeof nothing {
  if (!usage || !open) return nothing;
  return html`<div id="usage-breakdown" class="usage-breakdown" role="region" aria-label="Cost and tokens">
    ${
      usage.warning
        ? html`<p class="usage-warning">
            <span class="codicon codicon-warning" aria-hidden="true"></span>${oneLine(usage.warning, 300)}
          </p>`
        : nothing
    }
    <table>
      <tbody>
        ${usage.breakdown.map(
          (line) =>
            html`<tr>
              <th scope="row">${oneLine(line.label, 200)}</th>
              <td>${oneLine(line.value, 200)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      usage.source === 'list'
        ? html`<p class="usage-note">
            As last listed by the server; live figures come with the agent’s next call.
          </p>`
        : nothing
    }
  </div>`;
}
