/**
 * An event too large to read whole, held in its place: its id, time and source as stored, what it
 * was (its kind, and the kind of the action or observation it carried) and how large it was, so the
 * panel can say what is not shown and why, and the history reads on past it.
 */
import { isRecord } from '../records';
import type { AgentEvent } from './events';

/** Not a class name the SDK could ever send (a slash), so never taken for a real event. */
export const OVERSIZED_EVENT_KIND = 'openhands-vscode/OversizedEvent';

export interface OversizedDetails {
  /** The stored event's kind (`MessageEvent`, `ObservationEvent`…). */
  eventKind: string;
  /** The kind of its action or observation (`BrowserObservation`…), when it has one. */
  innerKind: string | undefined;
  /** How large its reply was, in bytes, when known. */
  bytes: number | undefined;
  /** The reply cap it did not fit, in bytes. */
  limitBytes: number;
}

const MAX_KIND_CHARS = 100;

/** The stand-in for `skimmed` (the event with its strings cut to their heads). */
export function oversizedEvent(
  skimmed: AgentEvent,
  bytes: number | undefined,
  limitBytes: number,
): AgentEvent {
  const inner = isRecord(skimmed['observation'])
    ? skimmed['observation']['kind']
    : isRecord(skimmed['action'])
      ? skimmed['action']['kind']
      : undefined;
  return {
    id: skimmed.id,
    timestamp: skimmed.timestamp,
    source: skimmed.source,
    kind: OVERSIZED_EVENT_KIND,
    event_kind: skimmed.kind.slice(0, MAX_KIND_CHARS),
    ...(typeof inner === 'string' ? { inner_kind: inner.slice(0, MAX_KIND_CHARS) } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
    limit_bytes: limitBytes,
  };
}

/** What an oversized stand-in says, or undefined for any other event. */
export function oversizedDetails(event: AgentEvent): OversizedDetails | undefined {
  if (event.kind !== OVERSIZED_EVENT_KIND) return undefined;
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  return {
    eventKind: typeof event['event_kind'] === 'string' ? event['event_kind'] : 'event',
    innerKind: typeof event['inner_kind'] === 'string' ? event['inner_kind'] : undefined,
    bytes: count(event['bytes']),
    limitBytes: count(event['limit_bytes']) ?? 0,
  };
}
