import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { ConnectionPool, messageOf, OpenHandsClient, type TlsOptions } from '../api';
import type { ApiKeys } from '../core/secretsManager';
import { affectsUs, readConfig, type ExtensionConfig } from '../core/config';
import type { Log } from '../core/log';
import { isPlainHttpToAnotherHost, type PlainHttpConsent } from '../core/plainHttp';

/**
 * The current server, key and client. Rebuilt when the settings that make the client (URL, auth
 * header, TLS, timeout) or the stored key change, and everything that talks to the server asks this
 * for the client of the moment. `onDidChange` means "another server or key": the views start over.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly switched = new vscode.EventEmitter<ServerSwitch>();
  /** Another server (URL) than before, fired before `onDidChange`: what belongs to the old one goes. */
  readonly onDidSwitchServer = this.switched.event;
  private readonly configured = new vscode.EventEmitter<void>();
  /** Any setting was read again (a server's name, the status bar's switch), with or without a new client. */
  readonly onDidChangeConfig = this.configured.event;
  private readonly disposables: vscode.Disposable[] = [];
  private current: {
    config: ExtensionConfig;
    client: OpenHandsClient | undefined;
    hasApiKey: boolean;
    apiKey: string | undefined;
    /** Why there is no client although a server URL is set (e.g. an unreadable CA file). */
    problem: string | undefined;
    /** The TLS settings the client was made with; agent servers of its sandboxes get the same. */
    tls: TlsOptions | undefined;
    /** The keep-alive connections of this server and its agent servers, made with `tls`. */
    pool: ConnectionPool;
  };
  private generation = 0;
  /**
   * Secrets the client never sends in a header but a page handles (the LLM key typed on the Model
   * page): masked in every error and log entry of every client made from now on. Memory only.
   */
  private readonly rememberedSecrets = new Set<string>();

  constructor(
    private readonly keys: ApiKeys,
    private readonly log: Log,
    /** Which http:// servers on other machines may get the key. */
    readonly plainHttp: PlainHttpConsent,
  ) {
    this.current = {
      config: readConfig(),
      client: undefined,
      hasApiKey: false,
      apiKey: undefined,
      problem: undefined,
      tls: undefined,
      pool: new ConnectionPool(),
    };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!affectsUs(event)) return;
        const config = readConfig();
        // page size, refresh intervals, log level: taken as they are, nothing starts over
        if (sameClientSettings(config, this.current.config)) this.applySettings(config);
        else void this.rebuild();
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
      this.problem ?? vscode.l10n.t('No OpenHands server is connected. Run Connect to OpenHands… first.'),
    );
  }

  get tls(): TlsOptions | undefined {
    return this.current.tls;
  }

  /** Keep-alive connections for every client of the server of the moment (its agent servers' too). */
  get pool(): ConnectionPool {
    return this.current.pool;
  }

  get hasApiKey(): boolean {
    return this.current.hasApiKey;
  }

  /** The API key of the moment (memory only): what views scrub from anything they show. */
  get apiKey(): string | undefined {
    return this.current.apiKey;
  }

  /** Masks `value` in every error and log entry of the client, from now on (the set is bounded). */
  rememberSecret(value: string): void {
    if (!value || this.rememberedSecrets.has(value)) return;
    // the oldest goes first: a session types few keys, a loop must not grow the set
    if (this.rememberedSecrets.size >= 64) {
      const oldest = this.rememberedSecrets.values().next().value;
      if (oldest !== undefined) this.rememberedSecrets.delete(oldest);
    }
    this.rememberedSecrets.add(value);
  }

  /** Reads settings and the key for the configured server; no network I/O. */
  async rebuild(): Promise<void> {
    const generation = ++this.generation;
    const config = readConfig();
    const apiKey = config.serverUrl ? await this.keys.get(config.serverUrl) : undefined;
    // a newer rebuild started while we awaited the key: let it win
    if (generation !== this.generation) return;
    const tls = await tlsOptions(config);
    if (generation !== this.generation) return;
    // no client (so nothing sent) until the user agrees to send the key unencrypted to another machine
    const unconfirmedPlainHttp =
      apiKey !== undefined &&
      config.serverUrl !== undefined &&
      isPlainHttpToAnotherHost(config.serverUrl) &&
      !this.plainHttp.allows(config.serverUrl);
    const problem =
      tls.problem ??
      (unconfirmedPlainHttp && config.serverUrl
        ? vscode.l10n.t(
            'The API key for {0} is not sent: it would travel unencrypted (http://). Use https://, or run Set API Key… to confirm.',
            config.serverUrl,
          )
        : undefined);
    const pool = new ConnectionPool(tls.options);
    const client =
      config.serverUrl && !problem
        ? new OpenHandsClient({
            baseUrl: config.serverUrl,
            apiKey,
            authHeader: config.authHeader,
            timeoutMs: config.requestTimeoutMs,
            // asked per request, so changing the log level needs no new client (and masking a body
            // costs nothing while nobody reads it)
            logBodies: () => this.log.httpLevel === 'bodies',
            onLog: (entry) => this.log.request(entry),
            extraSecrets: () => [...this.rememberedSecrets],
            tls: tls.options,
            pool,
          })
        : undefined;
    // settings that need no client may have changed while we awaited
    const latest = readConfig();
    const previous = this.current.config;
    // calls in flight finish; no socket stays open for a server, key or TLS setting no longer used
    this.current.pool.close();
    this.current = {
      config: sameClientSettings(latest, config) ? latest : config,
      client,
      hasApiKey: Boolean(apiKey),
      apiKey,
      problem,
      tls: tls.options,
      pool,
    };
    this.log.httpLevel = this.current.config.httpLogLevel;
    if (this.problem) this.log.warn(this.problem);
    if (!sameUrl(previous.serverUrl, config.serverUrl)) {
      this.switched.fire({
        from: previous.serverUrl ? { url: previous.serverUrl, name: previous.serverName } : undefined,
        to: config.serverUrl ? { url: config.serverUrl, name: config.serverName } : undefined,
      });
    }
    this.changed.fire();
    this.configured.fire();
    if (unconfirmedPlainHttp && config.serverUrl) void this.askAboutPlainHttp(config.serverUrl);
  }

  private async askAboutPlainHttp(serverUrl: string): Promise<void> {
    if (await this.plainHttp.ask(serverUrl, { modal: false })) await this.rebuild();
  }

  private applySettings(config: ExtensionConfig): void {
    this.current = { ...this.current, config };
    this.log.httpLevel = config.httpLogLevel;
    this.configured.fire();
  }

  dispose(): void {
    this.current.pool.dispose();
    this.changed.dispose();
    this.switched.dispose();
    this.configured.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

export interface ServerSwitch {
  /** The server the views showed; undefined when none was set. */
  from: { url: string; name: string } | undefined;
  to: { url: string; name: string } | undefined;
}

function sameUrl(a: string | undefined, b: string | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase());
}

/** Whether two configurations give the same client (server, credentials' header, TLS, timeout). */
function sameClientSettings(a: ExtensionConfig, b: ExtensionConfig): boolean {
  return (
    a.serverUrl === b.serverUrl &&
    a.serverUrlProblem === b.serverUrlProblem &&
    a.authHeader === b.authHeader &&
    a.requestTimeoutMs === b.requestTimeoutMs &&
    a.tlsCaFile === b.tlsCaFile &&
    a.tlsInsecure === b.tlsInsecure
  );
}

/** The TLS settings for an https:// server: a CA file read now, so a bad path is reported at once. */
export async function tlsOptions(
  config: Pick<ExtensionConfig, 'serverUrl' | 'tlsCaFile' | 'tlsInsecure'>,
): Promise<{ options?: TlsOptions; problem?: string }> {
  if (!config.serverUrl?.startsWith('https://')) return {};
  const options: TlsOptions = {};
  if (config.tlsInsecure) options.rejectUnauthorized = false;
  if (config.tlsCaFile) {
    try {
      options.ca = await readFile(config.tlsCaFile, 'utf8');
    } catch (error) {
      const reason = messageOf(error);
      return { problem: vscode.l10n.t('The CA file {0} cannot be read: {1}', config.tlsCaFile, reason) };
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
