/**
 * What a followed conversation says beside its events (the agent's status, the confirmation policy,
 * the model, the reply streaming now) and how each event moves it. Pure: the feed keeps the state and
 * tells its listeners whenever a step returns a new object (the same object: nothing to tell).
 */
import { isRecord } from '../records';
import { agentLlmOf, isAgentUpdate } from './agentLlm';
import { isFullState, isStatusUpdate, type AgentEvent } from './events';
import type { ApiErrorKind } from '../errors';
import { sameStats, statsFromUpdate, type UsageStats } from '../usage/usageStats';
import { modelFailureOf, type ModelFailure } from './modelFailure';

export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'failed';

export interface FeedState {
  status: FeedStatus;
  /** Why it is not live (secret-free), when it is not. */
  detail: string | undefined;
  /** What kind of failure `detail` tells, while reconnecting or failed (the detail has the technical words). */
  failure?: ApiErrorKind;
  /** How long the sandbox had said nothing, not even a pong, when its socket was given up; while not live. */
  silentMs?: number;
  /** When the next attempt starts (epoch ms), while reconnecting. */
  retryAt: number | undefined;
  executionStatus: string | undefined;
  /** The confirmation policy's kind (`NeverConfirm`, `AlwaysConfirm`, `ConfirmRisky`), when known. */
  confirmationPolicy: string | undefined;
  model: string | undefined;
  /** What the LLM calls cost and used, from the newest `stats` update (no request asks for it). */
  usage: UsageStats | undefined;
  /** The reply the model is streaming now (socket only, never stored). */
  streaming: { id: string; text: string; reasoning: string } | undefined;
  /** Every older page has been read. */
  historyComplete: boolean;
  /** Why the transcript is not the whole conversation (paging stopped, a cap reached); secret-free. */
  notice: string | undefined;
  /** The model failure the newest run ended on (bad key, unknown model, quota…); gone when a run starts. */
  modelFailure: ModelFailure | undefined;
  /**
   * The user spoke and nothing from the agent came since: no action, message, token, stats update or
   * error. With the agent "running", the panel times this (a model that never answers).
   */
  awaitingAgent: boolean;
}

/** A streaming bubble is bounded like any stored string. */
const MAX_STREAMING_CHARS = 256 * 1024;

/** Before anything is read: what an earlier feed held says the last known status and policy. */
export function initialFeedState(held: readonly AgentEvent[]): FeedState {
  const state: FeedState = {
    status: 'connecting',
    detail: undefined,
    retryAt: undefined,
    executionStatus: undefined,
    confirmationPolicy: undefined,
    model: undefined,
    usage: undefined,
    streaming: undefined,
    historyComplete: false,
    notice: undefined,
    modelFailure: undefined,
    awaitingAgent: false,
  };
  return guessFromStored(state, held);
}

/**
 * Stored events appended (oldest first): before the first snapshot, the newest stored status and
 * policy are the best guess; a state that knows them already keeps them.
 */
export function guessFromStored(state: FeedState, added: readonly AgentEvent[]): FeedState {
  let next = state;
  // whether the agent answered and how the newest run ended: the events in order say it
  for (const event of added) next = followAgent(next, event);
  if (next.executionStatus === undefined) {
    const status = newest(added, isStatusUpdate)?.['value'];
    if (typeof status === 'string') next = { ...next, executionStatus: status };
  }
  if (next.confirmationPolicy === undefined) {
    const policy = policyKind(newest(added, isPolicyUpdate)?.['value']);
    if (policy) next = { ...next, confirmationPolicy: policy };
  }
  if (next.usage === undefined) {
    const usage = statsFromUpdate(newest(added, isStatsUpdate)?.['value']);
    if (usage) next = { ...next, usage };
  }
  if (next.model === undefined) {
    // a switched model is stored as the new agent: a reload shows it before the first snapshot
    const model = agentLlmOf(newest(added, isAgentUpdate)?.['value'])?.model;
    if (model) next = { ...next, model };
  }
  return next;
}

/**
 * A live event: a snapshot (`full_state`) says the status, policy, model and usage; a streaming delta
 * grows the bubble; a status, policy, stats or agent (its model) update says its value; the agent's message or action
 * ends the bubble.
 */
export function followEvent(given: FeedState, event: AgentEvent): FeedState {
  const state = followAgent(given, event);
  if (isFullState(event)) return takeSnapshot(state, event);
  if (event.kind === 'StreamingDeltaEvent') return stream(state, event);
  if (isStatusUpdate(event) && typeof event['value'] === 'string') {
    const status = event['value'];
    return { ...state, executionStatus: status, ...(status !== 'running' ? { streaming: undefined } : {}) };
  }
  if (isPolicyUpdate(event)) {
    const policy = policyKind(event['value']);
    return policy ? { ...state, confirmationPolicy: policy } : state;
  }
  if (isStatsUpdate(event)) return withUsage(state, statsFromUpdate(event['value']));
  if (isAgentUpdate(event)) {
    const model = agentLlmOf(event['value'])?.model;
    return model && model !== state.model ? { ...state, model } : state;
  }
  if ((event.kind === 'MessageEvent' && event.source === 'agent') || event.kind === 'ActionEvent')
    return state.streaming ? { ...state, streaming: undefined } : state;
  return state;
}

/** Statuses after which the agent owes no answer. */
const AT_REST = new Set(['finished', 'error', 'stuck', 'paused', 'waiting_for_confirmation']);

/**
 * Whether the agent owes the user an answer, and the model failure the newest run ended on. The same
 * object when the event changes neither (applied twice, it changes nothing more).
 */
function followAgent(state: FeedState, event: AgentEvent): FeedState {
  if (event.kind === 'ConversationErrorEvent') {
    const failure = modelFailureOf(event, state.model);
    return { ...state, modelFailure: failure, awaitingAgent: false };
  }
  if (event.kind === 'MessageEvent' && event.source === 'user')
    return state.awaitingAgent ? state : { ...state, awaitingAgent: true };
  if (isStatusUpdate(event)) {
    const status = event['value'];
    // a new run: what the last one ended on is past
    if (status === 'running' && state.modelFailure) return { ...state, modelFailure: undefined };
    if (typeof status === 'string' && AT_REST.has(status) && state.awaitingAgent)
      return { ...state, awaitingAgent: false };
    return state;
  }
  if (state.awaitingAgent && isFromAgent(event)) return { ...state, awaitingAgent: false };
  return state;
}

/** The agent (its model) did something: an action, a message, a token, an LLM call's stats, an error. */
function isFromAgent(event: AgentEvent): boolean {
  return (
    event.source === 'agent' ||
    event.kind === 'StreamingDeltaEvent' ||
    event.kind === 'ObservationEvent' ||
    isStatsUpdate(event)
  );
}

/** Says once why the transcript is not whole (notices add up: a log can be cut and its history too). */
export function withNotice(state: FeedState, text: string): FeedState {
  const notice = state.notice;
  if (notice?.includes(text)) return state;
  return { ...state, notice: notice ? `${notice} ${text}` : text };
}

function takeSnapshot(state: FeedState, event: AgentEvent): FeedState {
  const value = event['value'];
  if (!isRecord(value)) return state;
  const status = value['execution_status'];
  const model = agentLlmOf(value['agent'])?.model;
  const policy = policyKind(value['confirmation_policy']);
  return withUsage(
    {
      ...state,
      ...(typeof status === 'string' ? { executionStatus: status } : {}),
      ...(policy ? { confirmationPolicy: policy } : {}),
      ...(typeof model === 'string' ? { model } : {}),
    },
    statsFromUpdate(value['stats']),
  );
}

/** Newer figures replace the held ones; none (an empty or unreadable update) keeps them. */
function withUsage(state: FeedState, usage: UsageStats | undefined): FeedState {
  return usage && !sameStats(state.usage, usage) ? { ...state, usage } : state;
}

function stream(state: FeedState, event: AgentEvent): FeedState {
  const content = typeof event['content'] === 'string' ? event['content'] : '';
  const reasoning = typeof event['reasoning_content'] === 'string' ? event['reasoning_content'] : '';
  if (!content && !reasoning) return state;
  const now = state.streaming ?? { id: event.id, text: '', reasoning: '' };
  return {
    ...state,
    streaming: {
      id: now.id,
      text: (now.text + content).slice(-MAX_STREAMING_CHARS),
      reasoning: (now.reasoning + reasoning).slice(-MAX_STREAMING_CHARS),
    },
  };
}

function newest(events: readonly AgentEvent[], test: (event: AgentEvent) => boolean): AgentEvent | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event && test(event)) return event;
  }
  return undefined;
}

function isPolicyUpdate(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'confirmation_policy';
}

function isStatsUpdate(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'stats';
}

function policyKind(value: unknown): string | undefined {
  const kind = isRecord(value) ? value['kind'] : undefined;
  return typeof kind === 'string' && kind.length <= 100 ? kind : undefined;
}
