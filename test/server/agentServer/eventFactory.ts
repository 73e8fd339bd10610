// Builds every event kind the double emits, stamped by an EventClock: the seeded transcripts use a
// deterministic one, live runs the server's ids and the wall clock.
import {
  textContent,
  wireEvent,
  type AgentEvent,
  type Envelope,
  type EventSource,
  type MessageContent,
} from './events';
import { naiveLocalTime } from './naiveTime';
import { pyJson } from './pyJson';
import { SYSTEM_PROMPT, systemPromptTools } from './toolCatalog';
import type { ToolCall } from './toolCalls';

export interface EventClock {
  /** A fresh dashed UUID. */
  nextUuid(): string;
  /** Epoch microseconds, never going backwards. */
  nowMicros(): number;
}

export class EventFactory {
  constructor(readonly clock: EventClock) {}

  envelope(source: EventSource, atMicros?: number): Envelope {
    return {
      id: this.clock.nextUuid(),
      timestamp: naiveLocalTime(atMicros ?? this.clock.nowMicros()),
      source,
    };
  }

  /** An opaque token (tool call ids, LLM response ids) drawn from the same id stream. */
  token(prefix: string, length = 12): string {
    return `${prefix}${this.clock.nextUuid().replace(/-/g, '').slice(0, length)}`;
  }

  systemPrompt(at?: number): AgentEvent {
    return wireEvent(this.envelope('agent', at), 'SystemPromptEvent', {
      system_prompt: textContent(SYSTEM_PROMPT),
      tools: systemPromptTools(),
      dynamic_context: textContent(
        '<RUNTIME_INFORMATION>\nThe current working directory is the repository root. Today is a weekday.\n</RUNTIME_INFORMATION>',
      ),
    });
  }

  userMessage(content: MessageContent[], at?: number): AgentEvent {
    return wireEvent(this.envelope('user', at), 'MessageEvent', {
      llm_message: { role: 'user', content, thinking_blocks: [] },
      activated_skills: [],
      extended_content: [],
    });
  }

  agentMessage(text: string, at?: number): AgentEvent {
    return wireEvent(this.envelope('agent', at), 'MessageEvent', {
      llm_message: { role: 'assistant', content: [textContent(text)], thinking_blocks: [] },
      llm_response_id: this.token('chatcmpl-', 24),
      activated_skills: [],
      extended_content: [],
    });
  }

  stateUpdate(key: string, value: unknown, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'ConversationStateUpdateEvent', { key, value });
  }

  action(call: ToolCall, at?: number, llmResponseId = this.token('chatcmpl-', 24)): AgentEvent {
    const toolCallId = this.token('toolu_', 24);
    const { security_risk: _risk, ...summaryArguments } = call.arguments;
    return wireEvent(this.envelope('agent', at), 'ActionEvent', {
      thought: [],
      thinking_blocks: [],
      action: call.action,
      tool_name: call.toolName,
      tool_call_id: toolCallId,
      tool_call: {
        id: toolCallId,
        name: call.toolName,
        arguments: pyJson(call.arguments),
        origin: 'completion',
      },
      llm_response_id: llmResponseId,
      security_risk: call.securityRisk,
      summary: `${call.toolName}: ${pyJson(summaryArguments)}`,
    });
  }

  observation(action: AgentEvent, observation: Record<string, unknown>, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'ObservationEvent', {
      tool_name: action['tool_name'],
      tool_call_id: action['tool_call_id'],
      observation,
      action_id: action.id,
      extended_content: [],
    });
  }

  userReject(action: AgentEvent, reason: string, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'UserRejectObservation', {
      tool_name: action['tool_name'],
      tool_call_id: action['tool_call_id'],
      rejection_reason: reason,
      rejection_source: 'user',
      action_id: action.id,
    });
  }

  agentError(action: AgentEvent, error: string, at?: number): AgentEvent {
    return wireEvent(this.envelope('agent', at), 'AgentErrorEvent', {
      tool_name: action['tool_name'],
      tool_call_id: action['tool_call_id'],
      error,
    });
  }

  conversationError(code: string, detail: string, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'ConversationErrorEvent', { code, detail });
  }

  pause(at?: number): AgentEvent {
    return wireEvent(this.envelope('user', at), 'PauseEvent');
  }

  interrupt(at?: number): AgentEvent {
    return wireEvent(this.envelope('user', at), 'InterruptEvent');
  }

  condensation(forgottenEventIds: string[], summary: string, summaryOffset: number, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'Condensation', {
      forgotten_event_ids: forgottenEventIds,
      summary,
      summary_offset: summaryOffset,
      llm_response_id: this.token('chatcmpl-', 24),
    });
  }

  /** WebSocket only: never stored. */
  streamingDelta(content: string | null, reasoningContent: string | null = null, at?: number): AgentEvent {
    return wireEvent(this.envelope('agent', at), 'StreamingDeltaEvent', {
      content,
      reasoning_content: reasoningContent,
    });
  }

  /** WebSocket only: the answer to an inbound frame the server could not use. */
  serverError(code: string, detail: string, at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'ServerErrorEvent', { code, detail });
  }

  /** A kind this client-facing protocol does not know yet (clients must skip it, not fail). */
  futureEvent(at?: number): AgentEvent {
    return wireEvent(this.envelope('environment', at), 'FutureEvent', {
      detail: 'An event kind added by a newer agent server.',
      payload: { version: 2, items: [1, 2, 3] },
    });
  }
}
