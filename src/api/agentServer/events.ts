/**
 * The agent server's events as the client reads them: only the envelope is required, every other
 * field is kept as sent (`looseObject`), and any `kind` is accepted, so a newer server's events still
 * arrive (the panel shows an unknown kind as a small generic row). Nulls are omitted on the wire.
 */
import * as z from 'zod/mini';
import '../../zodLocale';
import { ExecutionStatusSchema } from '../models/conversation';
import { nullable } from '../models/common';
import { isRecord } from '../records';

export const AgentEventSchema = z.looseObject({
  /** A dashed UUID on 1.34; compared as sent. */
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Naive server-local ISO time: shown, never used to order (storage order is the causal order). */
  timestamp: z._default(z.string(), ''),
  source: z._default(z.string(), ''),
  kind: z.string(),
});
export type AgentEvent = z.infer<typeof AgentEventSchema>;

export const AgentEventPageSchema = z.looseObject({
  items: z.array(AgentEventSchema),
  next_page_id: nullable(z.string()),
});
export type AgentEventPage = z.infer<typeof AgentEventPageSchema>;

export const ConfirmationPolicySchema = z.looseObject({ kind: z.string() });
export type ConfirmationPolicy = z.infer<typeof ConfirmationPolicySchema>;

/** `GET /api/conversations/{id}` on the agent server (the fields the extension reads). */
export const ConversationInfoSchema = z.looseObject({
  id: z.string(),
  execution_status: nullable(ExecutionStatusSchema),
  title: nullable(z.string()),
  confirmation_policy: z.optional(ConfirmationPolicySchema),
  workspace: z.optional(z.looseObject({ working_dir: z.optional(z.string()) })),
  agent: z.optional(z.looseObject({ llm: z.optional(z.looseObject({ model: z.optional(z.string()) })) })),
});
export type ConversationInfo = z.infer<typeof ConversationInfoSchema>;

export const EVENT_SORT_ORDERS = ['TIMESTAMP', 'TIMESTAMP_DESC'] as const;
export type EventSortOrder = (typeof EVENT_SORT_ORDERS)[number];

/** The synthetic state snapshot the socket sends first (never stored). */
export function isFullState(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'full_state';
}

/** Streamed reply text: sent on the socket only, never stored, never replayed. */
export function isTransient(event: AgentEvent): boolean {
  return event.kind === 'StreamingDeltaEvent' || event.kind === 'ServerErrorEvent' || isFullState(event);
}

/** A change of the agent's execution status (stored; its `value` is the new status). */
export function isStatusUpdate(event: AgentEvent): boolean {
  return event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'execution_status';
}

/** The text parts of an LLM content list (`[{type:'text', text}, …]`), or a bare string. */
export function contentText(content: unknown): string {
  return contentParts(content).join('\n');
}

/** The non-empty texts of an LLM content list, or a bare string, unjoined. */
export function contentParts(content: unknown): string[] {
  if (typeof content === 'string') return content ? [content] : [];
  if (!Array.isArray(content)) return [];
  return content
    .map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter(Boolean);
}

/** The text of a message event (`llm_message.content`). */
export function messageText(event: AgentEvent): string {
  const message = event['llm_message'];
  return isRecord(message) ? contentText(message['content']) : '';
}
