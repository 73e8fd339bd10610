/**
 * One agent event as the row it shows as, alone: a message, an action (`actionRows.ts`), a notice
 * (errors, pauses, condensations, hooks, an event too large to read) or, for a kind the panel does not
 * know, its first words. Pairing an action with its result is the transcript's job. Pure, no vscode.
 */
import { eventImages } from '../../../../api/agentServer/eventImages';
import { contentParts, type AgentEvent } from '../../../../api/agentServer/events';
import {
  OVERSIZED_EVENT_KIND,
  oversizedDetails,
  type OversizedDetails,
} from '../../../../api/agentServer/oversizedEvent';
import { isRecord } from '../../../../api/records';
import type { GenericRow, MessageRow, NoticeRow, Row } from '../../shared/rows';
import { actionRow, lonelyAction, withResult } from './actionRows';
import { stringField } from './eventFields';
import { imageRefs } from './imageRefs';
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
      return notice('error', 'The agent hit an error', stringField(event, 'error'));
    case 'ConversationErrorEvent':
      return notice(
        'error',
        'The conversation stopped with an error',
        joinPieces([stringField(event, 'code') ?? '', stringField(event, 'detail') ?? ''], ': '),
      );
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
