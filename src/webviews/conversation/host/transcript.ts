/**
 * The agent's events as rows for the panel, in storage order: an action and its observation make
 * one row (paired by `action_id`, or by `tool_call_id` for an agent error), a finish is the agent's
 * final message, state updates go to the header rather than the list. Events arrive at the end
 * (live, backfill) or at the start (older history read backwards), so an observation can come
 * before its action: it shows on its own until the action arrives, then joins it.
 * Texts are clipped here, before they travel to the page; `expand` builds a row whole.
 * No vscode import: unit-tested in Node.
 */
import { browserStepSummary } from './browserSteps';
import { eventImages } from '../../../api/agentServer/eventImages';
import { imageRefs } from './imageRefs';
import { contentParts, isStatusUpdate, type AgentEvent } from '../../../api/agentServer/events';
import {
  RISKS,
  type ActionRow,
  type Clip,
  type GenericRow,
  type MessageRow,
  type NoticeRow,
  type Row,
} from '../shared/rows';
import { compactDiff } from './lineDiff';
import { clipPieces, joinPieces, type TextPieces } from './textPieces';
import {
  OVERSIZED_EVENT_KIND,
  oversizedDetails,
  type OversizedDetails,
} from '../../../api/agentServer/oversizedEvent';
import { isRecord } from '../../../api/records';

export interface ClipLimits {
  /** Message markdown and notice details. */
  text: number;
  /** Terminal output and tool results. */
  output: number;
  /** Lines of a compact diff. */
  diffLines: number;
}

export const DISPLAY_LIMITS: ClipLimits = { text: 20_000, output: 8_000, diffLines: 200 };
/** "Show all" still has a ceiling: the page must stay responsive. */
export const EXPANDED_LIMITS: ClipLimits = { text: 2_000_000, output: 2_000_000, diffLines: 20_000 };

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
    if (HIDDEN_KINDS.has(event.kind) || this.seen.has(event.id)) return;
    this.seen.add(event.id);
    const pairedWith = this.actionOf(event);
    if (pairedWith) {
      const action = this.rows.get(pairedWith);
      if (action?.kind === 'action' || action?.kind === 'message') {
        this.sources.get(pairedWith)?.push(event);
        const updated = this.withResult(action, event);
        this.rows.set(pairedWith, updated);
        change.end.push(updated);
        return;
      }
    }
    const row = this.rowFor(event);
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
      const joined = this.withResult(row, orphan);
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

  private rowFor(event: AgentEvent): Row | undefined {
    const base = { id: event.id, timestamp: event.timestamp };
    switch (event.kind) {
      case 'MessageEvent':
        return this.message(event);
      case 'ActionEvent':
        return this.action(event);
      case 'ObservationEvent':
      case 'UserRejectObservation':
        // its action is not held (yet): shown on its own
        return this.withResult(this.lonelyAction(event), event);
      case 'AgentErrorEvent':
        return this.notice(event, 'error', 'The agent hit an error', stringField(event, 'error'));
      case 'ConversationErrorEvent':
        return this.notice(
          event,
          'error',
          'The conversation stopped with an error',
          joinPieces([stringField(event, 'code') ?? '', stringField(event, 'detail') ?? ''], ': '),
        );
      case 'PauseEvent':
        return this.notice(event, 'info', 'Paused by the user');
      case 'InterruptEvent':
        return this.notice(event, 'warning', 'Interrupted by the user');
      case 'Condensation': {
        const forgotten = Array.isArray(event['forgotten_event_ids'])
          ? event['forgotten_event_ids'].length
          : 0;
        return this.notice(
          event,
          'info',
          `Earlier history condensed (${forgotten} event${forgotten === 1 ? '' : 's'} summarised for the model)`,
          stringField(event, 'summary'),
        );
      }
      case 'CondensationRequest':
        return this.notice(event, 'info', 'Condensation of the history requested');
      case 'CondensationSummaryEvent':
        return this.notice(event, 'info', 'History summary', stringField(event, 'summary'));
      case 'SystemPromptEvent': {
        const tools = Array.isArray(event['tools']) ? event['tools'].length : 0;
        const prompt = event['system_prompt'];
        const text = isRecord(prompt) && typeof prompt['text'] === 'string' ? prompt['text'] : undefined;
        return this.notice(
          event,
          'info',
          `The agent started with ${tools} tool${tools === 1 ? '' : 's'}`,
          text,
        );
      }
      case 'HookExecutionEvent': {
        const blocked = event['blocked'] === true;
        const hook = stringField(event, 'hook_event_type') ?? 'hook';
        return this.notice(
          event,
          blocked ? 'warning' : 'info',
          `${blocked ? 'A hook blocked' : 'Hook ran'}: ${hook}`,
          joinPieces(
            [
              stringField(event, 'reason') ?? '',
              stringField(event, 'stdout') ?? '',
              stringField(event, 'stderr') ?? '',
            ],
            '\n',
          ),
        );
      }
      case OVERSIZED_EVENT_KIND:
        return this.oversized(event);
      default:
        return this.generic(event, base);
    }
  }

  /** An event too large to read: what it was and why it is not shown, in place of its content. */
  private oversized(event: AgentEvent): NoticeRow {
    const details = oversizedDetails(event);
    if (!details) return this.notice(event, 'warning', 'An event too large to show');
    const limit = sizeText(details.limitBytes);
    const size =
      details.bytes !== undefined
        ? `It is about ${sizeText(details.bytes)}, more than the ${limit}`
        : `It is larger than the ${limit}`;
    return this.notice(
      event,
      'warning',
      `${oversizedWhat(details, event.source)} is too large to show here`,
      `${size} the extension reads in one reply, so its content was not loaded. ` +
        'Open in Browser, at the top of this panel, shows the conversation in OpenHands.',
    );
  }

  private message(event: AgentEvent): MessageRow {
    const llm = isRecord(event['llm_message']) ? event['llm_message'] : {};
    const text = joinPieces(contentParts(llm['content']), '\n');
    const role = event.source === 'user' ? 'user' : event.source === 'agent' ? 'agent' : 'environment';
    const images = imageRefs(event.id, eventImages(event));
    const [markdown, clip] = this.clip(withLines(text, images.refused), this.limits.text);
    const reasoning = typeof llm['reasoning_content'] === 'string' ? llm['reasoning_content'] : undefined;
    return {
      id: event.id,
      timestamp: event.timestamp,
      kind: 'message',
      role,
      markdown,
      ...(clip ? { clip } : {}),
      ...(images.refs.length ? { images: images.refs } : {}),
      ...(reasoning ? { reasoning: this.clip(reasoning, this.limits.text)[0] } : {}),
    };
  }

  private action(event: AgentEvent): Row {
    const action = isRecord(event['action']) ? event['action'] : undefined;
    const tool = stringField(event, 'tool_name') ?? 'tool';
    // a finish is the agent's last word: shown as its message
    if (action?.['kind'] === 'FinishAction' && typeof action['message'] === 'string') {
      const [markdown, clip] = this.clip(action['message'], this.limits.text);
      return {
        id: event.id,
        timestamp: event.timestamp,
        kind: 'message',
        role: 'agent',
        markdown,
        ...(clip ? { clip } : {}),
      };
    }
    const thoughts = [
      joinPieces(contentParts(event['thought']), '\n'),
      stringField(event, 'reasoning_content') ?? '',
    ];
    const summary = readableSummary(tool, action, stringField(event, 'summary')) ?? summaryOf(tool, event);
    // a thought the summary shows whole is not folded again below it
    if (
      action?.['kind'] === 'ThinkAction' &&
      typeof action['thought'] === 'string' &&
      action['thought'] !== summary
    )
      thoughts.unshift(action['thought']);
    const thought = joinPieces(thoughts, '\n\n');
    const risk = RISKS.find((value) => value === event['security_risk']) ?? 'UNKNOWN';
    const row: ActionRow = {
      id: event.id,
      timestamp: event.timestamp,
      kind: 'action',
      tool,
      summary: this.clip(summary, 500)[0],
      risk,
      // a call the agent could not make (no action) waits for its AgentErrorEvent
      state: 'pending',
      ...(thought.length > 0 ? { thought: this.clip(thought, this.limits.text)[0] } : {}),
    };
    if (action?.['kind'] === 'TerminalAction' && typeof action['command'] === 'string') {
      row.terminal = { command: this.clip(action['command'], this.limits.output)[0] };
    } else if (action?.['kind'] === 'FileEditorAction' && typeof action['path'] === 'string') {
      row.edit = {
        path: action['path'],
        command: typeof action['command'] === 'string' ? action['command'] : 'edit',
        created: action['command'] === 'create',
        lines: [],
        added: 0,
        removed: 0,
      };
    }
    return row;
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

  /** An action row standing in for one that is not held, so its observation can show. */
  private lonelyAction(event: AgentEvent): ActionRow {
    const tool = stringField(event, 'tool_name') ?? 'tool';
    return {
      id: event.id,
      timestamp: event.timestamp,
      kind: 'action',
      tool,
      summary: tool,
      risk: 'UNKNOWN',
      state: 'pending',
    };
  }

  /** The row once its observation, rejection or error is in. */
  private withResult(row: Row, event: AgentEvent): Row {
    if (row.kind !== 'action') return row;
    if (event.kind === 'UserRejectObservation') {
      const reason = stringField(event, 'rejection_reason') ?? 'Rejected';
      const byHook = event['rejection_source'] === 'hook';
      return {
        ...row,
        state: 'rejected',
        result: this.clip(byHook ? [reason, ' (by a hook)'] : reason, this.limits.text)[0],
      };
    }
    if (event.kind === 'AgentErrorEvent') {
      const [result, resultClip] = this.clip(
        stringField(event, 'error') ?? 'The tool call failed.',
        this.limits.output,
      );
      return { ...row, state: 'failed', result, ...(resultClip ? { resultClip } : {}) };
    }
    const observation = isRecord(event['observation']) ? event['observation'] : {};
    const text = joinPieces(contentParts(observation['content']), '\n');
    const isError = observation['is_error'] === true;
    const kind = observation['kind'];
    if (kind === 'TerminalObservation') {
      const exitCode = typeof observation['exit_code'] === 'number' ? observation['exit_code'] : undefined;
      const [output, outputClip] = this.clip(text, this.limits.output);
      const command =
        row.terminal?.command ?? (typeof observation['command'] === 'string' ? observation['command'] : '');
      return {
        ...row,
        state: isError || (exitCode !== undefined && exitCode > 0) ? 'failed' : 'done',
        terminal: {
          command,
          output,
          ...(outputClip ? { outputClip } : {}),
          ...(exitCode !== undefined ? { exitCode } : {}),
          ...(observation['timeout'] === true || exitCode === -1 ? { timedOut: true } : {}),
        },
      };
    }
    if (kind === 'FileEditorObservation' && !isError) {
      const path = typeof observation['path'] === 'string' ? observation['path'] : (row.edit?.path ?? '');
      const before = typeof observation['old_content'] === 'string' ? observation['old_content'] : '';
      const after = typeof observation['new_content'] === 'string' ? observation['new_content'] : undefined;
      const command =
        typeof observation['command'] === 'string' ? observation['command'] : (row.edit?.command ?? 'edit');
      if (after !== undefined && command !== 'view') {
        const diff = compactDiff(before, after, this.limits.diffLines);
        return {
          ...row,
          state: 'done',
          edit: { path, command, created: observation['prev_exist'] === false, ...diff },
        };
      }
    }
    // "Your thought has been logged." says nothing the row does not
    if (kind === 'ThinkObservation' && !isError) return { ...row, state: 'done' };
    const images = imageRefs(event.id, eventImages(event));
    const [result, resultClip] = this.clip(withLines(text, images.refused), this.limits.output);
    return {
      ...row,
      state: isError ? 'failed' : 'done',
      result,
      ...(resultClip ? { resultClip } : {}),
      ...(images.refs.length ? { images: images.refs } : {}),
    };
  }

  private notice(
    event: AgentEvent,
    level: NoticeRow['level'],
    title: string,
    detail?: string | TextPieces,
  ): NoticeRow {
    const [text, detailClip] = detail ? this.clip(detail, this.limits.text) : [undefined, undefined];
    return {
      id: event.id,
      timestamp: event.timestamp,
      kind: 'notice',
      level,
      title,
      ...(text ? { detail: text } : {}),
      ...(detailClip ? { detailClip } : {}),
    };
  }

  private generic(event: AgentEvent, base: { id: string; timestamp: string }): GenericRow {
    return {
      ...base,
      kind: 'generic',
      eventKind: event.kind.slice(0, 100),
      source: event.source.slice(0, 50),
      summary: this.clip(firstText(event), 300)[0],
    };
  }

  private clip(text: string | TextPieces, max: number): [string, Clip | undefined] {
    return clipPieces(text, max);
  }
}

/** What an oversized event was, as the start of a sentence. */
function oversizedWhat(details: OversizedDetails, source: string): string {
  if (details.eventKind === 'MessageEvent')
    return source === 'user' ? 'Your message' : source === 'agent' ? "The agent's message" : 'A message';
  const inner = details.innerKind ? ` (${details.innerKind})` : '';
  if (details.eventKind === 'ObservationEvent') return `A tool's result${inner}`;
  if (details.eventKind === 'ActionEvent') return `An action of the agent${inner}`;
  return `An event (${details.eventKind})`;
}

/** `24 MB`, `512 KB`: a size as the panel says it. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function isObservation(event: AgentEvent): boolean {
  return event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation';
}

/** A text with lines under it (why an image cannot be shown). */
function withLines(text: TextPieces, lines: readonly string[]): TextPieces {
  return lines.length === 0 ? text : joinPieces([text, ...lines], '\n\n');
}

function stringField(event: AgentEvent, key: string): string | undefined {
  const value = event[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The LLM's own summary, or one a reader can take in at a glance where the server made its own
 * (`"<tool>: <arguments JSON>"`, 1.34's fallback) for a tool the row already shows in full.
 */
function readableSummary(
  tool: string,
  action: Record<string, unknown> | undefined,
  summary: string | undefined,
): string | undefined {
  const generated = summary === undefined || summary.startsWith(`${tool}: {`);
  if (!generated) return summary;
  const kind = action?.['kind'];
  if (kind === 'ThinkAction' && typeof action?.['thought'] === 'string') {
    const thought = action['thought'].trim();
    // one line of it; a longer thought stays folded in full
    return thought.length <= 200 && !thought.includes('\n')
      ? thought
      : `${thought.split('\n')[0]?.slice(0, 200) ?? ''}…`;
  }
  const browserStep = browserStepSummary(action);
  if (browserStep) return browserStep;
  if (kind === 'TerminalAction' && typeof action?.['command'] === 'string')
    return `Run ${action['command'].split('\n')[0] ?? ''}`;
  if (kind === 'FileEditorAction' && typeof action?.['path'] === 'string') {
    const file = action['path'].split('/').pop() ?? action['path'];
    const verb: Record<string, string> = {
      view: 'View',
      create: 'Create',
      str_replace: 'Edit',
      insert: 'Insert into',
      undo_edit: 'Undo the last edit of',
    };
    return `${verb[String(action['command'])] ?? 'Edit'} ${file}`;
  }
  return summary;
}

function summaryOf(tool: string, event: AgentEvent): TextPieces {
  const call = event['tool_call'];
  const args = isRecord(call) && typeof call['arguments'] === 'string' ? call['arguments'] : '';
  return args ? [tool, ': ', args] : [tool];
}

/** Something to say about an unknown event: its first short string field. */
function firstText(event: AgentEvent): string {
  for (const [key, value] of Object.entries(event)) {
    if (['id', 'timestamp', 'source', 'kind'].includes(key)) continue;
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
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
