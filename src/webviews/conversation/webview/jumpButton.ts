/**
 * "↓ N new" (or "Latest"), over the bottom of the transcript while the reader is away from its end: a
 * click scrolls to the newest events and follows them again (jumpButton.css).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatCount } from './text';
import type { ViewPosition } from './transcriptView';

export function jumpButtonView(
  position: Pick<ViewPosition, 'stuck' | 'newRows'>,
  hasRows: boolean,
  jump: () => void,
): TemplateResult | typeof nothing {
  const { stuck, newRows } = position;
  return stuck || !hasRows
    ? nothing
    : html`<button
        type="button"
        class="jump ${newRows > 0 ? 'has-new' : ''}"
        title="Scroll to the newest events and follow them"
        @click=${jump}
      >
        <span class="codicon codicon-arrow-down" aria-hidden="true"></span>${
          newRows > 0 ? `${formatCount(newRows)} new` : 'Latest'
        }
      </button>`;
}
