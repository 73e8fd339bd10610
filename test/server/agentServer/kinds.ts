// `events/search?kind=` compares `f"{cls.__module__}.{cls.__name__}"` (event_service.py), so a bare
// class name matches nothing. Kinds unknown to 1.34.0 get a module no client can guess.

const MODULES: Record<string, string> = {
  MessageEvent: 'openhands.sdk.event.llm_convertible.message',
  ActionEvent: 'openhands.sdk.event.llm_convertible.action',
  ObservationEvent: 'openhands.sdk.event.llm_convertible.observation',
  UserRejectObservation: 'openhands.sdk.event.llm_convertible.observation',
  AgentErrorEvent: 'openhands.sdk.event.llm_convertible.observation',
  SystemPromptEvent: 'openhands.sdk.event.llm_convertible.system',
  ConversationStateUpdateEvent: 'openhands.sdk.event.conversation_state',
  ConversationErrorEvent: 'openhands.sdk.event.conversation_error',
  PauseEvent: 'openhands.sdk.event.user_action',
  InterruptEvent: 'openhands.sdk.event.user_action',
  Condensation: 'openhands.sdk.event.condenser',
  CondensationRequest: 'openhands.sdk.event.condenser',
  CondensationSummaryEvent: 'openhands.sdk.event.condenser',
  HookExecutionEvent: 'openhands.sdk.event.hook_execution',
  TokenEvent: 'openhands.sdk.event.token',
  StreamingDeltaEvent: 'openhands.sdk.event.streaming_delta',
  ServerErrorEvent: 'openhands.agent_server.models',
};

export function qualifiedKind(kind: string): string {
  return `${MODULES[kind] ?? 'openhands.sdk.event.unknown'}.${kind}`;
}
