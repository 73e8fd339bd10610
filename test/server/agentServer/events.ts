// Agent-server events as plain JSON, shaped like 1.34.0's transport dump: `model_dump(mode="json",
// exclude_none=True)` minus `parent_id`, with `kind` serialised last.
import type { ImageContent, TextContent } from '../models';

export type EventSource = 'agent' | 'user' | 'environment' | 'hook';

/** One stored (or WebSocket-only) event. Unknown kinds are allowed: clients must tolerate them. */
export interface AgentEvent {
  id: string;
  timestamp: string;
  source: string;
  kind: string;
  [field: string]: unknown;
}

export type MessageContent = TextContent | ImageContent;

export function textContent(text: string): TextContent {
  return { cache_prompt: false, type: 'text', text };
}

/** exclude_none: `null`/`undefined` fields are absent, not null (top level only, like pydantic). */
function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields))
    if (value !== null && value !== undefined) out[name] = value;
  return out;
}

export interface Envelope {
  id: string;
  timestamp: string;
  source: string;
}

/** Envelope first, then the fields in model order, then `kind`. */
export function wireEvent(
  envelope: Envelope,
  kind: string,
  fields: Record<string, unknown> = {},
): AgentEvent {
  const rest = withoutNulls(fields);
  delete rest['kind'];
  delete rest['parent_id'];
  return { id: envelope.id, timestamp: envelope.timestamp, source: envelope.source, ...rest, kind };
}

/** Nested models (actions, observations, policies) also carry `kind` last and omit nulls. */
export function wireModel(kind: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...withoutNulls(fields), kind };
}

/** The text of a MessageEvent (all its text parts), or null for other kinds. */
export function messageText(event: AgentEvent): string | null {
  if (event.kind !== 'MessageEvent') return null;
  const message = event['llm_message'];
  if (typeof message !== 'object' || message === null) return null;
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n');
}

/** A nested object field of an event, or undefined. */
export function objectField(event: AgentEvent, name: string): Record<string, unknown> | undefined {
  const value = event[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function stringField(
  value: Record<string, unknown> | AgentEvent | undefined,
  name: string,
): string | undefined {
  const field = value?.[name];
  return typeof field === 'string' ? field : undefined;
}
