/**
 * The host side of one form panel: answers the webview's messages through the typed handler map and
 * runs one operation at a time. Holds nothing between messages: each open or reload reads the server,
 * each save writes it. Free of `vscode`, so it is driven directly in tests.
 */
import { redactUrl, scrubSecrets, type McpProbeResult, type McpProbeTarget } from '../../../api';
import { urlCredentials } from '../../../api/redact';
import type { ChangedRemote, FormSave, FormLog, Loaded, SettingsClient } from './formSave';
import {
  dispatchMessage,
  type McpCheck,
  WebviewToHostSchema,
  type BusyOperation,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';
import { format, type UiStrings } from '../shared/uiStrings';

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
  /** The check of the MCP servers a save adds or changes; without it, a save checks nothing. */
  mcpCheck?: McpCheckDeps;
}

export interface McpCheckDeps {
  /** Checks each target from here (`probeMcpServers`); results in the targets' order. */
  probe(targets: McpProbeTarget[]): Promise<McpProbeResult[]>;
  /** Asks whether to save although the servers `lines` name did not answer; true: save anyway. */
  confirm(lines: string[]): Promise<boolean>;
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
        const check = this.deps.mcpCheck;
        const gate = check && ((changed: ChangedRemote[]) => this.checkMcp(check, changed));
        const result = await this.deps.form.save(serverUrl, message.draft, this.deps.target.client(), gate);
        if (result.kind === 'invalid') return this.post({ type: 'validationFailed', errors: result.errors });
        if (result.kind === 'cancelled')
          return this.post({ type: 'validationFailed', errors: { form: this.deps.strings.checkCancelled } });
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

  /**
   * Checks the servers a save adds or changes, shows each result on its entry, and asks before saving
   * when any did not answer. Advice only: the sandbox may see another network than VS Code.
   */
  private async checkMcp(check: McpCheckDeps, changed: ChangedRemote[]): Promise<boolean> {
    const s = this.deps.strings;
    this.post({ type: 'busy', operation: 'check' });
    const results = await check.probe(
      changed.map((c) => ({ transport: c.kind, url: c.url, apiKey: c.apiKey })),
    );
    const checks: McpCheck[] = changed.map((server, i) => {
      const result = results[i] ?? { status: 'skipped', reason: 'not checked' };
      const where = hostOf(server.url);
      // The probe's reasons hold no secret; masked again all the same, they go to the page and the log.
      const reason = scrubSecrets(result.reason ?? '', [server.apiKey ?? '', ...urlCredentials(server.url)]);
      const base = { kind: server.kind, index: server.index };
      switch (result.status) {
        case 'mcp':
          return { ...base, status: 'ok', message: s.checkOk };
        case 'unreachable':
          return { ...base, status: 'failed', message: format(s.checkUnreachable, where, reason) };
        case 'not_mcp':
          return { ...base, status: 'failed', message: format(s.checkNotMcp, where, reason) };
        case 'skipped':
          return { ...base, status: 'skipped', message: format(s.checkSkipped, reason) };
      }
    });
    this.post({ type: 'mcpChecks', checks });
    const title = (c: McpCheck) =>
      format(s.entryTitle, c.kind === 'sse' ? s.kindSse : s.kindShttp, c.index + 1);
    this.deps.log.info(
      `MCP & Git Providers: checked from VS Code before saving: ${checks
        .map((c) => `${title(c)} ${c.status}${c.status === 'ok' ? '' : ` (${c.message})`}`)
        .join('; ')}.`,
    );
    const failed = checks.filter((c) => c.status === 'failed');
    let go = true;
    if (failed.length > 0) {
      go = await check.confirm(failed.map((c) => `${title(c)}: ${c.message}`));
      this.deps.log.info(
        go
          ? 'MCP & Git Providers: saving anyway, as asked.'
          : 'MCP & Git Providers: nothing saved: the MCP check was not confirmed.',
      );
    }
    if (go) this.post({ type: 'busy', operation: 'save' });
    return go;
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

/** `host:port` for a message: never the path, query or credentials of the URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || redactUrl(url);
  } catch {
    return redactUrl(url);
  }
}
