/**
 * The header's line for a conversation started from the user's local state ("Started from your local
 * state: 3 commits, 5 files"), a disclosure that lists the commits' subjects and the files. Every word
 * is the host's, every subject and path the user's or the record's: drawn through text bindings only.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { HandedOver } from '../shared/protocol';
import { oneLine } from './text';

export function handedOverView(handedOver: HandedOver | null | undefined): TemplateResult | typeof nothing {
  if (!handedOver) return nothing;
  const summary = oneLine(handedOver.summary, 300);
  return html`<details class="handed-over">
    <summary title=${summary}>
      <span class="codicon codicon-repo-push" aria-hidden="true"></span
      ><span class="handed-summary">${summary}</span>
    </summary>
    <div class="handed-lists">
      ${handedOver.lists.map(
        (list) =>
          html`<section class="handed-list">
            <h2 class="handed-heading">${oneLine(list.heading, 200)}</h2>
            <ul>
              ${list.items.map((item) => html`<li title=${oneLine(item, 300)}>${oneLine(item, 300)}</li>`)}
            </ul>
            ${list.more ? html`<span class="handed-more">${oneLine(list.more, 200)}</span>` : nothing}
          </section>`,
      )}
    </div>
  </details>`;
}
