/** The few fields of an agent's event that pair its rows: read defensively, since events come from the agent. */
import type { AgentEvent } from '../../../../api/agentServer/events';

export function stringField(event: AgentEvent, key: string): string | undefined {
  const value = event[key];
  return typeof value === 'string' ? value : undefined;
}

/** An action's result: an observation, or the user's rejection of it. */
export function isObservation(event: AgentEvent): boolean {
  return event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation';
}
