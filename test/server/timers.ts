// Every timer the server schedules goes through here so close()/reset() can cancel them all, and
// timers are unref'd so a forgotten server never keeps a test process alive.

export class TimerRegistry {
  private readonly handles = new Set<NodeJS.Timeout>();

  after(ms: number, action: () => void): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      action();
    }, ms);
    handle.unref();
    this.handles.add(handle);
    return handle;
  }

  /** A promise that resolves after `ms`, or never if the registry is cleared first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.after(ms, resolve);
    });
  }

  cancel(handle: NodeJS.Timeout | undefined): void {
    if (!handle) return;
    clearTimeout(handle);
    this.handles.delete(handle);
  }

  clearAll(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}
