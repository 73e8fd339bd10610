/**
 * Which host each git provider of the server is on (`provider_tokens_set` of the settings: a
 * self-hosted GitLab, GitHub Enterprise, …), read once per client when a PR link is first wanted.
 * Only the hosts are kept: the settings reply carries nothing else we need.
 */
import * as vscode from 'vscode';
import type { OpenHandsClient } from '../api';
import type { ProviderHosts } from './pullRequestLinks';

/** The longest host name kept: a DNS name is at most 253 characters, with a scheme and port beside it. */
const MAX_HOST_CHARS = 300;

export class ProviderHostsCache implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The hosts of the client of the moment became known. */
  readonly onDidChange = this.changed.event;
  private client: OpenHandsClient | undefined;
  private hosts: ProviderHosts | undefined;
  /** The last read of this client failed: the public hosts until a read succeeds. */
  private failed = false;
  private reading: Promise<ProviderHosts> | undefined;

  constructor(private readonly currentClient: () => OpenHandsClient | undefined) {}

  /** The hosts once a read for the client of the moment settled (`{}` when it failed); undefined before. */
  known(): ProviderHosts | undefined {
    this.follow();
    return this.hosts ?? (this.failed ? {} : undefined);
  }

  /** The hosts of the client of the moment: read once, `{}` when the server will not say. */
  read(): Promise<ProviderHosts> {
    this.follow();
    const client = this.client;
    if (this.hosts) return Promise.resolve(this.hosts);
    if (!client) return Promise.resolve({});
    this.reading ??= client.getSettings().then(
      (settings) => {
        const hosts = keptHosts(settings.provider_tokens_set);
        if (this.client === client) {
          this.hosts = hosts;
          this.failed = false;
          this.changed.fire();
        }
        return hosts;
      },
      () => {
        // an older server or a refused read: the public hosts; asked again on the next read
        if (this.client === client) {
          this.reading = undefined;
          this.failed = true;
          this.changed.fire();
        }
        return {};
      },
    );
    return this.reading;
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Another client (another server, or settings that made a new one): its hosts are read anew. */
  private follow(): void {
    const client = this.currentClient();
    if (client === this.client) return;
    this.client = client;
    this.hosts = undefined;
    this.failed = false;
    this.reading = undefined;
  }
}

function keptHosts(set: Readonly<Record<string, string | null>> | null | undefined): ProviderHosts {
  const hosts: Record<string, string | null> = {};
  for (const [provider, host] of Object.entries(set ?? {}).slice(0, 20))
    // a host too long to be one is kept unusable (no link), never taken for the public host
    hosts[provider] = typeof host === 'string' ? (host.length <= MAX_HOST_CHARS ? host : '') : null;
  return hosts;
}
