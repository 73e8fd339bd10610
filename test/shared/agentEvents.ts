// Agent-server events as the tests write them: one builder per kind, shaped as agent server 1.34 stores
// them (MessageEvent, ActionEvent, ObservationEvent, ConversationStateUpdateEvent). A builder gives the
// body (what the test server's `append` takes, filling in id and time); `withEnvelope` or `numberedEvents`
// completes it into the `AgentEvent` the client reads. Plain objects only: unit, integration and e2e use it.
import type { AgentEvent } from '../../src/api';

/** An event without its id and time. */
export type EventBody = Pick<AgentEvent, 'kind' | 'source'> & Record<string, unknown>;

/** A tool's call as an action and its observation both name it. */
export interface ToolCall {
  tool: string;
  callId: string;
}

/** What an action or observation carries, named by its own `kind` (`TerminalAction`, `BrowserObservation`…). */
export type ToolPayload = { kind: string } & Record<string, unknown>;

export const EVENT_TIME = '2026-11-23T19:49:50.000001';

export function withEnvelope(body: EventBody, id: string, timestamp = EVENT_TIME): AgentEvent {
  return { ...body, id, timestamp };
}

/**
 * Completes bodies with ids `<prefix><n>` and times a second apart (within one minute), in the order
 * they are asked for, as a conversation's events follow each other.
 */
export function numberedEvents(prefix = 'e', start = 1): (body: EventBody) => AgentEvent {
  let next = start;
  return (body) => {
    const n = next++;
    return withEnvelope(body, `${prefix}${n}`, `2026-11-23T19:49:${String(n % 60).padStart(2, '0')}.000001`);
  };
}

export function userMessage(text: string): EventBody {
  return {
    kind: 'MessageEvent',
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  };
}

export function agentMessage(text: string): EventBody {
  return {
    kind: 'MessageEvent',
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
  };
}

/** A change of the conversation's state (`execution_status`, `confirmation_policy`, `full_state`…). */
export function stateUpdate(key: string, value: unknown): EventBody {
  return { kind: 'ConversationStateUpdateEvent', source: 'environment', key, value };
}

export function executionStatus(status: string): EventBody {
  return stateUpdate('execution_status', status);
}

/** An agent's tool call; `fields` adds the rest (`thought`, `summary`, `security_risk`…). */
export function actionEvent(
  call: ToolCall,
  action: ToolPayload,
  fields: Record<string, unknown> = {},
): EventBody {
  return {
    kind: 'ActionEvent',
    source: 'agent',
    tool_name: call.tool,
    tool_call_id: call.callId,
    action,
    ...fields,
  };
}

/** What the tool gave back for the action `actionId`. */
export function observationEvent(call: ToolCall, actionId: string, observation: ToolPayload): EventBody {
  return {
    kind: 'ObservationEvent',
    source: 'environment',
    tool_name: call.tool,
    tool_call_id: call.callId,
    action_id: actionId,
    observation,
  };
}

/** A terminal command as the agent's `TerminalAction`. */
export function terminalAction(
  command: string,
  callId: string,
  fields: Record<string, unknown> = {},
): EventBody {
  return actionEvent(
    { tool: 'terminal', callId },
    { command, is_input: false, reset: false, kind: 'TerminalAction' },
    fields,
  );
}

/** The terminal's output for the action `actionId`. */
export function terminalObservation(
  command: string,
  output: string,
  exitCode: number,
  call: { callId: string; actionId: string },
): EventBody {
  return observationEvent({ tool: 'terminal', callId: call.callId }, call.actionId, {
    content: [{ type: 'text', text: output }],
    is_error: false,
    command,
    exit_code: exitCode,
    kind: 'TerminalObservation',
  });
}

/** One LLM's figures for `statsUpdate`; what is left out is 0 (or no budget), as the SDK defaults it. */
export interface UsageFigures {
  cost: number;
  budget?: number | null;
  prompt?: number;
  completion?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  contextWindow?: number;
  /** The newest call's prompt and completion tokens (`per_turn_token`). */
  perTurn?: number;
  model?: string;
}

/** `ConversationStats` in its snapshot form, as a `stats` update carries it (sdk/conversation/conversation_stats.py). */
export function statsValue(byUsage: Record<string, UsageFigures>): Record<string, unknown> {
  const usageToMetrics: Record<string, unknown> = {};
  for (const [usageId, figures] of Object.entries(byUsage)) {
    const model = figures.model ?? 'openai/scripted-llm';
    usageToMetrics[usageId] = {
      model_name: model,
      accumulated_cost: figures.cost,
      max_budget_per_task: figures.budget ?? null,
      accumulated_token_usage: {
        model,
        prompt_tokens: figures.prompt ?? 0,
        completion_tokens: figures.completion ?? 0,
        cache_read_tokens: figures.cacheRead ?? 0,
        cache_write_tokens: figures.cacheWrite ?? 0,
        reasoning_tokens: figures.reasoning ?? 0,
        context_window: figures.contextWindow ?? 0,
        per_turn_token: figures.perTurn ?? 0,
        response_id: '',
      },
    };
  }
  return { usage_to_metrics: usageToMetrics };
}

/** The `stats` update the agent server sends after each LLM call. */
export function statsUpdate(byUsage: Record<string, UsageFigures>): EventBody {
  return stateUpdate('stats', statsValue(byUsage));
}

/**
 * The run ended on an exception (sdk/conversation/impl/local_conversation.py, `run`): `code` is its class
 * (`LLMAuthenticationError`, `NotFoundError`, `MaxIterationsReached`…), `detail` its text. The agent
 * server writes `execution_status: error` with it.
 */
export function conversationError(code: string, detail: string): EventBody {
  return { kind: 'ConversationErrorEvent', source: 'environment', code, detail };
}

/**
 * What a failed LLM call leaves, as SDK 1.34 words it: LiteLLM's exception mapped by
 * sdk/llm/exceptions/mapping.py (`str()` of LiteLLM's text), after the retries for a rate limit.
 */
export const MODEL_FAILURES = {
  /** A key the provider refused (401). The provider echoes the key's ends. */
  keyRefused: conversationError(
    'LLMAuthenticationError',
    'litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided: sk-proj-Ab12********************************************Yz89. You can find your API key at https://platform.openai.com/account/api-keys.',
  ),
  /** No key at all: the OpenAI client refuses before any request leaves. */
  noKey: conversationError(
    'LLMAuthenticationError',
    'litellm.AuthenticationError: AuthenticationError: OpenAIException - The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable',
  ),
  /** A model name the provider does not know (LiteLLM's NotFoundError is left as it is). */
  unknownModel: conversationError(
    'NotFoundError',
    'litellm.NotFoundError: NotFoundError: OpenAIException - The model `gpt-x` does not exist or you do not have access to it.',
  ),
  /** A model name LiteLLM cannot route. */
  noProvider: conversationError(
    'LLMBadRequestError',
    'litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=gpt-x',
  ),
  /** The quota used up (429), after the retries. */
  quota: conversationError(
    'LLMRateLimitError',
    'litellm.RateLimitError: RateLimitError: OpenAIException - You exceeded your current quota, please check your plan and billing details.',
  ),
} as const;
