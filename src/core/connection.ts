import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { OpenHandsClient, type TlsOptions } from '../api';
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
  private current: {
    config: ExtensionConfig;
    client: OpenHandsClient | undefined;
    hasApiKey: boolean;
    /** Why there is no client although a server URL is set (e.g. an unreadable CA file). */
    problem: string | undefined;
  };
  private generation = 0;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly log: Log,
  ) {
    this.current = { config: readConfig(), client: undefined, hasApiKey: false, problem: undefined };
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

  /** Why the settings give no client (invalid URL, unreadable CA file); undefined when none is set. */
  get problem(): string | undefined {
    const urlProblem = this.current.config.serverUrlProblem;
    return urlProblem
      ? vscode.l10n.t('The OpenHands server URL is not valid: {0}', urlProblem)
      : this.current.problem;
  }

  /** The client, or a clear error saying why there is none (no URL, an invalid one, a bad CA file). */
  requireClient(): OpenHandsClient {
    const client = this.current.client;
    if (client) return client;
    throw new Error(
      this.problem ?? vscode.l10n.t('No OpenHands server is configured. Set openhands.serverUrl first.'),
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
    const tls = await tlsOptions(config);
    if (generation !== this.generation) return;
    const client =
      config.serverUrl && !tls.problem
        ? new OpenHandsClient({
            baseUrl: config.serverUrl,
            apiKey,
            authHeader: config.authHeader,
            timeoutMs: config.requestTimeoutMs,
            logBodies: config.httpLogLevel === 'bodies',
            onLog: (entry) => this.log.request(entry),
            tls: tls.options,
          })
        : undefined;
    this.current = { config, client, hasApiKey: Boolean(apiKey), problem: tls.problem };
    if (this.problem) this.log.warn(this.problem);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** The TLS settings for an https:// server: a CA file read now, so a bad path is reported at once. */
async function tlsOptions(config: ExtensionConfig): Promise<{ options?: TlsOptions; problem?: string }> {
  if (!config.serverUrl?.startsWith('https://')) return {};
  const options: TlsOptions = {};
  if (config.tlsInsecure) options.rejectUnauthorized = false;
  if (config.tlsCaFile) {
    try {
      options.ca = await readFile(config.tlsCaFile, 'utf8');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { problem: vscode.l10n.t('The CA file in openhands.tls.caFile cannot be read: {0}', reason) };
    }
    if (!options.ca.includes('-----BEGIN CERTIFICATE-----')) {
      return {
        problem: vscode.l10n.t(
          'The CA file {0} holds no PEM certificate (-----BEGIN CERTIFICATE-----).',
          config.tlsCaFile,
        ),
      };
    }
  }
  return { options: Object.keys(options).length ? options : undefined };
}
