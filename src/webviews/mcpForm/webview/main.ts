/**
 * The webview of "OpenHands: MCP & Git Providers". Holds the draft, validates as the user types
 * (the host validates again before storing), and talks to the host only through the protocol.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-form-helper/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import './mcpForm.css';
import { render } from 'lit';
import { errorDomId, fieldDomId } from '../shared/fieldPath';
import type { FieldErrors, FormModel } from '../shared/formSchema';
import {
  HostToWebviewSchema,
  type BusyOperation,
  type HostToWebview,
  type McpCheck,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import { isSettled, type SaveOutcome } from '../shared/saveOutcome';
import type { UiStrings } from '../shared/uiStrings';
import { validateDraft } from '../shared/validation';
import { baselineOf, draftFromModel, newKey, toProtocolDraft, type EditorDraft } from './editorDraft';
import { persistedState, readPersistedState, type PersistedState } from './persistedState';
import { appView } from './view';
import type { Banner, ViewActions } from './viewModel';
import { startFormPage } from '../../kit/webview/formPage';
import { vscodeApi } from '../../kit/webview/vscodeApi';

class FormApp {
  private readonly api = vscodeApi<WebviewToHost, PersistedState>();
  private readonly root: HTMLElement;
  private strings: UiStrings | null = null;
  private model: FormModel | null = null;
  private outcome: SaveOutcome | null = null;
  private loadProblem: string | null = null;
  private draft: EditorDraft | null = null;
  private baseline = '';
  private dirty = false;
  private stale = false;
  private busy: BusyOperation | null = null;
  private banner: Banner = null;
  /** After a save attempt every rule is shown; before, only for fields the user has left. */
  private submitted = false;
  private readonly touched = new Set<string>();
  /** Refusals from the host (its validation or the server), cleared when the field is edited. */
  private hostErrors: FieldErrors = {};
  private clientErrors: FieldErrors = {};
  private focusTarget: string | null = null;
  /** The draft as it was when last sent, to tell edits made while the save ran. */
  private sentDraft: string | null = null;
  /** What the check before a save found, by kind and URL as typed; gone when that entry is edited. */
  private readonly checks = new Map<string, McpCheck>();

  private readonly handlers: MessageHandlers<HostToWebview> = {
    init: (message) => {
      this.strings = message.strings;
      this.loadProblem = message.loadProblem;
      // Not a reason to drop edits: a restored draft may already be in place.
      this.adoptModel(message.model, false);
    },
    state: (message) => {
      this.loadProblem = message.loadProblem;
      // The server could not be read (again): keep what is on screen, edits included.
      const unread = message.model === null && message.loadProblem !== null && this.model !== null;
      if (message.reason === 'loaded') {
        this.checks.clear();
        if (!unread) this.adoptModel(message.model, false);
        return;
      }
      this.outcome = message.outcome;
      if (!unread && message.model) this.adoptSaved(message.model, message.outcome);
      this.banner = 'saved';
      this.hostErrors = message.fieldErrors;
      // The result is news: bring it into view (or the first field the server refused).
      if (Object.keys(message.fieldErrors).length > 0) this.focusFirstError();
      else this.focusTarget = 'save-outcome';
    },
    busy: (message) => {
      this.busy = message.operation;
    },
    mcpChecks: (message) => {
      for (const check of message.checks) {
        const entry = this.draft?.[check.kind][check.index];
        if (entry) this.checks.set(checkKey(check.kind, entry.url), check);
      }
    },
    validationFailed: (message) => {
      this.hostErrors = message.errors;
      this.submitted = true;
      this.banner = 'invalid';
      this.focusFirstError();
    },
  };

  private readonly actions: ViewActions = {
    edit: (path, apply) => {
      if (!this.draft) return;
      // an edited URL or key is not what was checked
      const remote = /^mcp\.(sse|shttp)\.(\d+)\.(url|apiKey)$/.exec(path);
      if (remote) {
        const kind = remote[1] === 'sse' ? 'sse' : 'shttp';
        const entry = this.draft[kind][Number(remote[2])];
        if (entry) this.checks.delete(checkKey(kind, entry.url));
      }
      apply(this.draft);
      this.dirty = true;
      this.clearHostErrors(path);
      this.render();
    },
    touch: (path) => {
      this.touched.add(path);
      this.render();
    },
    focusLater: (domId) => {
      this.focusTarget = domId;
    },
    addSse: () => this.addEntry('sse'),
    addShttp: () => this.addEntry('shttp'),
    addStdio: () => this.addEntry('stdio'),
    removeEntry: (kind, index) => {
      if (!this.draft) return;
      this.draft[kind].splice(index, 1);
      this.dirty = true;
      // Positions shift: messages tied to the old positions no longer apply.
      this.hostErrors = {};
      this.focusTarget = `add-${kind}`;
      this.render();
    },
    save: () => this.save(),
    discard: () => {
      if (!this.model) return;
      this.checks.clear();
      this.resetDraft(this.model);
      this.render();
    },
    reload: () => this.api.postMessage({ type: 'reload' }),
    showLog: () => this.api.postMessage({ type: 'showLog' }),
    configureServer: () => this.api.postMessage({ type: 'configureServer' }),
  };

  constructor() {
    this.root = startFormPage({
      api: this.api,
      schema: HostToWebviewSchema,
      handlers: this.handlers,
      render: () => this.render(),
      pageName: 'MCP form',
    });
  }

  /** A new stored state: start over from it unless the user has unsaved edits (then say it moved). */
  private adoptModel(model: FormModel | null, fresh: boolean): void {
    const previous = this.model;
    this.model = model;
    if (!model) {
      this.draft = null;
      return;
    }
    const baseline = baselineOf(model);
    if (this.draft === null) {
      // First message of this webview: pick up the draft kept while it was hidden or reloaded.
      const kept = readPersistedState(this.api.getState());
      if (kept && kept.draft.serverUrl === model.serverUrl && kept.dirty) {
        this.draft = kept.draft;
        this.baseline = kept.baseline;
        this.dirty = true;
        this.stale = kept.baseline !== baseline;
        return;
      }
    }
    const serverChanged = previous?.serverUrl !== model.serverUrl;
    if (fresh || serverChanged || !this.dirty) this.resetDraft(model);
    else this.stale = this.baseline !== baseline;
  }

  private resetDraft(model: FormModel): void {
    this.draft = draftFromModel(model);
    this.baseline = baselineOf(model);
    this.dirty = false;
    this.stale = false;
    this.submitted = false;
    this.touched.clear();
    this.hostErrors = {};
    this.banner = null;
  }

  /**
   * After a save: each part the server took starts over from what it now holds; a part that was not
   * saved stays as the user left it, so nothing typed is lost and Save sends it again.
   */
  private adoptSaved(model: FormModel, outcome: SaveOutcome | null): void {
    const tokensSaved = outcome === null || isSettled(outcome.tokens);
    const mcpSaved = outcome === null || isSettled(outcome.mcp);
    const editedSince = this.draft !== null && JSON.stringify(this.draft) !== this.sentDraft;
    if (editedSince) {
      // Typed while the save ran: kept whole (the next save sends it against the new state).
      this.model = model;
      this.baseline = baselineOf(model);
      this.dirty = true;
      return;
    }
    if (!this.draft || (tokensSaved && mcpSaved)) return this.adoptModel(model, true);
    const fresh = draftFromModel(model);
    if (tokensSaved) this.draft.providers = fresh.providers;
    if (mcpSaved) Object.assign(this.draft, { sse: fresh.sse, shttp: fresh.shttp, stdio: fresh.stdio });
    this.model = model;
    this.baseline = baselineOf(model);
    this.dirty = true;
    this.stale = false;
  }

  private addEntry(kind: 'sse' | 'shttp' | 'stdio'): void {
    const draft = this.draft;
    if (!draft) return;
    const unset = { input: { state: 'unset' as const }, stored: 'unset' as const };
    if (kind === 'sse') draft.sse.push({ key: newKey(), id: null, url: '', apiKey: unset });
    if (kind === 'shttp') draft.shttp.push({ key: newKey(), id: null, url: '', apiKey: unset, timeout: '' });
    if (kind === 'stdio')
      draft.stdio.push({ key: newKey(), id: null, name: '', command: '', args: [], env: [] });
    const index = draft[kind].length - 1;
    this.focusTarget = fieldDomId(kind === 'stdio' ? `mcp.stdio.${index}.name` : `mcp.${kind}.${index}.url`);
    this.dirty = true;
    this.hostErrors = {};
    this.render();
  }

  private save(): void {
    if (!this.draft || !this.strings) return;
    this.submitted = true;
    // A new attempt: the host's earlier refusals no longer apply (it answers again).
    this.hostErrors = {};
    const draft = toProtocolDraft(this.draft);
    this.clientErrors = validateDraft(draft, this.strings);
    if (Object.keys(this.clientErrors).length > 0) {
      // Nothing leaves the webview while a rule is broken; the host would refuse it anyway.
      this.banner = 'invalid';
      this.focusFirstError();
      this.render();
      return;
    }
    this.banner = null;
    this.sentDraft = JSON.stringify(this.draft);
    this.api.postMessage({ type: 'save', draft });
    this.render();
  }

  private clearHostErrors(path: string): void {
    if (this.hostErrors[path] === undefined) return;
    const { [path]: _cleared, ...rest } = this.hostErrors;
    this.hostErrors = rest;
  }

  private errorFor(path: string): string | undefined {
    const client = this.submitted || this.touched.has(path) ? this.clientErrors[path] : undefined;
    return this.hostErrors[path] ?? client;
  }

  private focusFirstError(): void {
    const paths = [...Object.keys(this.hostErrors), ...Object.keys(this.clientErrors)];
    // After rendering, in document order: the field of the first message shown.
    requestAnimationFrame(() => {
      const first = [...document.querySelectorAll<HTMLElement>('.message.error')][0];
      const path = paths.find((p) => errorDomId(p) === first?.id);
      const field = path ? document.getElementById(fieldDomId(path)) : null;
      field?.focus();
    });
  }

  private render(): void {
    // Kept on every change (edits and host answers alike), so a reload finds what is on screen.
    if (this.draft) this.api.setState(persistedState(this.draft, this.baseline, this.dirty));
    if (!this.strings) return;
    if (this.draft) this.clientErrors = validateDraft(toProtocolDraft(this.draft), this.strings);
    this.root.setAttribute('aria-busy', String(this.busy !== null));
    render(
      appView(
        {
          strings: this.strings,
          model: this.model,
          outcome: this.outcome,
          loadProblem: this.loadProblem,
          draft: this.draft,
          busy: this.busy,
          dirty: this.dirty,
          stale: this.stale,
          banner: this.banner,
          errorFor: (path) => this.errorFor(path),
          checkFor: (kind, url) => this.checks.get(checkKey(kind, url)),
        },
        this.actions,
      ),
      this.root,
    );
    const target = this.focusTarget;
    this.focusTarget = null;
    if (target) requestAnimationFrame(() => document.getElementById(target)?.focus());
  }
}

function checkKey(kind: 'sse' | 'shttp', url: string): string {
  return `${kind}\n${url.trim()}`;
}

new FormApp();
