/**
 * One agent event as the row it shows as: a message, an action (and the row once its result is in:
 * an observation, a rejection, an agent error: what a command printed, a file edit's compact diff, a
 * tool's result), a notice (errors, pauses, condensations, hooks, an event too large to read) or, for
 * a kind the panel does not know, its first words; every text clipped to the limits given. Pairing an
 * action with its result is the transcript's job. Pure, no vscode.
 */
import { switchedLlm } from '../../../../api/agentServer/agentLlm';
import { eventImages } from '../../../../api/agentServer/eventImages';
import { contentParts, type AgentEvent } from '../../../../api/agentServer/events';
import { maskKeys } from '../../../../api/agentServer/modelFailure';
import {
  OVERSIZED_EVENT_KIND,
  oversizedDetails,
  type OversizedDetails,
} from '../../../../api/agentServer/oversizedEvent';
import { isRecord } from '../../../../api/records';
import {
  RISKS,
  type ActionRow,
  type GenericRow,
  type MessageRow,
  type NoticeRow,
  type Row,
} from '../../shared/rows';
import { browserStepSummary } from './browserSteps';
import { imageRefs } from './imageRefs';
import { compactDiff } from './lineDiff';
import { clipPieces, joinPieces, withLines, type ClipLimits, type TextPieces } from './textPieces';

export function eventRow(event: AgentEvent, limits: ClipLimits): Row | undefined {
  const notice = (level: NoticeRow['level'], title: string, detail?: string | TextPieces) =>
    noticeRow(event, limits, level, title, detail);
  switch (event.kind) {
    case 'MessageEvent':
      return messageRow(event, limits);
    case 'ActionEvent':
      return actionRow(event, limits);
    case 'ObservationEvent':
    case 'UserRejectObservation':
      // its action is not held (yet): shown on its own
      return withResult(lonelyAction(event), event, limits);
    case 'AgentErrorEvent':
      return notice('error', 'The agent hit an error', errorText(event, 'error'));
    case 'ConversationErrorEvent':
      return notice(
        'error',
        'The conversation stopped with an error',
        joinPieces([stringField(event, 'code') ?? '', errorText(event, 'detail') ?? ''], ': '),
      );
    case 'ConversationStateUpdateEvent': {
      // state goes to the header; only a switch of the model is marked where it happened
      const switched = switchedLlm(event);
      return switched
        ? notice(
            'info',
            `Model switched to ${switched.model}`,
            `From the saved profile “${switched.profile}”.`,
          )
        : undefined;
    }
    case 'PauseEvent':
      return notice('info', 'Paused by the user');
    case 'InterruptEvent':
      return notice('warning', 'Interrupted by the user');
    case 'Condensation': {
      const forgotten = Array.isArray(event['forgotten_event_ids']) ? event['forgotten_event_ids'].length : 0;
      return notice(
        'info',
        `Earlier history condensed (${forgotten} event${forgotten === 1 ? '' : 's'} summarised for the model)`,
        stringField(event, 'summary'),
      );
    }
    case 'CondensationRequest':
      return notice('info', 'Condensation of the history requested');
    case 'CondensationSummaryEvent':
      return notice('info', 'History summary', stringField(event, 'summary'));
    case 'SystemPromptEvent': {
      const tools = Array.isArray(event['tools']) ? event['tools'].length : 0;
      const prompt = event['system_prompt'];
      const text = isRecord(prompt) && typeof prompt['text'] === 'string' ? prompt['text'] : undefined;
      return notice('info', `The agent started with ${tools} tool${tools === 1 ? '' : 's'}`, text);
    }
    case 'HookExecutionEvent': {
      const blocked = event['blocked'] === true;
      const hook = stringField(event, 'hook_event_type') ?? 'hook';
      return notice(
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
      return oversizedRow(event, limits);
    default:
      return genericRow(event);
  }
}

/** An event too large to read: what it was and why it is not shown, in place of its content. */
function oversizedRow(event: AgentEvent, limits: ClipLimits): NoticeRow {
  const details = oversizedDetails(event);
  if (!details) return noticeRow(event, limits, 'warning', 'An event too large to show');
  const limit = sizeText(details.limitBytes);
  const size =
    details.bytes !== undefined
      ? `It is about ${sizeText(details.bytes)}, more than the ${limit}`
      : `It is larger than the ${limit}`;
  return noticeRow(
    event,
    limits,
    'warning',
    `${oversizedWhat(details, event.source)} is too large to show here`,
    `${size} the extension reads in one reply, so its content was not loaded. ` +
      'Open in Browser, at the top of this panel, shows the conversation in OpenHands.',
  );
}

function messageRow(event: AgentEvent, limits: ClipLimits): MessageRow {
  const llm = isRecord(event['llm_message']) ? event['llm_message'] : {};
  const text = joinPieces(contentParts(llm['content']), '\n');
  const role = event.source === 'user' ? 'user' : event.source === 'agent' ? 'agent' : 'environment';
  const images = imageRefs(event.id, eventImages(event));
  const [markdown, clip] = clipPieces(withLines(text, images.refused), limits.text);
  const reasoning = typeof llm['reasoning_content'] === 'string' ? llm['reasoning_content'] : undefined;
  return {
    id: event.id,
    timestamp: event.timestamp,
    kind: 'message',
    role,
    markdown,
    ...(clip ? { clip } : {}),
    ...(images.refs.length ? { images: images.refs } : {}),
    ...(reasoning ? { reasoning: clipPieces(reasoning, limits.text)[0] } : {}),
  };
}

function noticeRow(
  event: AgentEvent,
  limits: ClipLimits,
  level: NoticeRow['level'],
  title: string,
  detail?: string | TextPieces,
): NoticeRow {
  const [text, detailClip] = detail ? clipPieces(detail, limits.text) : [undefined, undefined];
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

function genericRow(event: AgentEvent): GenericRow {
  return {
    id: event.id,
    timestamp: event.timestamp,
    kind: 'generic',
    eventKind: event.kind.slice(0, 100),
    source: event.source.slice(0, 50),
    summary: clipPieces(firstText(event), 300)[0],
  };
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

/** Something to say about an unknown event: its first short string field. */
function firstText(event: AgentEvent): string {
  for (const [key, value] of Object.entries(event)) {
    if (['id', 'timestamp', 'source', 'kind'].includes(key)) continue;
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}

export function actionRow(event: AgentEvent, limits: ClipLimits): Row {
  const action = isRecord(event['action']) ? event['action'] : undefined;
  const tool = stringField(event, 'tool_name') ?? 'tool';
  // a finish is the agent's last word: shown as its message
  if (action?.['kind'] === 'FinishAction' && typeof action['message'] === 'string') {
    const [markdown, clip] = clipPieces(action['message'], limits.text);
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
    summary: clipPieces(summary, 500)[0],
    risk,
    // a call the agent could not make (no action) waits for its AgentErrorEvent
    state: 'pending',
    ...(thought.length > 0 ? { thought: clipPieces(thought, limits.text)[0] } : {}),
  };
  if (action?.['kind'] === 'TerminalAction' && typeof action['command'] === 'string') {
    row.terminal = { command: clipPieces(action['command'], limits.output)[0] };
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

/** An action row standing in for one that is not held, so its observation can show. */
export function lonelyAction(event: AgentEvent): ActionRow {
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
export function withResult(row: Row, event: AgentEvent, limits: ClipLimits): Row {
  if (row.kind !== 'action') return row;
  if (event.kind === 'UserRejectObservation') {
    const reason = stringField(event, 'rejection_reason') ?? 'Rejected';
    const byHook = event['rejection_source'] === 'hook';
    return {
      ...row,
      state: 'rejected',
      result: clipPieces(byHook ? [reason, ' (by a hook)'] : reason, limits.text)[0],
    };
  }
  if (event.kind === 'AgentErrorEvent') {
    const [result, resultClip] = clipPieces(
      errorText(event, 'error') ?? 'The tool call failed.',
      limits.output,
    );
    return { ...row, state: 'failed', result, ...(resultClip ? { resultClip } : {}) };
  }
  const observation = isRecord(event['observation']) ? event['observation'] : {};
  const text = joinPieces(contentParts(observation['content']), '\n');
  const isError = observation['is_error'] === true;
  const kind = observation['kind'];
  if (kind === 'TerminalObservation') {
    const exitCode = typeof observation['exit_code'] === 'number' ? observation['exit_code'] : undefined;
    const [output, outputClip] = clipPieces(text, limits.output);
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
      const diff = compactDiff(before, after, limits.diffLines);
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
  const [result, resultClip] = clipPieces(withLines(text, images.refused), limits.output);
  return {
    ...row,
    state: isError ? 'failed' : 'done',
    result,
    ...(resultClip ? { resultClip } : {}),
    ...(images.refs.length ? { images: images.refs } : {}),
  };
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

/** A field of an event read defensively (events come from the agent): the transcript pairs rows by these too. */
/**
 * An error's text: a provider's error quotes the key it refused ("Incorrect API key provided:
 * sk-proj-Ab12…Yz89"), a key the extension never knew, so no scrub of known secrets catches it.
 */
function errorText(event: AgentEvent, key: string): string | undefined {
  const text = stringField(event, key);
  return text === undefined ? undefined : maskKeys(text);
}

export function stringField(event: AgentEvent, key: string): string | undefined {
  const value = event[key];
  return typeof value === 'string' ? value : undefined;
}

/** An action's result: an observation, or the user's rejection of it. */
export function isObservation(event: AgentEvent): boolean {
  return event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation';
}
