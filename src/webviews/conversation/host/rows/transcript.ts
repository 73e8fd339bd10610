/**
 * The agent's events as rows for the panel, in storage order: an action and its observation make
 * one row (paired by `action_id`, or by `tool_call_id` for an agent error), a finish is the agent's
 * final message, state updates go to the header rather than the list (but a switch of the model, which
 * is marked where it happened). Events arrive at the end
 * (live, backfill) or at the start (older history read backwards), so an observation can come
 * before its action: it shows on its own until the action arrives, then joins it.
 * Each row is built by `eventRows.ts` (texts clipped before they travel to the page); `expand` builds one whole.
 * No vscode import: unit-tested in Node.
 */
import { switchedLlm } from '../../../../api/agentServer/agentLlm';
import { isStatusUpdate, type AgentEvent } from '../../../../api/agentServer/events';
import type { ActionRow, Row } from '../../shared/rows';
import { eventRow, isObservation, stringField, withResult } from './eventRows';
import { DISPLAY_LIMITS, EXPANDED_LIMITS, type ClipLimits } from './textPieces';

/** What one batch of events changed. */
export interface TranscriptChange {
  /** New rows before every row, in order. */
  start: Row[];
  /** New or changed rows: a changed row stays where it is, a new one goes at the end. */
  end: Row[];
  /** Rows that are gone (an observation that joined its action). */
  removed: string[];
}

/** Kinds that say nothing a reader needs: status goes to the header, tokens and logs are internals. */
const HIDDEN_KINDS = new Set([
  'ConversationStateUpdateEvent',
  'TokenEvent',
  'LLMCompletionLogEvent',
  'StreamingDeltaEvent',
  'ServerErrorEvent',
]);

export class Transcript {
  private order: string[] = [];
  private readonly rows = new Map<string, Row>();
  /** The events behind each row, for `expand`. */
  private readonly sources = new Map<string, AgentEvent[]>();
  /** Action rows by their tool call, for agent errors that name only the call. */
  private readonly byToolCall = new Map<string, string>();
  /** Observations shown on their own, by the action id they wait for. */
  private readonly orphans = new Map<string, AgentEvent>();
  /** Agent errors shown on their own, by the tool call of the action they wait for. */
  private readonly orphanErrors = new Map<string, AgentEvent>();
  /** Every event taken, so one delivered twice changes nothing. */
  private readonly seen = new Set<string>();
  /** Action rows shown as awaiting the user's approval (the agent waits for confirmation). */
  private readonly awaiting = new Set<string>();

  constructor(private readonly limits: ClipLimits = DISPLAY_LIMITS) {}

  get all(): readonly Row[] {
    return this.order.map((id) => this.rows.get(id)).filter((row): row is Row => row !== undefined);
  }

  get size(): number {
    return this.order.length;
  }

  /** The newest `count` rows, oldest first (without building the whole list). */
  recent(count: number): Row[] {
    return this.order
      .slice(-count)
      .map((id) => this.rows.get(id))
      .filter((row): row is Row => row !== undefined);
  }

  append(events: readonly AgentEvent[]): TranscriptChange {
    const change: TranscriptChange = { start: [], end: [], removed: [] };
    for (const event of events) this.add(event, 'end', change);
    return dedupeChange(change);
  }

  /** Older events, oldest first, going before every row held. */
  prepend(events: readonly AgentEvent[]): TranscriptChange {
    const change: TranscriptChange = { start: [], end: [], removed: [] };
    const startIds: string[] = [];
    for (const event of events) this.add(event, 'start', change, startIds);
    this.order = [...startIds, ...this.order];
    change.start = startIds.map((id) => this.rows.get(id)).filter((row): row is Row => row !== undefined);
    return dedupeChange(change);
  }

  /** The events a row was built from (an action and its observation), oldest first. */
  sourcesOf(id: string): readonly AgentEvent[] {
    return this.sources.get(id) ?? [];
  }

  /** A row built again from its events with every text whole (up to `EXPANDED_LIMITS`). */
  expand(id: string, events: readonly AgentEvent[] = this.sourcesOf(id)): Row | undefined {
    if (events.length === 0) return undefined;
    const whole = new Transcript(EXPANDED_LIMITS);
    whole.append(events);
    return whole.rows.get(id);
  }

  private add(event: AgentEvent, at: 'start' | 'end', change: TranscriptChange, startIds?: string[]): void {
    if (at === 'end' && !this.seen.has(event.id) && isStatusUpdate(event)) this.statusChanged(event, change);
    if ((HIDDEN_KINDS.has(event.kind) && !switchedLlm(event)) || this.seen.has(event.id)) return;
    this.seen.add(event.id);
    const pairedWith = this.actionOf(event);
    if (pairedWith) {
      const action = this.rows.get(pairedWith);
      if (action?.kind === 'action' || action?.kind === 'message') {
        this.sources.get(pairedWith)?.push(event);
        const updated = withResult(action, event, this.limits);
        this.rows.set(pairedWith, updated);
        change.end.push(updated);
        return;
      }
    }
    const row = eventRow(event, this.limits);
    if (!row) return;
    this.rows.set(row.id, row);
    this.sources.set(row.id, [event]);
    if (row.kind === 'action') {
      const call = stringField(event, 'tool_call_id');
      if (call) this.byToolCall.set(call, row.id);
    }
    if (at === 'end') {
      this.order.push(row.id);
      change.end.push(row);
    } else startIds?.push(row.id);
    // an observation (or an agent error) that was waiting for this action joins it now
    const call = event.kind === 'ActionEvent' ? stringField(event, 'tool_call_id') : undefined;
    const orphan = this.orphans.get(event.id) ?? (call ? this.orphanErrors.get(call) : undefined);
    if (orphan && (row.kind === 'action' || row.kind === 'message')) {
      this.orphans.delete(event.id);
      if (call && this.orphanErrors.get(call) === orphan) this.orphanErrors.delete(call);
      this.rows.delete(orphan.id);
      this.sources.delete(orphan.id);
      this.order = this.order.filter((id) => id !== orphan.id);
      change.removed.push(orphan.id);
      this.sources.get(row.id)?.push(orphan);
      const joined = withResult(row, orphan, this.limits);
      this.rows.set(row.id, joined);
      if (at === 'end') change.end.push(joined);
    } else if (isObservation(event)) {
      const actionId = stringField(event, 'action_id');
      if (actionId) this.orphans.set(actionId, event);
    } else if (event.kind === 'AgentErrorEvent') {
      const errorCall = stringField(event, 'tool_call_id');
      if (errorCall) this.orphanErrors.set(errorCall, event);
    }
  }

  /** The action row an observation or error belongs to, when it is held. */
  private actionOf(event: AgentEvent): string | undefined {
    if (isObservation(event)) {
      const actionId = stringField(event, 'action_id');
      return actionId && this.rows.has(actionId) ? actionId : undefined;
    }
    if (event.kind === 'AgentErrorEvent') {
      const call = stringField(event, 'tool_call_id');
      return call ? this.byToolCall.get(call) : undefined;
    }
    return undefined;
  }

  /**
   * The agent's status changed: when it waits for confirmation, the actions with no result yet are the
   * ones it waits on (shown as awaiting approval); any other status takes that back.
   */
  private statusChanged(event: AgentEvent, change: TranscriptChange): void {
    const waiting = event['value'] === 'waiting_for_confirmation';
    if (waiting) {
      for (let index = this.order.length - 1; index >= 0 && this.order.length - index <= 200; index--) {
        const row = this.rows.get(this.order[index] ?? '');
        if (row?.kind !== 'action' || row.state !== 'pending') continue;
        const awaiting: ActionRow = { ...row, state: 'awaiting' };
        this.rows.set(row.id, awaiting);
        this.awaiting.add(row.id);
        change.end.push(awaiting);
      }
      return;
    }
    for (const id of this.awaiting) {
      const row = this.rows.get(id);
      if (row?.kind === 'action' && row.state === 'awaiting') {
        const pending: ActionRow = { ...row, state: 'pending' };
        this.rows.set(id, pending);
        change.end.push(pending);
      }
    }
    this.awaiting.clear();
  }
}

/** One entry per row id: the last version wins; rows that joined another are not re-sent. */
function dedupeChange(change: TranscriptChange): TranscriptChange {
  const removed = new Set(change.removed);
  // rows new at the start already carry their latest version
  const atStart = new Set(change.start.map((row) => row.id));
  const latest = new Map<string, Row>();
  for (const row of change.end) if (!removed.has(row.id) && !atStart.has(row.id)) latest.set(row.id, row);
  return {
    start: change.start.filter((row) => !removed.has(row.id)),
    end: [...latest.values()],
    removed: change.removed,
  };
}
