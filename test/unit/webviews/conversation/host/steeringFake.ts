// What the panel tells the agent, recorded: each call waits until the test settles it.
import type { SendStep, Steering } from '../../../../../src/state/conversationSteering';

export interface SteeringCall {
  name: keyof Steering;
  args: unknown[];
  onStep?: (step: SendStep) => void;
  resolve(): void;
  reject(error: Error): void;
}

/** A steering whose calls the test settles one by one. */
export function recordingSteering(): { steer: Steering; calls: SteeringCall[] } {
  const calls: SteeringCall[] = [];
  const record =
    (name: keyof Steering) =>
    (...args: unknown[]): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const onStep = name === 'send' ? (args[2] as (step: SendStep) => void) : undefined;
        calls.push({ name, args, onStep, resolve, reject });
      });
  const steer: Steering = {
    send: record('send'),
    approve: record('approve'),
    reject: record('reject'),
    continue: record('continue'),
    pause: record('pause'),
    stop: record('stop'),
    setConfirmation: record('setConfirmation'),
  };
  return { steer, calls };
}

/** A steering for tests that never use it: every call fails. */
export function idleSteering(): Steering {
  const refuse = async () => {
    throw new Error('not used in this test');
  };
  return {
    send: refuse,
    approve: refuse,
    reject: refuse,
    continue: refuse,
    pause: refuse,
    stop: refuse,
    setConfirmation: refuse,
  };
}
