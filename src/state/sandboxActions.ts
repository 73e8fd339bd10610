import * as vscode from 'vscode';
import { messageOf, sleep, type OpenHandsClient, type SandboxInfo } from '../api';
import type { Connection } from './connection';
import type { Log } from '../core/log';
import type { OpenHandsStore, SandboxTransition } from './store';

export type LifecycleAction = 'pause' | 'resume' | 'delete';

/** How an action ended; a failure says why in words fit for the user (no secret: `ApiError` messages). */
export type ActionOutcome =
  | { ok: true }
  | {
      ok: false;
      message: string;
      /** A warning (it may still finish on the server) rather than an error. */
      level: 'error' | 'warning';
      /** Trying again makes sense (the call failed; not a sandbox that reported ERROR). */
      canRetry: boolean;
    };

const OK: ActionOutcome = { ok: true };

/** The time an action's wait reads and sleeps by; the system's, or a test's that sleeps no real time. */
export interface ActionClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const SYSTEM_CLOCK: ActionClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

const SETTLE_TIMEOUT_MS = 3 * 60_000;
const MAX_POLL_ERRORS = 5;
const ERROR_GRACE_MS = 30_000;

/**
 * Lifecycle actions with honest optimism: the row shows "Pausing…" at once, the sandbox is polled
 * quickly until the server reports the target status, and on failure the last real state is back
 * and the outcome says why. State shows no UI: the commands show progress and failures.
 */
export class SandboxActions {
  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
    private readonly log: Log,
    private readonly clock: ActionClock = SYSTEM_CLOCK,
  ) {}

  pause(sandbox: SandboxInfo): Promise<ActionOutcome> {
    return this.run(
      sandbox.id,
      { kind: 'pausing', target: 'PAUSED' },
      (client) => client.pauseSandbox(sandbox.id),
      'pause',
    );
  }

  resume(sandbox: SandboxInfo): Promise<ActionOutcome> {
    return this.run(
      sandbox.id,
      { kind: 'resuming', target: 'RUNNING' },
      (client) => client.resumeSandbox(sandbox.id),
      'resume',
    );
  }

  delete(sandbox: SandboxInfo): Promise<ActionOutcome> {
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

  /** Starts a sandbox; resolves with it once RUNNING, or with why it did not start. */
  async start(
    sandboxSpecId: string | undefined,
  ): Promise<
    { sandbox: SandboxInfo; outcome: ActionOutcome } | { sandbox: undefined; outcome: ActionOutcome }
  > {
    const client = this.connection.requireClient();
    let started: SandboxInfo;
    try {
      started = await client.startSandbox({ sandboxSpecId });
    } catch (error) {
      return { sandbox: undefined, outcome: this.failed(error, vscode.l10n.t('Could not start a sandbox')) };
    }
    this.store.upsertSandbox(started);
    const starting = this.store.beginTransition(started.id, { kind: 'starting', target: 'RUNNING' });
    const outcome = await this.settle(client, started.id, starting, 'start');
    const sandbox = outcome.ok ? this.store.findSandbox(started.id) : undefined;
    return sandbox ? { sandbox, outcome } : { sandbox: undefined, outcome };
  }

  private async run(
    sandboxId: string,
    transition: Omit<SandboxTransition, 'startedAt'>,
    call: (client: OpenHandsClient) => Promise<unknown>,
    action: LifecycleAction,
  ): Promise<ActionOutcome> {
    if (this.store.transitions.has(sandboxId)) {
      // one action per sandbox at a time
      return {
        ok: false,
        level: 'warning',
        canRetry: false,
        message: vscode.l10n.t(
          'Sandbox “{0}” is busy with another action.',
          this.store.sandboxName(sandboxId),
        ),
      };
    }
    const client = this.connection.requireClient();
    const begun = this.store.beginTransition(sandboxId, transition);
    try {
      await call(client);
    } catch (error) {
      this.store.endTransition(sandboxId, begun);
      return this.failed(error, actionFailed(action, this.store.sandboxName(sandboxId)));
    }
    return this.settle(client, sandboxId, begun, action);
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
  ): Promise<ActionOutcome> {
    const { target } = transition;
    const deadline = this.clock.now() + SETTLE_TIMEOUT_MS;
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
          erroredSince ??= this.clock.now();
          if (this.clock.now() - erroredSince > ERROR_GRACE_MS) {
            this.store.endTransition(sandboxId, transition);
            return this.failed(
              new Error(sandbox.status_detail ?? vscode.l10n.t('the sandbox reports an error')),
              actionFailed(action, this.store.sandboxName(sandboxId)),
              false,
            );
          }
        } else {
          erroredSince = undefined;
        }
      } catch (error) {
        if (++errors >= MAX_POLL_ERRORS) {
          this.store.endTransition(sandboxId, transition);
          return this.failed(error, actionFailed(action, this.store.sandboxName(sandboxId)), false);
        }
      }
      if (this.clock.now() > deadline) {
        this.store.endTransition(sandboxId, transition);
        const message = vscode.l10n.t(
          'Sandbox “{0}” did not settle within 3 minutes; it may still finish on the server.',
          this.store.sandboxName(sandboxId),
        );
        this.log.warn(message);
        return { ok: false, level: 'warning', canRetry: false, message };
      }
      await this.clock.sleep(Math.min(this.connection.config.activeRefreshMs, 1000));
    }
    this.store.endTransition(sandboxId, transition);
    // another server now: nothing is known about how this one ended
    if (client === this.connection.client) return OK;
    return {
      ok: false,
      level: 'warning',
      canRetry: false,
      message: vscode.l10n.t('The OpenHands server changed before the sandbox settled.'),
    };
  }

  private failed(error: unknown, what: string, canRetry = true): ActionOutcome {
    const message = `${what}: ${messageOf(error)}`;
    this.log.error(message);
    return { ok: false, level: 'error', canRetry, message };
  }
}

function actionFailed(action: LifecycleAction | 'start', name: string): string {
  switch (action) {
    case 'pause':
      return vscode.l10n.t('Could not pause sandbox “{0}”', name);
    case 'resume':
      return vscode.l10n.t('Could not resume sandbox “{0}”', name);
    case 'delete':
      return vscode.l10n.t('Could not delete sandbox “{0}”', name);
    case 'start':
      return vscode.l10n.t('Sandbox “{0}” did not start', name);
  }
}
