/**
 * An agent's action as a row, and the row once its result is in (an observation, a rejection, an
 * agent error): what a command printed, a file edit's compact diff, a tool's result, each clipped to
 * the limits given. Pure, no vscode.
 */
import { eventImages } from '../../../../api/agentServer/eventImages';
import { contentParts, type AgentEvent } from '../../../../api/agentServer/events';
import { isRecord } from '../../../../api/records';
import { RISKS, type ActionRow, type Row } from '../../shared/rows';
import { browserStepSummary } from './browserSteps';
import { stringField } from './eventFields';
import { imageRefs } from './imageRefs';
import { compactDiff } from './lineDiff';
import { clipPieces, joinPieces, withLines, type ClipLimits, type TextPieces } from './textPieces';

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
      stringField(event, 'error') ?? 'The tool call failed.',
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
