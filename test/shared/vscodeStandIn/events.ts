// Events as VS Code's extension API delivers them: `fire` calls every listener at once, in order, before
// it returns; a listener that throws is reported, not thrown at whoever fired.
import type * as vscode from 'vscode';

export class Disposable implements vscode.Disposable {
  private done = false;

  constructor(private readonly callOnDispose: () => unknown) {}

  static from(...disposables: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => {
      for (const disposable of disposables) disposable.dispose();
    });
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.callOnDispose();
  }
}

/** What listeners threw since the last reset: VS Code logs them; a test can assert there were none. */
export const listenerErrors: unknown[] = [];

export class EventEmitter<T> implements vscode.EventEmitter<T> {
  private listeners: ((value: T) => unknown)[] = [];
  private disposed = false;

  readonly event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound = (value: T): unknown => listener.call(thisArgs, value);
    if (!this.disposed) this.listeners.push(bound);
    const subscription = new Disposable(() => {
      this.listeners = this.listeners.filter((known) => known !== bound);
    });
    disposables?.push(subscription);
    return subscription;
  };

  fire(data: T): void {
    // a snapshot: a listener added while firing hears the next event, not this one
    for (const listener of [...this.listeners]) {
      try {
        listener(data);
      } catch (error) {
        listenerErrors.push(error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

export class CancellationTokenSource implements vscode.CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  private readonly state = { requested: false };
  readonly token: vscode.CancellationToken;

  constructor() {
    const state = this.state;
    this.token = {
      get isCancellationRequested() {
        return state.requested;
      },
      onCancellationRequested: this.cancelled.event,
    };
  }

  cancel(): void {
    if (this.state.requested) return;
    this.state.requested = true;
    this.cancelled.fire();
  }

  dispose(): void {
    this.cancelled.dispose();
  }
}
