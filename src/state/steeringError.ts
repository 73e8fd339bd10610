/** A conversation that cannot be steered now, and why; `canResume` when resuming its sandbox would help. */
export class SteeringError extends Error {
  constructor(
    message: string,
    readonly canResume = false,
  ) {
    super(message);
    this.name = 'SteeringError';
  }
}
