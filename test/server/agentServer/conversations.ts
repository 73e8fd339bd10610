// The double's conversations: lookups (hex or dashed ids, scoped to the sandbox whose agent server
// was called), the per-conversation log in the server state, and every write to it, which is also
// published to the conversation's sockets. `execution_status` is the app record's field, so the
// app server's view always reports what the agent double does.
import type { ConversationRecord, ExecutionStatus, SandboxRecord } from '../models';
import { normalizeUuid } from '../scalars';
import { findConversation, findSandbox, type ServerState } from '../state';
import type { Clock } from '../time';
import { fullStateValue, type ConversationParts } from './conversationInfo';
import type { EventFactory } from './eventFactory';
import { stringField, type AgentEvent } from './events';
import { emptyAgentConversation, listedMetrics, type StatsValue } from './records';
import type { SocketHub } from './socketHub';

export interface AgentConversation extends ConversationParts {
  hex: string;
  sandbox: SandboxRecord | undefined;
}

export interface AgentConversationsDeps {
  state: ServerState;
  clock: Clock;
  factory: EventFactory;
  hub: SocketHub;
  /** The absolute directory of a sandbox (workspaces.ts). */
  sandboxDir(sandboxId: string): string;
}

export class AgentConversations {
  constructor(private readonly deps: AgentConversationsDeps) {}

  get factory(): EventFactory {
    return this.deps.factory;
  }

  /**
   * The conversation for an id in any UUID spelling; with `sandboxId`, only if it lives in that
   * sandbox (each sandbox's agent server knows its own conversations only).
   */
  find(id: string, sandboxId?: string): AgentConversation | null {
    const hex = normalizeUuid(id);
    if (hex === null) return null;
    const conversation = findConversation(this.deps.state, hex);
    if (!conversation || (sandboxId !== undefined && conversation.sandbox_id !== sandboxId)) return null;
    return this.partsOf(conversation);
  }

  /**
   * Conversations started after the seed get an empty log on first use; a start task with an initial
   * message sends it through the runner (AgentServer.startConversation) as the agent server does.
   */
  private partsOf(conversation: ConversationRecord): AgentConversation {
    const records = this.deps.state.agentConversations;
    let agent = records.get(conversation.id);
    if (!agent) {
      agent = emptyAgentConversation();
      records.set(conversation.id, agent);
    }
    const sandbox = findSandbox(this.deps.state, conversation.sandbox_id);
    return {
      hex: conversation.id,
      conversation,
      agent,
      sandbox,
      sandboxDir: this.deps.sandboxDir(conversation.sandbox_id),
    };
  }

  /** Stores and publishes, keeping the status and `last_user_message_id` in step with the log. */
  append(target: AgentConversation, event: AgentEvent): AgentEvent {
    target.agent.events.push(event);
    if (event.kind === 'ConversationStateUpdateEvent') {
      const key = stringField(event, 'key');
      const value = event['value'];
      if (key === 'execution_status' && typeof value === 'string')
        this.track(target, value as ExecutionStatus);
      if (key === 'last_user_message_id' && typeof value === 'string')
        target.agent.last_user_message_id = value;
      // the app server reads each stats update from its webhook into the conversation's metrics (the
      // real one posts in fives or 30 s after the last event, and never from a process sandbox; here at once)
      if (key === 'stats') this.listStats(target, value as StatsValue);
    }
    this.deps.hub.publish(target.hex, event);
    return event;
  }

  /** WebSocket only (streaming deltas, full_state): never stored. */
  broadcast(target: AgentConversation, event: AgentEvent): void {
    this.deps.hub.publish(target.hex, event);
  }

  setStatus(target: AgentConversation, status: ExecutionStatus): void {
    this.append(target, this.deps.factory.stateUpdate('execution_status', status));
  }

  fullState(target: AgentConversation): AgentEvent {
    return this.deps.factory.stateUpdate('full_state', fullStateValue(target));
  }

  broadcastFullState(target: AgentConversation): void {
    this.broadcast(target, this.fullState(target));
  }

  private listStats(target: AgentConversation, stats: StatsValue): void {
    const metrics = listedMetrics(stats);
    if (!metrics) return;
    target.conversation.metrics = metrics;
    target.conversation.updated_at = this.deps.clock.now();
  }

  private track(target: AgentConversation, status: ExecutionStatus): void {
    target.conversation.execution_status = status;
    target.conversation.updated_at = this.deps.clock.now();
  }
}

/**
 * SDK `get_unmatched_actions`: ActionEvents with an `action` that no observation, rejection or
 * AgentErrorEvent (by tool_call_id) answers yet.
 */
export function pendingActions(events: readonly AgentEvent[]): AgentEvent[] {
  const answeredActions = new Set<string>();
  const failedCalls = new Set<string>();
  for (const event of events) {
    if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') {
      const actionId = stringField(event, 'action_id');
      if (actionId) answeredActions.add(actionId);
    } else if (event.kind === 'AgentErrorEvent') {
      const callId = stringField(event, 'tool_call_id');
      if (callId) failedCalls.add(callId);
    }
  }
  return events.filter(
    (event) =>
      event.kind === 'ActionEvent' &&
      event['action'] !== undefined &&
      !answeredActions.has(event.id) &&
      !failedCalls.has(stringField(event, 'tool_call_id') ?? ''),
  );
}
