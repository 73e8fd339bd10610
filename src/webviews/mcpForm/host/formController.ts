/**
 * The host side of one form panel: answers the webview's messages through the typed handler map and
 * runs one operation at a time. Holds nothing between messages: each open or reload reads the server,
 * each save writes it. Free of `vscode`, so it is driven directly in tests.
 */
import { redactUrl } from '../../../api';
import type { FormSave, FormLog, Loaded, SettingsClient } from './formSave';
import {
  dispatchMessage,
  WebviewToHostSchema,
  type BusyOperation,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import type { UiStrings } from '../shared/uiStrings';

export interface FormTarget {
  /** The configured server, or undefined when there is none (or it is invalid). */
  serverUrl(): string | undefined;
  client(): SettingsClient | undefined;
}

export interface FormControllerDeps {
  post(message: HostToWebview): void;
  target: FormTarget;
  form: FormSave;
  strings: UiStrings;
  log: FormLog & { error(message: string): void };
  showLog(): void;
  configureServer(): void;
}

export class FormController {
  private queue: Promise<void> = Promise.resolve();
  private readonly handlers: MessageHandlers<WebviewToHost> = {
    ready: () =>
      this.enqueue('load', async () => {
        const loaded = await this.load();
        this.post({ type: 'init', strings: this.deps.strings, ...loaded });
      }),
    save: (message) =>
      this.enqueue('save', async () => {
        const serverUrl = this.deps.target.serverUrl();
        if (!serverUrl)
          return this.post({ type: 'validationFailed', errors: { form: this.deps.strings.noServer } });
        const result = await this.deps.form.save(serverUrl, message.draft, this.deps.target.client());
        if (result.kind === 'invalid') return this.post({ type: 'validationFailed', errors: result.errors });
        const { outcome, fieldErrors, model, loadProblem } = result;
        this.post({ type: 'state', reason: 'saved', model, loadProblem, outcome, fieldErrors });
      }),
    reload: () => this.reload(),
    showLog: () => this.deps.showLog(),
    configureServer: () => this.deps.configureServer(),
  };

  constructor(private readonly deps: FormControllerDeps) {}

  /** Entry point for `webview.onDidReceiveMessage`. */
  receive(raw: unknown): void {
    const dispatched = dispatchMessage(WebviewToHostSchema, this.handlers, raw);
    if (!dispatched.ok)
      this.deps.log.warn(`MCP & Git Providers: ignored a malformed webview message (${dispatched.problem}).`);
    else void dispatched.result;
  }

  /** The server setting or key changed: read the server of now. */
  serverChanged(): void {
    void this.reload();
  }

  /** Resolves when every queued operation has finished (tests, disposal). */
  idle(): Promise<void> {
    return this.queue;
  }

  private reload(): Promise<void> {
    return this.enqueue('load', async () => {
      const loaded = await this.load();
      this.post({ type: 'state', reason: 'loaded', ...loaded, outcome: null, fieldErrors: {} });
    });
  }

  private load(): Promise<Loaded> {
    const serverUrl = this.deps.target.serverUrl();
    if (!serverUrl) return Promise.resolve({ model: null, loadProblem: null });
    return this.deps.form.load(serverUrl, this.deps.target.client());
  }

  private enqueue(operation: BusyOperation, run: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      this.post({ type: 'busy', operation });
      try {
        await run();
      } catch (error) {
        // Storage failures and bugs. Messages of our own errors carry no secrets (server text is
        // scrubbed where it is read); URLs are masked all the same.
        const detail = error instanceof Error ? `${error.name}: ${redactUrl(error.message)}` : 'error';
        this.deps.log.error(`MCP & Git Providers: ${operation} failed: ${detail}`);
        this.post({ type: 'validationFailed', errors: { form: this.deps.strings.errUnexpected } });
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
