// A long conversation for performance tests: N stored events generated cheaply (no random draws
// beyond ids), 10 ms apart and ending now, cycling through the common kinds.
import { EventFactory, type EventClock } from './eventFactory';
import { textContent, type AgentEvent } from './events';
import { terminalCall, terminalObservation, thinkCall, thinkObservation } from './toolCalls';

const SPACING_MICROS = 10_000;

function block(factory: EventFactory, step: number, workingDir: string): AgentEvent[] {
  if (step % 2 === 0) {
    const command = `echo step ${step}`;
    const action = factory.action(terminalCall(command, 'LOW'));
    return [action, factory.observation(action, terminalObservation(command, `step ${step}`, 0, workingDir))];
  }
  const action = factory.action(thinkCall(`Step ${step} done; on to the next one.`));
  return [
    action,
    factory.observation(action, thinkObservation()),
    factory.agentMessage(`Progress: **${step}** steps done.`),
  ];
}

export function bulkEvents(
  count: number,
  nextUuid: () => string,
  endMicros: number,
  workingDir: string,
): AgentEvent[] {
  let cursor = endMicros - count * SPACING_MICROS;
  const clock: EventClock = { nextUuid, nowMicros: () => (cursor += SPACING_MICROS) };
  const factory = new EventFactory(clock);
  const events: AgentEvent[] = [];
  if (count > 0) events.push(factory.systemPrompt());
  if (count > 1) events.push(factory.userMessage([textContent('Run the whole build, step by step.')]));
  for (let step = 0; events.length < count; step++) {
    for (const event of block(factory, step, workingDir)) if (events.length < count) events.push(event);
  }
  return events;
}
