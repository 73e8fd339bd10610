/**
 * The agent's controls from the panel (approve, reject, continue, pause, stop, the confirmation
 * policy, the model), one at a time: the one under way shows in the header (`busy`), and each request is answered
 * by a `reply` of its own id, done or refused with why. No vscode import.
 */
import { messageOf } from '../../../api/errors';
import type { Steering } from '../../../state/conversationSteering';
import type { Controls, Reply } from '../shared/protocol';

type ControlName = NonNullable<Controls['busy']>;

export class AgentControls {
  private under: ControlName | null = null;
  /** The user rejected the pending actions; the agent waits until told to go on. */
  private wasRejected = false;

  constructor(
    private readonly steer: Steering,
    /** The header changed (a control began or ended). */
    private readonly changed: () => void,
    private readonly answer: (reply: Reply) => void,
  ) {}

  get busy(): ControlName | null {
    return this.under;
  }

  /** Whether to offer Continue after a reject: until the agent runs again (`status`). */
  rejected(status: string | undefined): boolean {
    if (status === 'running') this.wasRejected = false;
    return this.wasRejected;
  }

  /** A message was sent: it tells the agent what to do after the reject. */
  messageSent(): void {
    this.wasRejected = false;
  }

  approve(id: number): Promise<void> {
    return this.run(id, 'approve', () => this.steer.approve());
  }

  reject(id: number, reason: string | undefined): Promise<void> {
    return this.run(id, 'reject', async () => {
      await this.steer.reject(reason);
      this.wasRejected = true;
    });
  }

  continue(id: number): Promise<void> {
    return this.run(id, 'continue', async () => {
      this.wasRejected = false;
      await this.steer.continue();
    });
  }

  pause(id: number): Promise<void> {
    return this.run(id, 'pause', () => this.steer.pause());
  }

  stop(id: number): Promise<void> {
    return this.run(id, 'stop', () => this.steer.stop());
  }

  setConfirmation(id: number, on: boolean): Promise<void> {
    return this.run(id, 'policy', () => this.steer.setConfirmation(on));
  }

  /** The model picker: busy from the pick shown to the server's answer. */
  switchModel(id: number, pickAndSwitch: () => Promise<unknown>): Promise<void> {
    return this.run(id, 'model', async () => {
      await pickAndSwitch();
    });
  }

  /** The header first (the buttons come back), then the reply that says how it went. */
  private async run(id: number, name: ControlName, act: () => Promise<void>): Promise<void> {
    if (this.under) {
      this.answer({ type: 'reply', id, ok: false });
      return;
    }
    this.under = name;
    this.changed();
    let reply: Reply = { type: 'reply', id, ok: true };
    try {
      await act();
    } catch (error) {
      reply = { type: 'reply', id, ok: false, error: messageOf(error) };
    } finally {
      this.under = null;
      this.changed();
    }
    this.answer(reply);
  }
}
