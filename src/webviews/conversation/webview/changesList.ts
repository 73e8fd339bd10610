/**
 * The agent's changed files under the panel's header: a fold with the count, each file with its
 * status (click: the diff editor), and Open All, Apply and Save as Patch. Paths are the agent's words:
 * text bindings only.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CHANGE_ACTIONS, ChangedFile, PanelChanges } from '../shared/protocol';
import { oneLine } from './text';

export interface ChangesActions {
  open(file: ChangedFile): void;
  act(action: (typeof CHANGE_ACTIONS)[number]): void;
  toggled(open: boolean): void;
}

const BADGE: Record<ChangedFile['status'], { letter: string; label: string }> = {
  ADDED: { letter: 'A', label: 'added' },
  UPDATED: { letter: 'M', label: 'updated' },
  DELETED: { letter: 'D', label: 'deleted' },
  MOVED: { letter: 'R', label: 'moved' },
};

/** Shown lists stay short enough to scan; the rest are one click away in Open All Changes. */
const MAX_LISTED = 200;

export function changesView(
  changes: PanelChanges | undefined,
  open: boolean,
  actions: ChangesActions,
): TemplateResult | typeof nothing {
  if (!changes) return nothing;
  const count = changes.files.length;
  const summary =
    changes.state === 'unread' || (changes.state === 'loading' && count === 0)
      ? 'Changes: reading…'
      : count === 0
        ? 'Changes: none yet'
        : `Changes: ${count} ${count === 1 ? 'file' : 'files'}`;
  const listed = changes.files.slice(0, MAX_LISTED);
  return html`<details
    class="changes changes-${changes.state}"
    ?open=${open}
    @toggle=${(event: Event) => actions.toggled((event.currentTarget as HTMLDetailsElement).open)}
  >
    <summary>
      <span class="codicon codicon-diff-multiple" aria-hidden="true"></span>
      <span class="changes-summary">${summary}</span>
      ${
        changes.state === 'loading'
          ? html`<span class="codicon codicon-sync codicon-modifier-spin" aria-label="Reading"></span>`
          : nothing
      }
    </summary>
    ${
      changes.state === 'failed' && changes.message
        ? html`<p class="changes-message" role="status">${oneLine(changes.message, 400)}</p>`
        : nothing
    }
    ${
      count === 0 && changes.state === 'ready'
        ? html`<p class="changes-message">The agent has not changed any file in its workspace yet.</p>`
        : nothing
    }
    ${
      count > 0
        ? html`<ul class="changes-list" aria-label="Changed files">
              ${listed.map((file) => fileRow(file, actions))}
            </ul>
            ${
              count > listed.length
                ? html`<p class="changes-message">${count - listed.length} more in Open All Changes.</p>`
                : nothing
            }
            <div class="changes-actions">
              <vscode-button
                id="changes-open-all"
                secondary
                icon="diff-multiple"
                @click=${() => actions.act('openAll')}
                >Open All Changes</vscode-button
              >
              <vscode-button
                id="changes-apply"
                icon="git-pull-request-go-to-changes"
                @click=${() => actions.act('apply')}
                >Apply to Local Repository…</vscode-button
              >
              <vscode-button
                id="changes-save-patch"
                secondary
                icon="save-as"
                @click=${() => actions.act('savePatch')}
                >Save as Patch…</vscode-button
              >
            </div>`
        : nothing
    }
  </details>`;
}

function fileRow(file: ChangedFile, actions: ChangesActions): TemplateResult {
  const badge = BADGE[file.status];
  const slash = file.path.lastIndexOf('/');
  const name = oneLine(file.path.slice(slash + 1), 300);
  const folder = slash > 0 ? oneLine(file.path.slice(0, slash), 300) : '';
  const runsCode = file.runsCode ? `Can run code on your machine: ${oneLine(file.runsCode, 500)}.` : '';
  return html`<li>
    <button
      class="change-file"
      type="button"
      title=${`${oneLine(file.path, 1000)} (${badge.label}): open the diff${runsCode ? `\n${runsCode}` : ''}`}
      @click=${() => actions.open(file)}
    >
      <span class="change-badge change-${file.status.toLowerCase()}" aria-label=${badge.label}
        >${badge.letter}</span
      >
      <span class="change-name">${name}</span>
      ${folder ? html`<span class="change-folder">${folder}</span>` : nothing}
      ${
        // after the folder, which is cut first when the row is narrow: the mark always shows whole
        runsCode
          ? html`<span class="change-runs-code" aria-label=${runsCode}
              ><span class="codicon codicon-warning" aria-hidden="true"></span>can run code</span
            >`
          : nothing
      }
    </button>
  </li>`;
}
