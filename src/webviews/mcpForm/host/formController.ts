/**
 * The host side of one form panel: answers the webview's messages through the typed handler map,
 * runs one operation at a time, and re-sends the state whenever the webview (re)appears. Free of
 * `vscode`, so it is driven directly in tests.
 */
import { redactUrl } from '../../../api';
import type { FieldErrors } from '../shared/formSchema';
import { buildFormModel } from './formModel';
import { hasPendingTokens } from './localState';
import {
  dispatchMessage,
  WebviewToHostSchema,
  type BusyOperation,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import type { SyncStatus } from '../shared/syncOutcome';
import type { LoadResult, SettingsClient, SyncLog, SyncService } from './syncService';
import type { UiStrings } from '../shared/uiStrings';

export interface FormTarget {
  /** The configured server, or undefined when there is none (or it is invalid). */
  serverUrl(): string | undefined;
  client(): SettingsClient | undefined;
}

export interface FormControllerDeps {
  post(message: HostToWebview): void;
  target: FormTarget;
  service: SyncService;
  strings: UiStrings;
  log: SyncLog & { error(message: string): void };
  showLog(): void;
  configureServer(): void;
}

type Snapshot = Pick<LoadResult, 'config' | 'secrets' | 'serverProviders' | 'loadProblem'> & {
  serverUrl: string;
};

export class FormController {
  private queue: Promise<void> = Promise.resolve();
  private snapshot: Snapshot | undefined;
  private readonly handlers: MessageHandlers<WebviewToHost> = {
    ready: () => this.enqueue('load', () => this.sendInit()),
    save: (message) =>
      this.enqueue('save', async () => {
        const serverUrl = this.deps.target.serverUrl();
        if (!serverUrl)
          return this.post({ type: 'validationFailed', errors: { form: this.deps.strings.noServer } });
        const result = await this.deps.service.save(serverUrl, message.draft, this.deps.target.client());
        if (result.kind === 'invalid') return this.post({ type: 'validationFailed', errors: result.errors });
        this.snapshot = { serverUrl, ...result, loadProblem: null };
        this.postState('saved', result.fieldErrors);
      }),
    retrySync: () =>
      this.enqueue('sync', async () => {
        const serverUrl = this.deps.target.serverUrl();
        if (!serverUrl) return;
        const result = await this.deps.service.sync(serverUrl, this.deps.target.client());
        this.snapshot = { serverUrl, ...result, loadProblem: null };
        this.postState('synced', result.fieldErrors);
      }),
    reload: () =>
      this.enqueue('load', async () => {
        await this.load();
        this.postState('loaded', {});
      }),
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

  /** The server setting or key changed: reload for the server of now. */
  serverChanged(): void {
    void this.enqueue('load', async () => {
      await this.load();
      this.postState('loaded', {});
    });
  }

  /** Resolves when every queued operation has finished (tests, disposal). */
  idle(): Promise<void> {
    return this.queue;
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

  private async sendInit(): Promise<void> {
    const serverUrl = this.deps.target.serverUrl();
    if (!this.snapshot || this.snapshot.serverUrl !== serverUrl || !serverUrl) await this.load();
    else {
      // Shown again (the webview is rebuilt when hidden): no server round trip, but the stored
      // state is read again in case another window changed it.
      const local = await this.deps.service.readLocal(serverUrl);
      this.snapshot = { ...this.snapshot, ...local };
    }
    this.post({ type: 'init', strings: this.deps.strings, model: this.model(), sync: this.syncStatus() });
  }

  private async load(): Promise<void> {
    const serverUrl = this.deps.target.serverUrl();
    if (!serverUrl) {
      this.snapshot = undefined;
      return;
    }
    const result = await this.deps.service.load(serverUrl, this.deps.target.client());
    this.snapshot = { serverUrl, ...result };
  }

  private postState(reason: 'loaded' | 'saved' | 'synced', fieldErrors: FieldErrors): void {
    this.post({ type: 'state', model: this.model(), sync: this.syncStatus(), reason, fieldErrors });
  }

  private model() {
    const snapshot = this.snapshot;
    if (!snapshot || snapshot.serverUrl !== this.deps.target.serverUrl()) return null;
    return buildFormModel(snapshot.serverUrl, snapshot.config, snapshot.secrets, snapshot.serverProviders);
  }

  private syncStatus(): SyncStatus {
    const config = this.snapshot?.config;
    return {
      pending: { tokens: config ? hasPendingTokens(config) : false, mcp: config?.pending.mcp ?? false },
      last: config?.lastOutcome ?? null,
      loadProblem: this.snapshot?.loadProblem ?? null,
    };
  }

  private post(message: HostToWebview): void {
    this.deps.post(message);
  }
}
