import * as vscode from 'vscode';
import { collectAll, type OpenHandsClient, type SandboxSpecInfo } from '../api';
import type { Connection } from './connection';

/**
 * The server's sandbox specs (images). They change only when an administrator changes the server,
 * so they are read on demand (Start Sandbox…, Refresh once read), never polled.
 */
export class SpecCatalog implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** In the server's order: the first one is what a sandbox started without a spec gets. */
  specs: SandboxSpecInfo[] = [];
  loaded = false;
  /** Why the last read failed; cleared by a successful one. */
  lastError: Error | undefined;

  private inFlight: Promise<SandboxSpecInfo[]> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    this.subscription = connection.onDidChange(() => {
      // another server: its specs are not these
      this.specs = [];
      this.loaded = false;
      this.lastError = undefined;
      this.inFlight = undefined;
      this.changed.fire();
    });
  }

  /**
   * The specs, read from the server unless already read; concurrent calls share one read. After a
   * failed read it gives what is kept and does not read again (only Refresh or another server does):
   * the failure redraws the view, and a redraw that read again would loop for as long as it fails.
   */
  ensureLoaded(): Promise<SandboxSpecInfo[]> {
    return this.loaded || this.lastError ? Promise.resolve(this.specs) : this.reload();
  }

  /** For Refresh: reads again only what has been read (or failed) before; never throws. */
  async refreshIfUsed(): Promise<void> {
    if (this.loaded || this.lastError) await this.reload().catch(() => undefined);
  }

  /** Reads the specs again. Rejects with the server's error (also kept in `lastError`). */
  reload(): Promise<SandboxSpecInfo[]> {
    if (this.inFlight) return this.inFlight;
    let client: OpenHandsClient;
    try {
      client = this.connection.requireClient();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const request = collectAll(
      (pageId, signal) => client.searchSandboxSpecs({ pageId, limit: 100 }, { signal }),
      {
        maxItems: 1000,
      },
    ).then(
      (specs) => {
        if (this.inFlight !== request) return specs; // the server changed meanwhile
        this.specs = specs;
        this.loaded = true;
        this.lastError = undefined;
        this.inFlight = undefined;
        this.changed.fire();
        return specs;
      },
      (error: unknown) => {
        if (this.inFlight === request) {
          this.lastError = error instanceof Error ? error : new Error(String(error));
          this.inFlight = undefined;
          this.changed.fire();
        }
        throw error;
      },
    );
    this.inFlight = request;
    return request;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
