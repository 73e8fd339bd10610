/**
 * The host side of the Model page: answers the page's messages one at a time, reads the server of the
 * moment on each open, reload and switch, and saves only what the user changed. The key the user types
 * goes to Secret Storage and the server, and nowhere else: never back to the page, never to the log.
 * Free of `vscode`, so it is driven directly in tests.
 */
import {
  ApiError,
  PROFILE_NAME,
  redactUrl,
  scrubSecrets,
  type ModelSetupApi,
  type ModelSettings,
} from '../../../api';
import type { ModelDraft, FieldErrors, Field, PageModel } from '../shared/pageModel';
import {
  dispatchMessage,
  WebviewToHostSchema,
  type BusyOperation,
  type HostToWebview,
  type MessageHandlers,
  type Notice,
  type WebviewToHost,
} from '../shared/protocol';
import { format, type UiStrings } from '../shared/uiStrings';
import { CatalogueChoices } from './catalogueChoices';
import { draftToChange } from './formChange';
import { readPage } from './pageRead';

export interface ModelTarget {
  /** The configured server, or undefined when there is none (or it is invalid). */
  serverUrl(): string | undefined;
  serverName(): string;
  client(): { modelSetup: ModelSetupApi } | undefined;
}

/** The LLM key per server in Secret Storage (`SecretsManager.llmKeys`). */
export interface LlmKeyStore {
  get(serverUrl: string): Thenable<string | undefined>;
  set(serverUrl: string, value: string): Promise<void>;
}

export interface ModelControllerDeps {
  post(message: HostToWebview): void;
  target: ModelTarget;
  keys: LlmKeyStore;
  /** Makes the transport mask `value` in every error and log entry from now on. */
  rememberSecret(value: string): void;
  strings: UiStrings;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  /** Asks before deleting a profile; true deletes. */
  confirmDelete(name: string, active: boolean): Promise<boolean>;
  openInBrowser(url: string): void;
  showLog(): void;
  configureServer(): void;
  /** The server's model may have changed (a save, a profile activated): what reads its readiness reads again. */
  modelChanged?(): void;
}

export class ModelController {
  private queue: Promise<void> = Promise.resolve();
  /** The searches in flight (not queued: typing must not wait behind a save). */
  private searches: Promise<void> = Promise.resolve();
  /** The catalogue of the client it was read from: another client (a switch) reads it again. */
  private catalogue: { client: object; choices: CatalogueChoices } | undefined;
  private lastPage: PageModel | null = null;

  private readonly handlers: MessageHandlers<WebviewToHost> = {
    ready: () =>
      this.enqueue('load', async () => {
        const { page, problem } = await this.load();
        this.post({ type: 'init', strings: this.deps.strings, page, problem });
      }),
    search: (message) => this.search(message.list, message.provider, message.query),
    save: (message) => this.enqueue('save', () => this.save(message.draft)),
    profile: (message) => this.enqueue('profile', () => this.profile(message.action, message.name)),
    renameProfile: (message) => this.enqueue('profile', () => this.rename(message.name, message.newName)),
    reload: () => this.reload(),
    openInBrowser: () => {
      const url = this.lastPage?.webUrl;
      if (url) this.deps.openInBrowser(url);
    },
    showLog: () => this.deps.showLog(),
    configureServer: () => this.deps.configureServer(),
  };

  constructor(private readonly deps: ModelControllerDeps) {}

  /** Entry point for `webview.onDidReceiveMessage`. */
  receive(raw: unknown): void {
    const dispatched = dispatchMessage(WebviewToHostSchema, this.handlers, raw);
    // paths and codes only: a malformed save may still carry a key
    if (!dispatched.ok)
      this.deps.log.warn(`Model page: ignored a malformed message (${dispatched.problem}).`);
    else void dispatched.result;
  }

  /** Another server (or key): read the server of now. */
  serverChanged(): void {
    void this.reload();
  }

  /** Resolves when every queued operation has finished (tests, disposal). */
  async idle(): Promise<void> {
    await Promise.all([this.queue, this.searches]);
  }

  private reload(): Promise<void> {
    return this.enqueue('load', async () => {
      const { page, problem } = await this.load();
      this.post({ type: 'state', reason: 'loaded', page, problem, notice: null, fieldErrors: {} });
    });
  }

  private async load(): Promise<{ page: PageModel | null; problem: string | null }> {
    const serverUrl = this.deps.target.serverUrl();
    const client = this.deps.target.client();
    if (!serverUrl || !client) {
      this.lastPage = null;
      return { page: null, problem: null };
    }
    const stored = await this.deps.keys.get(serverUrl).then(undefined, () => undefined);
    if (stored) this.deps.rememberSecret(stored);
    try {
      const page = await readPage(
        client.modelSetup,
        this.choices(client),
        this.server(serverUrl),
        this.deps.strings,
      );
      this.lastPage = page;
      return { page, problem: null };
    } catch (error) {
      this.lastPage = null;
      this.deps.log.warn(`Model page: could not read the server: ${this.describe(error)}`);
      return { page: null, problem: format(this.deps.strings.loadProblem, this.describe(error)) };
    }
  }

  private search(list: 'providers' | 'models', provider: string, query: string): void {
    const client = this.deps.target.client();
    if (!client) return;
    const searched = this.choices(client)
      .search(list, provider, query)
      .then(
        (shown) => this.post({ type: 'choices', list, provider, query, ...shown }),
        (error: unknown) =>
          this.deps.log.warn(`Model page: could not read the ${list}: ${this.describe(error)}`),
      );
    this.searches = Promise.all([this.searches, searched]).then(() => undefined);
  }

  private async save(draft: ModelDraft): Promise<void> {
    const s = this.deps.strings;
    const serverUrl = this.deps.target.serverUrl();
    const client = this.deps.target.client();
    if (!serverUrl || !client) return this.refuse({ form: s.noServer });
    if (draft.serverUrl !== serverUrl) return this.refuse({ form: s.errServerChanged });
    const api = client.modelSetup;
    const key = draft.apiKey.trim();
    if (key) this.deps.rememberSecret(key);
    try {
      // what the server holds now: the change is made against it, not against what the page saw
      const read = await api.readModelSettings();
      if (!read.offered) return this.refuse({}, { kind: 'error', text: s.notOfferedSettings });
      const stored: ModelSettings | undefined =
        read.value.kind === 'stored' ? read.value.settings : undefined;
      const mapped = draftToChange(draft, stored, s);
      if (!mapped.ok) return this.refuse(mapped.errors, { kind: 'error', text: s.validationBanner });
      const saved = await api.saveModelSettings(mapped.change, stored);
      if (!saved.offered) return this.refuse({}, { kind: 'error', text: s.notOfferedSettings });
      let keyNotKept = false;
      if (key)
        await this.deps.keys.set(serverUrl, key).then(undefined, (error: unknown) => {
          keyNotKept = true;
          this.deps.log.warn(
            `Model page: the key was not kept in Secret Storage: ${this.describe(error, key)}`,
          );
        });
      this.deps.log.info(
        saved.value
          ? `Model page: saved the model settings of ${redactUrl(serverUrl)} (${Object.keys(mapped.change)
              .filter((f) => f !== 'apiKey')
              .join(', ')}${key ? ', key' : ''}).`
          : 'Model page: nothing changed, nothing sent.',
      );
      if (saved.value) this.deps.modelChanged?.();
      const { page, problem } = await this.load();
      const words = keyNotKept ? s.savedKeyNotKept : saved.value ? s.saved : s.nothingChanged;
      const readback = page ? `${words} ${page.readinessText}` : `${words} ${s.readBackFailed}`;
      this.post({
        type: 'state',
        reason: 'saved',
        page,
        problem,
        notice: { kind: keyNotKept || !page ? 'error' : 'ok', text: clip(readback) },
        fieldErrors: {},
      });
    } catch (error) {
      const said = this.describe(error, key);
      this.deps.log.warn(`Model page: save failed: ${said}`);
      this.refuse(refusedFields(error, said, key), {
        kind: 'error',
        text: format(s.notSaved, sentence(said)),
      });
    }
  }

  private async profile(action: 'save' | 'activate' | 'delete', name: string): Promise<void> {
    const s = this.deps.strings;
    if (!PROFILE_NAME.test(name)) return this.refuse({ profileName: s.errProfileName });
    const api = this.deps.target.client()?.modelSetup;
    if (!api) return this.refuse({ form: s.noServer });
    if (this.profilesNotOffered()) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
    try {
      let done: string;
      if (action === 'save') {
        const saved = await api.saveProfile(name);
        if (!saved.offered) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
        done = format(s.profileSaved, name);
      } else if (action === 'activate') {
        const activated = await api.activateProfile(name);
        if (!activated.offered) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
        done = format(s.profileActivated, name, activated.value.model ?? s.profileNoModel);
        this.deps.modelChanged?.();
      } else {
        const active = this.lastPage?.profiles?.some((p) => p.name === name && p.active) ?? false;
        if (!(await this.deps.confirmDelete(name, active)))
          return this.refuse({}, { kind: 'ok', text: s.profileDeleteNotDone });
        const deleted = await api.deleteProfile(name);
        if (!deleted.offered) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
        done = format(s.profileDeleted, name);
      }
      await this.afterProfile(done);
    } catch (error) {
      this.profileFailed(error);
    }
  }

  private async rename(name: string, newName: string): Promise<void> {
    const s = this.deps.strings;
    if (!PROFILE_NAME.test(name) || !PROFILE_NAME.test(newName))
      return this.refuse({ profileName: s.errProfileName });
    const api = this.deps.target.client()?.modelSetup;
    if (!api) return this.refuse({ form: s.noServer });
    if (this.profilesNotOffered()) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
    try {
      const renamed = await api.renameProfile(name, newName);
      if (!renamed.offered) return this.refuse({}, { kind: 'error', text: s.profilesNotOffered });
      await this.afterProfile(format(s.profileRenamed, name, newName));
    } catch (error) {
      this.profileFailed(error);
    }
  }

  /** A profile changed: the settings' model may have too (activate, delete of the active one). */
  private async afterProfile(done: string): Promise<void> {
    this.deps.log.info(`Model page: ${done}`);
    const { page, problem } = await this.load();
    const text = page ? `${done} ${page.readinessText}` : done;
    this.post({
      type: 'state',
      reason: 'profile',
      page,
      problem,
      notice: { kind: 'ok', text: clip(text) },
      fieldErrors: {},
    });
  }

  private profileFailed(error: unknown): void {
    const said = this.describe(error);
    this.deps.log.warn(`Model page: profile change failed: ${said}`);
    this.refuse({}, { kind: 'error', text: format(this.deps.strings.profileFailed, sentence(said)) });
  }

  /** The server said it has no profiles when last read: nothing is sent to a route it did not offer. */
  private profilesNotOffered(): boolean {
    return this.lastPage !== null && this.lastPage.profiles === null;
  }

  private refuse(errors: FieldErrors, notice: Notice | null = null): void {
    const words = Object.fromEntries(
      Object.entries(errors).map(([field, text]) => [field, clip(text, MAX_FIELD_WORDS)]),
    );
    this.post({
      type: 'validationFailed',
      errors: words,
      notice: notice && { ...notice, text: clip(notice.text) },
    });
  }

  private choices(client: object & { modelSetup: ModelSetupApi }): CatalogueChoices {
    if (this.catalogue?.client !== client)
      this.catalogue = { client, choices: new CatalogueChoices(client.modelSetup) };
    return this.catalogue.choices;
  }

  private server(serverUrl: string): { serverUrl: string; serverName: string } {
    return { serverUrl, serverName: this.deps.target.serverName() };
  }

  /** A failure in words, without a secret (the transport masked what it knows; the key typed again). */
  private describe(error: unknown, key?: string): string {
    const text = error instanceof Error ? error.message : 'error';
    return scrubSecrets(redactUrl(text), key ? [key] : []);
  }

  private enqueue(operation: BusyOperation, run: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      this.post({ type: 'busy', operation });
      try {
        await run();
      } catch (error) {
        this.deps.log.error(`Model page: ${operation} failed: ${this.describe(error)}`);
        this.refuse({ form: this.deps.strings.errUnexpected });
      } finally {
        this.post({ type: 'busy', operation: null });
      }
    });
    return this.queue;
  }

  private post(message: HostToWebview): void {
    this.deps.post(message);
  }
}

/** What the protocol lets a notice and a field's message hold: a server's long refusal is cut, not dropped. */
const MAX_NOTICE_WORDS = 2000;
const MAX_FIELD_WORDS = 1000;

function clip(text: string, max = MAX_NOTICE_WORDS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A server's words end a sentence before the page's own follow. */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** The fields a server's 422 names (`llm.model`, `base_url`, `max_budget_per_task`…), each with its words. */
export function refusedFields(error: unknown, said: string, key = ''): FieldErrors {
  if (!(error instanceof ApiError) || error.issues.length === 0) return { form: said };
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = fieldOf(issue.loc.map(String));
    errors[field] ??= scrubSecrets(issue.msg, key ? [key] : []).slice(0, 1000);
  }
  return errors;
}

function fieldOf(loc: readonly string[]): Field {
  const path = loc.join('.');
  if (/base_url/.test(path)) return 'baseUrl';
  if (/api_key/.test(path)) return 'apiKey';
  if (/max_budget/.test(path)) return 'maxBudget';
  if (/model/.test(path)) return 'customModel';
  return 'form';
}
