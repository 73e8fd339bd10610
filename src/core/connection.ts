import * as vscode from 'vscode';
import { OpenHandsClient } from '../api';
import type { ApiKeyStore } from './apiKeyStore';
import { affectsUs, readConfig, type ExtensionConfig } from './config';
import type { Log } from './log';

/**
 * The current server, key and client. Rebuilt whenever the settings or the stored key change, and
 * everything that talks to the server asks this for the client of the moment.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private current: { config: ExtensionConfig; client: OpenHandsClient | undefined; hasApiKey: boolean };
  private generation = 0;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly log: Log,
  ) {
    this.current = { config: readConfig(), client: undefined, hasApiKey: false };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsUs(event)) void this.rebuild();
      }),
      keys.onDidChange((url) => {
        if (url === this.current.config.serverUrl?.toLowerCase()) void this.rebuild();
      }),
    );
  }

  get config(): ExtensionConfig {
    return this.current.config;
  }

  get client(): OpenHandsClient | undefined {
    return this.current.client;
  }

  /** The client, or a clear error saying why there is none (no URL, or an invalid one). */
  requireClient(): OpenHandsClient {
    const client = this.current.client;
    if (client) return client;
    const problem = this.current.config.serverUrlProblem;
    throw new Error(
      problem
        ? vscode.l10n.t('The OpenHands server URL is not valid: {0}', problem)
        : vscode.l10n.t('No OpenHands server is configured. Set openhands.serverUrl first.'),
    );
  }

  get hasApiKey(): boolean {
    return this.current.hasApiKey;
  }

  /** Reads settings and the key for the configured server; no network I/O. */
  async rebuild(): Promise<void> {
    const generation = ++this.generation;
    const config = readConfig();
    const apiKey = config.serverUrl ? await this.keys.get(config.serverUrl) : undefined;
    // a newer rebuild started while we awaited the key: let it win
    if (generation !== this.generation) return;
    this.log.httpLevel = config.httpLogLevel;
    const client = config.serverUrl
      ? new OpenHandsClient({
          baseUrl: config.serverUrl,
          apiKey,
          authHeader: config.authHeader,
          timeoutMs: config.requestTimeoutMs,
          logBodies: config.httpLogLevel === 'bodies',
          onLog: (entry) => this.log.request(entry),
        })
      : undefined;
    if (config.serverUrlProblem) this.log.warn(`Invalid openhands.serverUrl: ${config.serverUrlProblem}`);
    this.current = { config, client, hasApiKey: Boolean(apiKey) };
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
