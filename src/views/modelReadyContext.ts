// The context key `openhands.modelReady`: the walkthrough's "Set up the model" step is done when the
// server's agent has a model it can use (its completion event is `onContext:openhands.modelReady`).
import * as vscode from 'vscode';
import type { Log } from '../core/log';
import type { Connection } from '../state/connection';
import { checkModel, type ModelCheck } from '../state/modelCheck';
import type { OpenHandsStore } from '../state/store';

export const MODEL_READY_CONTEXT = 'openhands.modelReady';

/**
 * Follows readiness without polling: a flow that read it (Connect, New Conversation, the Model page)
 * reports what it found, and each server is read once, when its views first load (so activation and a
 * hidden view cost no request).
 */
export class ModelReadyContext implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private sent: boolean | undefined;
  /** The server's readiness is not read yet since the connection changed. */
  private unread = true;
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    store: OpenHandsStore,
    private readonly log: Log,
  ) {
    this.subscriptions = [
      connection.onDidChange(() => {
        // another server or key: what was known says nothing of it
        this.generation++;
        this.unread = true;
        this.set(false);
      }),
      store.onDidChange(() => {
        if (this.unread && store.state === 'ready') void this.refresh();
      }),
    ];
  }

  /** Whether the key says ready now. */
  get ready(): boolean {
    return this.sent === true;
  }

  /** What a flow found, for the server of the moment. */
  report(check: ModelCheck): void {
    this.unread = false;
    this.set(check.readiness === 'ready');
  }

  /** Reads the server's readiness again (after the model was set up, say). */
  async refresh(): Promise<ModelCheck | undefined> {
    const client = this.connection.client;
    if (!client) return undefined;
    this.unread = false;
    const generation = this.generation;
    const check = await checkModel(client, {
      onFailure: (reason) => this.log.warn(`Could not read whether the model is set up: ${reason}`),
    });
    // a read that outlived its server says nothing of the next one
    if (generation === this.generation) this.set(check.readiness === 'ready');
    return check;
  }

  private set(ready: boolean): void {
    if (this.sent === ready) return;
    this.sent = ready;
    void vscode.commands.executeCommand('setContext', MODEL_READY_CONTEXT, ready);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
