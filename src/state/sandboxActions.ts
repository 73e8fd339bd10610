import * as vscode from 'vscode';
import { messageOf, sleep, type OpenHandsClient, type SandboxInfo } from '../api';
import type { Connection } from './connection';
import type { Log } from '../core/log';
import { shortSandboxId } from './names';
import type { OpenHandsStore, SandboxTransition } from './store';

export type LifecycleAction = 'pause' | 'resume' | 'delete';

const SETTLE_TIMEOUT_MS = 3 * 60_000;
const MAX_POLL_ERRORS = 5;
const ERROR_GRACE_MS = 30_000;

/**
 * Lifecycle actions with honest optimism: the row shows "Pausing…" at once, the sandbox is polled
 * quickly until the server reports the target status, and on failure the last real state is back
 * with the reason and a Retry.
 */
export class SandboxActions {
  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
    private readonly log: Log,
  ) {}

  pause(sandbox: SandboxInfo): Promise<boolean> {
    return this.run(
      sandbox.id,
      { kind: 'pausing', target: 'PAUSED' },
      (client) => client.pauseSandbox(sandbox.id),
      'pause',
    );
  }

  resume(sandbox: SandboxInfo): Promise<boolean> {
    return this.run(
      sandbox.id,
      { kind: 'resuming', target: 'RUNNING' },
      (client) => client.resumeSandbox(sandbox.id),
      'resume',
    );
  }

  delete(sandbox: SandboxInfo): Promise<boolean> {
    return this.run(
      sandbox.id,
      { kind: 'deleting', target: undefined },
      async (client) => {
        await client.deleteSandbox(sandbox.id);
        this.store.removeSandbox(sandbox.id);
      },
      'delete',
    );
  }

  /** Starts a sandbox; resolves with it once RUNNING (or undefined when it failed, already reported). */
  async start(sandboxSpecId: string | undefined): Promise<SandboxInfo | undefined> {
    const client = this.connection.requireClient();
    let started: SandboxInfo;
    try {
      started = await withViewProgress(() => client.startSandbox({ sandboxSpecId }));
    } catch (error) {
      this.report(error, vscode.l10n.t('Could not start a sandbox'), () => void this.start(sandboxSpecId));
      return undefined;
    }
    this.store.upsertSandbox(started);
    const starting = this.store.beginTransition(started.id, { kind: 'starting', target: 'RUNNING' });
    const settled = await this.settle(client, started.id, starting, 'start');
    return settled ? this.store.findSandbox(started.id) : undefined;
  }

  private async run(
    sandboxId: string,
    transition: Omit<SandboxTransition, 'startedAt'>,
    call: (client: OpenHandsClient) => Promise<unknown>,
    action: LifecycleAction,
  ): Promise<boolean> {
    if (this.store.transitions.has(sandboxId)) return false; // one action per sandbox at a time
    const client = this.connection.requireClient();
    const begun = this.store.beginTransition(sandboxId, transition);
    try {
      await withViewProgress(() => call(client));
    } catch (error) {
      this.store.endTransition(sandboxId, begun);
      this.report(error, actionFailed(action, sandboxId), () => {
        const sandbox = this.store.findSandbox(sandboxId);
        if (sandbox) void this.retry(action, sandbox);
      });
      return false;
    }
    return this.settle(client, sandboxId, begun, action);
  }

  private retry(action: LifecycleAction, sandbox: SandboxInfo): Promise<boolean> {
    return action === 'pause'
      ? this.pause(sandbox)
      : action === 'resume'
        ? this.resume(sandbox)
        : this.delete(sandbox);
  }

  /**
   * Polls just this sandbox until it reaches the target; the views show each step. It waits on its
   * own transition, not on the sandbox: once a refresh ended it, a newer one (a resume after this
   * pause) belongs to another wait.
   */
  private async settle(
    client: OpenHandsClient,
    sandboxId: string,
    transition: SandboxTransition,
    action: LifecycleAction | 'start',
  ): Promise<boolean> {
    const { target } = transition;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let errors = 0;
    let erroredSince: number | undefined;
    while (this.store.transitions.get(sandboxId) === transition && client === this.connection.client) {
      try {
        const [sandbox] = await client.getSandboxes([sandboxId]);
        errors = 0;
        if (sandbox) this.store.upsertSandbox(sandbox);
        else this.store.removeSandbox(sandboxId);
        if (target === undefined ? !sandbox : sandbox?.status === target) break;
        if (sandbox?.status === 'ERROR' && target === 'RUNNING') {
          // Docker reports ERROR for a moment while a fresh container fails its health check
          erroredSince ??= Date.now();
          if (Date.now() - erroredSince > ERROR_GRACE_MS) {
            this.store.endTransition(sandboxId, transition);
            this.report(
              new Error(sandbox.status_detail ?? vscode.l10n.t('the sandbox reports ERROR')),
              actionFailed(action, sandboxId),
              undefined,
            );
            return false;
          }
        } else {
          erroredSince = undefined;
        }
      } catch (error) {
        if (++errors >= MAX_POLL_ERRORS) {
          this.store.endTransition(sandboxId, transition);
          this.report(error, actionFailed(action, sandboxId), undefined);
          return false;
        }
      }
      if (Date.now() > deadline) {
        this.store.endTransition(sandboxId, transition);
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Sandbox {0} did not settle within 3 minutes; it may still finish on the server.',
            shortSandboxId(sandboxId),
          ),
        );
        return false;
      }
      await sleep(Math.min(this.connection.config.activeRefreshMs, 1000));
    }
    this.store.endTransition(sandboxId, transition);
    // another server now: nothing is known about how this one ended
    return client === this.connection.client;
  }

  private report(error: unknown, what: string, retry: (() => void) | undefined): void {
    const reason = messageOf(error);
    this.log.error(`${what}: ${reason}`);
    const retryLabel = vscode.l10n.t('Retry');
    const logLabel = vscode.l10n.t('Show Log');
    const buttons = retry ? [retryLabel, logLabel] : [logLabel];
    void vscode.window.showErrorMessage(`${what}: ${reason}`, ...buttons).then((choice) => {
      if (choice === retryLabel) retry?.();
      if (choice === logLabel) this.log.show();
    });
  }
}

function actionFailed(action: LifecycleAction | 'start', sandboxId: string): string {
  const id = shortSandboxId(sandboxId);
  switch (action) {
    case 'pause':
      return vscode.l10n.t('Could not pause sandbox {0}', id);
    case 'resume':
      return vscode.l10n.t('Could not resume sandbox {0}', id);
    case 'delete':
      return vscode.l10n.t('Could not delete sandbox {0}', id);
    case 'start':
      return vscode.l10n.t('Sandbox {0} did not start', id);
  }
}

function withViewProgress<T>(task: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: { viewId: 'openhands.sandboxes' } }, task);
}
