import * as vscode from 'vscode';
import type { Connection } from './connection';
import { nextRefreshDelay } from './refreshPolicy';
import type { OpenHandsStore } from './store';

/**
 * Background refresh for the OpenHands views: only while one is visible, fast while something is in
 * transition, slow when all is steady, backing off while the server fails.
 */
export class RefreshScheduler implements vscode.Disposable {
  private readonly visibleViews = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private errorStreak = 0;
  private pendingDelay = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: OpenHandsStore,
    private readonly connection: Connection,
  ) {
    this.disposables.push(
      store.onDidChange(() => {
        // a transition that just began must not wait out a slow idle timer
        if (store.busy && this.timer && this.pendingDelay > this.connection.config.activeRefreshMs)
          this.reschedule();
      }),
      vscode.window.onDidChangeWindowState(() => this.reschedule()),
      // a new server or key: reload what is on screen (nothing when no view is visible)
      connection.onDidChange(() => {
        this.errorStreak = 0;
        if (this.anyViewVisible) void this.runNow();
      }),
    );
  }

  setVisible(viewId: string, visible: boolean): void {
    const before = this.visibleViews.size;
    if (visible) this.visibleViews.add(viewId);
    else this.visibleViews.delete(viewId);
    if (before === 0 && this.visibleViews.size > 0) void this.runNow();
    else if (this.visibleViews.size === 0) this.stop();
  }

  get anyViewVisible(): boolean {
    return this.visibleViews.size > 0;
  }

  /**
   * Refresh now (a user action or a changed setting) and plan the next one from the result. `full`
   * (the Refresh command) also makes conversations deleted elsewhere go (`OpenHandsStore.refresh`);
   * otherwise only what can have changed is read.
   */
  async runNow(options: { full?: boolean } = {}): Promise<void> {
    this.stop();
    await this.store.refresh(options);
    this.errorStreak = this.store.state === 'error' ? this.errorStreak + 1 : 0;
    this.reschedule();
  }

  private reschedule(): void {
    this.stop();
    const delay = nextRefreshDelay({
      anyViewVisible: this.anyViewVisible,
      windowFocused: vscode.window.state.focused,
      busy: this.store.busy,
      errorStreak: this.errorStreak,
      activeMs: this.connection.config.activeRefreshMs,
      idleMs: this.connection.config.idleRefreshMs,
    });
    if (delay === undefined) return;
    this.pendingDelay = delay;
    this.timer = setTimeout(() => void this.runNow(), delay);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.stop();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
