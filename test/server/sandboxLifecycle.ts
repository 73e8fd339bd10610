// Sandbox state machine with timers: start → STARTING → RUNNING, pause (stays RUNNING until it
// lands) → PAUSED, resume → STARTING → RUNNING. Start and resume pause the oldest running
// sandboxes beyond `maxRunningSandboxes - 1`, as the Docker backend does.
import type { IdFactory } from './ids';
import type { SandboxRecord, SandboxStatus } from './models';
import type { ResolvedTimings } from './options';
import { findSandbox, type ServerState } from './state';
import type { Clock } from './time';
import { parseWireTime } from './time';
import type { TimerRegistry } from './timers';

type PendingKind = 'start' | 'pause' | 'resume';

interface PendingTransition {
  kind: PendingKind;
  handle: NodeJS.Timeout;
}

export interface SandboxLifecycleDeps {
  state: ServerState;
  ids: IdFactory;
  clock: Clock;
  timers: TimerRegistry;
  timings: ResolvedTimings;
  maxRunningSandboxes: number;
  /** Called after a sandbox is deleted (the agent double drops its directory). */
  onRemove?: (sandboxId: string) => void;
}

export class SandboxLifecycle {
  private readonly pending = new Map<string, PendingTransition>();

  constructor(private readonly deps: SandboxLifecycleDeps) {}

  /** Creates a STARTING sandbox (the caller has checked that the spec exists). */
  start(specId: string): SandboxRecord {
    this.pauseOldestRunning(this.deps.maxRunningSandboxes - 1);
    const sandbox: SandboxRecord = {
      id: this.deps.ids.sandboxId(),
      created_by_user_id: null,
      sandbox_spec_id: specId,
      status: 'STARTING',
      session_api_key: this.deps.ids.sessionApiKey(),
      created_at: this.deps.clock.now(),
    };
    this.deps.state.sandboxes.push(sandbox);
    this.schedule(sandbox.id, 'start', this.deps.timings.sandboxStartMs, 'RUNNING');
    return sandbox;
  }

  /** Makes a seeded or externally set STARTING sandbox come up like a fresh one. */
  settle(sandboxId: string): void {
    this.schedule(sandboxId, 'start', this.deps.timings.sandboxStartMs, 'RUNNING');
  }

  /** Returns false for an unknown id (404). Idempotent: anything not running stays as it is. */
  pause(sandboxId: string): boolean {
    const sandbox = findSandbox(this.deps.state, sandboxId);
    if (!sandbox) return false;
    const pendingKind = this.pending.get(sandboxId)?.kind;
    if (pendingKind === 'pause') return true;
    if (sandbox.status === 'RUNNING' || sandbox.status === 'STARTING') {
      this.schedule(sandboxId, 'pause', this.deps.timings.sandboxPauseMs, 'PAUSED');
    }
    return true;
  }

  /** Returns false for an unknown id (404). Idempotent: only a PAUSED (or pausing) sandbox changes. */
  resume(sandboxId: string): boolean {
    const sandbox = findSandbox(this.deps.state, sandboxId);
    if (!sandbox) return false;
    const pendingKind = this.pending.get(sandboxId)?.kind;
    if (pendingKind === 'pause') {
      // The pause had not landed yet: the sandbox simply keeps running.
      this.cancel(sandboxId);
      return true;
    }
    if (sandbox.status !== 'PAUSED') return true;
    this.pauseOldestRunning(this.deps.maxRunningSandboxes - 1, sandboxId);
    sandbox.status = 'STARTING';
    this.schedule(sandboxId, 'resume', this.deps.timings.sandboxResumeMs, 'RUNNING');
    return true;
  }

  remove(sandboxId: string): boolean {
    const index = this.deps.state.sandboxes.findIndex((sandbox) => sandbox.id === sandboxId);
    if (index < 0) return false;
    this.cancel(sandboxId);
    this.deps.state.sandboxes.splice(index, 1);
    this.deps.onRemove?.(sandboxId);
    return true;
  }

  /** Used by the control API: an explicit status wins over any transition in flight. */
  forceStatus(sandbox: SandboxRecord, status: SandboxStatus): void {
    this.cancel(sandbox.id);
    sandbox.status = status;
  }

  pendingTransition(sandboxId: string): PendingKind | undefined {
    return this.pending.get(sandboxId)?.kind;
  }

  /** Forgets transitions in flight (their timers are cleared by the registry owner). */
  reset(): void {
    for (const transition of this.pending.values()) this.deps.timers.cancel(transition.handle);
    this.pending.clear();
  }

  /** STARTING ones count too, so a burst of starts cannot end with more than the maximum running. */
  private pauseOldestRunning(keepRunning: number, exceptId?: string): void {
    const running = this.deps.state.sandboxes
      .filter(
        (sandbox) =>
          (sandbox.status === 'RUNNING' || sandbox.status === 'STARTING') && sandbox.id !== exceptId,
      )
      .filter((sandbox) => this.pending.get(sandbox.id)?.kind !== 'pause')
      .sort((a, b) => parseWireTime(a.created_at) - parseWireTime(b.created_at));
    for (const sandbox of running.slice(0, Math.max(0, running.length - Math.max(0, keepRunning)))) {
      this.pause(sandbox.id);
    }
  }

  private schedule(sandboxId: string, kind: PendingKind, delayMs: number, target: SandboxStatus): void {
    this.cancel(sandboxId);
    const handle = this.deps.timers.after(delayMs, () => {
      this.pending.delete(sandboxId);
      const sandbox = findSandbox(this.deps.state, sandboxId);
      if (sandbox) sandbox.status = target;
    });
    this.pending.set(sandboxId, { kind, handle });
  }

  private cancel(sandboxId: string): void {
    const transition = this.pending.get(sandboxId);
    if (!transition) return;
    this.deps.timers.cancel(transition.handle);
    this.pending.delete(sandboxId);
  }
}
