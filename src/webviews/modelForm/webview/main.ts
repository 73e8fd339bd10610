/**
 * The page of "OpenHands: Set Up the Model…". Holds the form (the key only in memory), asks the host
 * for the entries of the provider and model lists as the user types, and talks to the host only
 * through the protocol.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-form-helper/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-radio/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import './modelForm.css';
import { render } from 'lit';
import type { FieldErrors, ModelDraft, PageModel } from '../shared/pageModel';
import {
  HostToWebviewSchema,
  type BusyOperation,
  type HostToWebview,
  type MessageHandlers,
  type Notice,
  type WebviewToHost,
} from '../shared/protocol';
import type { UiStrings } from '../shared/uiStrings';
import { startFormPage } from '../../kit/webview/formPage';
import { vscodeApi } from '../../kit/webview/vscodeApi';
import { draftFromPage, persistedState, readPersistedState, type PersistedState } from './modelDraft';
import { appView } from './view';
import type { ShownList, ViewActions } from './viewModel';

const EMPTY_LIST: ShownList = { query: '', items: [], more: 0 };

class ModelPage {
  private readonly api = vscodeApi<WebviewToHost, PersistedState>();
  private readonly root: HTMLElement;
  private strings: UiStrings | null = null;
  private page: PageModel | null = null;
  private problem: string | null = null;
  private draft: ModelDraft | null = null;
  private dirty = false;
  private busy: BusyOperation | null = null;
  private notice: Notice | null = null;
  private errors: FieldErrors = {};
  private providers: ShownList = EMPTY_LIST;
  private models: ShownList = EMPTY_LIST;
  private profileName = '';
  private renaming: { name: string; value: string } | null = null;

  private readonly handlers: MessageHandlers<HostToWebview> = {
    init: (message) => {
      this.strings = message.strings;
      this.problem = message.problem;
      this.adopt(message.page, false);
    },
    state: (message) => {
      this.problem = message.problem;
      this.notice = message.notice;
      this.errors = message.fieldErrors;
      // a save ended, or a profile change moved the model (activate, delete of the active one): the form
      // starts over from what the server holds now; other profile changes keep unsaved edits
      const before = this.page?.stored;
      const after = message.page?.stored;
      const modelMoved = before?.model !== after?.model || before?.baseUrl !== after?.baseUrl;
      this.adopt(message.page, message.reason === 'saved' || (message.reason === 'profile' && modelMoved));
      if (message.reason === 'profile') {
        this.renaming = null;
        this.profileName = '';
      }
    },
    choices: (message) => {
      // an answer to an older query than the field holds now is dropped
      const shown = { query: message.query, items: message.items, more: message.more };
      if (message.list === 'providers' && message.query === this.providers.query) this.providers = shown;
      if (
        message.list === 'models' &&
        message.query === this.models.query &&
        message.provider === this.draft?.provider
      )
        this.models = shown;
    },
    busy: (message) => {
      this.busy = message.operation;
    },
    validationFailed: (message) => {
      // nothing was saved: everything typed stays, the key included
      this.errors = message.errors;
      this.notice = message.notice;
    },
  };

  private readonly actions: ViewActions = {
    edit: (field, value) => {
      if (!this.draft) return;
      this.draft = { ...this.draft, [field]: value };
      this.dirty = true;
      const { [field as keyof FieldErrors]: _cleared, ...rest } = this.errors;
      this.errors = rest;
      if (field === 'source' && value === 'catalogue') this.ask('providers', this.providers.query);
      this.render();
    },
    searchProviders: (query) => {
      this.providers = { ...this.providers, query };
      this.ask('providers', query);
    },
    searchModels: (query) => {
      this.models = { ...this.models, query };
      this.ask('models', query);
    },
    chooseProvider: (name) => {
      if (!this.draft || this.draft.provider === name) return;
      this.draft = { ...this.draft, provider: name, model: '' };
      this.dirty = true;
      this.models = EMPTY_LIST;
      this.ask('models', '');
      this.render();
    },
    chooseModel: (id) => {
      if (!this.draft) return;
      this.draft = { ...this.draft, model: id };
      this.dirty = true;
      const { model: _cleared, customModel: _also, ...rest } = this.errors;
      this.errors = rest;
      this.render();
    },
    save: () => {
      if (!this.draft) return;
      this.notice = null;
      this.errors = {};
      this.api.postMessage({ type: 'save', draft: this.draft });
      this.render();
    },
    reload: () => this.api.postMessage({ type: 'reload' }),
    openInBrowser: () => this.api.postMessage({ type: 'openInBrowser' }),
    showLog: () => this.api.postMessage({ type: 'showLog' }),
    configureServer: () => this.api.postMessage({ type: 'configureServer' }),
    setProfileName: (value) => {
      this.profileName = value;
    },
    saveProfile: () => this.actions.profile('save', this.profileName.trim()),
    profile: (action, name) => {
      this.notice = null;
      this.errors = {};
      this.api.postMessage({ type: 'profile', action, name });
      this.render();
    },
    startRename: (name) => {
      this.renaming = { name, value: name };
      this.errors = {};
      this.render();
    },
    editRename: (value) => {
      if (this.renaming) this.renaming = { ...this.renaming, value };
    },
    confirmRename: () => {
      if (!this.renaming) return;
      this.notice = null;
      this.api.postMessage({
        type: 'renameProfile',
        name: this.renaming.name,
        newName: this.renaming.value.trim(),
      });
      this.render();
    },
    cancelRename: () => {
      this.renaming = null;
      this.render();
    },
  };

  constructor() {
    this.root = startFormPage({
      api: this.api,
      schema: HostToWebviewSchema,
      handlers: this.handlers,
      render: () => this.render(),
      pageName: 'Model page',
    });
  }

  /** What the server holds now: the form starts over from it unless it holds unsaved edits. */
  private adopt(page: PageModel | null, fresh: boolean): void {
    const previous = this.page;
    this.page = page;
    if (!page) return;
    if (this.draft === null) {
      // the first message of this page: pick up the form kept while it was hidden or reloaded
      const kept = readPersistedState(this.api.getState());
      if (kept && kept.dirty && kept.draft.serverUrl === page.serverUrl) {
        this.draft = kept.draft;
        this.dirty = true;
      }
    }
    const serverChanged = previous !== null && previous.serverUrl !== page.serverUrl;
    if (this.draft === null || fresh || serverChanged || !this.dirty) {
      this.draft = draftFromPage(page);
      this.dirty = false;
      if (serverChanged) this.providers = this.models = EMPTY_LIST;
    }
    if (page.catalogueOffered) {
      this.ask('providers', this.providers.query);
      if (this.draft.provider) this.ask('models', this.models.query);
    }
  }

  private ask(list: 'providers' | 'models', query: string): void {
    this.api.postMessage({ type: 'search', list, provider: this.draft?.provider ?? '', query });
  }

  private render(): void {
    // kept on every change, without the key, so a reload finds what is on screen
    if (this.draft) this.api.setState(persistedState(this.draft, this.dirty));
    if (!this.strings) return;
    this.root.setAttribute('aria-busy', String(this.busy !== null));
    const custom = this.draft?.source === 'custom';
    render(
      appView(
        {
          strings: this.strings,
          page: this.page,
          problem: this.problem,
          draft: this.draft,
          busy: this.busy,
          notice: this.notice,
          providers: this.providers,
          models: this.models,
          profileName: this.profileName,
          renaming: this.renaming,
          // a server's refusal of the model shows under whichever model field is in use
          errorFor: (field) =>
            field === 'model' && !custom
              ? (this.errors.model ?? this.errors.customModel)
              : this.errors[field],
        },
        this.actions,
      ),
      this.root,
    );
  }
}

new ModelPage();
