/**
 * One template per row kind. Every text goes through lit's text bindings (escaped); the only markup
 * that comes from a row is markdown, rendered and sanitised by `markdown.ts`. Templates are cached
 * per row object, so a row scrolled out and back in is not built again (and its markdown is cloned
 * from the parsed copy, not parsed again).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import type {
  ActionRow,
  Clip,
  DiffLine,
  GenericRow,
  ImageRef,
  MessageRow,
  NoticeRow,
  Row,
  StreamingRow,
} from '../shared/rows';
import { LAYOUT } from './estimate';
import './imageView';
import { markdownFragment } from './markdown';
import { boundedText, formatCount, MAX_MARKDOWN_CHARS, oneLine, shortTime } from './text';

export interface RowActions {
  /** "Show all" on a clipped text. */
  expand(id: string): void;
}

/** Diff lines rendered at most (an expanded edit can hold thousands), and characters of each. */
const MAX_DIFF_LINES = 2000;
const MAX_DIFF_LINE_CHARS = 2000;

const cache = new WeakMap<Row, TemplateResult>();

/** The content of a row (the list wraps it in its own element). */
export function rowContent(row: Row, actions: RowActions): TemplateResult {
  let template = cache.get(row);
  if (!template) {
    template = build(row, actions);
    cache.set(row, template);
  }
  return template;
}

function build(row: Row, actions: RowActions): TemplateResult {
  switch (row.kind) {
    case 'message':
      return messageView(row, actions);
    case 'action':
      return actionView(row, actions);
    case 'notice':
      return noticeView(row, actions);
    case 'streaming':
      return streamingView(row);
    case 'generic':
      return genericView(row);
    default:
      return html``;
  }
}

function icon(name: string): TemplateResult {
  return html`<span class="codicon codicon-${name}" aria-hidden="true"></span>`;
}

function time(timestamp: string): TemplateResult | typeof nothing {
  const short = shortTime(timestamp);
  return short ? html`<time class="time" title=${oneLine(timestamp, 64)}>${short}</time>` : nothing;
}

function showAll(id: string, clip: Clip | undefined, actions: RowActions): TemplateResult | typeof nothing {
  if (!clip) return nothing;
  return html`<button type="button" class="show-all" @click=${() => actions.expand(id)}>
    Show all (${formatCount(clip.fullLength)} characters)
  </button>`;
}

/** A block of text kept as it is (whitespace, lines), scrolling inside its own max height. */
function block(text: string, className: string, label?: string): TemplateResult {
  const bounded = boundedText(text);
  // the text as the pre's only child (no whitespace of the template can reach it)
  return html`<pre
      class="block ${className}"
      tabindex="0"
      aria-label=${label ?? nothing}
      .textContent=${bounded.text}
    ></pre>
    ${
      bounded.omitted > 0
        ? html`<p class="omitted">${formatCount(bounded.omitted)} more characters not shown.</p>`
        : nothing
    }`;
}

function markdownView(markdown: string): TemplateResult {
  if (markdown.length > MAX_MARKDOWN_CHARS) return block(markdown, 'plain-markdown');
  return html`<div class="markdown">${guard([markdown], () => markdownFragment(markdown))}</div>`;
}

function folded(summary: string, text: string, className: string): TemplateResult {
  return html`<details class="fold ${className}">
    <summary>${summary}</summary>
    ${block(text, 'fold-text')}
  </details>`;
}

const ROLE_LABELS: Record<MessageRow['role'], string> = {
  user: 'You',
  agent: 'Agent',
  environment: 'Environment',
};

function messageView(row: MessageRow, actions: RowActions): TemplateResult {
  if (row.role === 'environment') {
    return html`<div class="env-message">
      ${icon('info')}<span class="env-text">${oneLine(row.markdown, 2000)}</span>${time(row.timestamp)}
      ${showAll(row.id, row.clip, actions)}
    </div>`;
  }
  return html`<div class="message message-${row.role}">
    <div class="bubble">
      <div class="meta"><span class="who">${ROLE_LABELS[row.role]}</span>${time(row.timestamp)}</div>
      ${row.reasoning ? folded('Reasoning', row.reasoning, 'reasoning') : nothing}
      ${markdownView(row.markdown)} ${imagesView(row.images)} ${showAll(row.id, row.clip, actions)}
    </div>
  </div>`;
}

/** A row's images, each drawn once its bytes come (`imageView.ts`). */
function imagesView(images: readonly ImageRef[] | undefined): TemplateResult | typeof nothing {
  if (!images || images.length === 0) return nothing;
  return html`<div class="shots">
    ${images.map((ref) => html`<openhands-image .ref=${ref}></openhands-image>`)}
  </div>`;
}

/** The streaming bubble shows the end of what was typed so far, at most this much. */
const MAX_STREAMING_CHARS = 20_000;

function streamingView(row: StreamingRow): TemplateResult {
  const text = row.text.length > MAX_STREAMING_CHARS ? `…${row.text.slice(-MAX_STREAMING_CHARS)}` : row.text;
  return html`<div class="message message-agent streaming">
    <div class="bubble" aria-busy="true">
      <div class="meta"><span class="who">Agent</span><span class="typing">typing…</span></div>
      ${row.reasoning ? folded('Reasoning', row.reasoning, 'reasoning') : nothing}
      <div class="stream-text">
        <span class="stream-body" .textContent=${text}></span><span class="caret" aria-hidden="true"></span>
      </div>
    </div>
  </div>`;
}

function toolIcon(row: ActionRow): string {
  if (row.terminal) return 'terminal';
  if (row.edit) return 'edit';
  const tool = row.tool.toLowerCase();
  if (tool.includes('browser') || tool.includes('web')) return 'globe';
  if (tool.includes('think')) return 'lightbulb';
  if (tool.includes('task') || tool.includes('todo')) return 'checklist';
  if (tool.includes('file') || tool.includes('editor')) return 'file';
  if (tool.includes('search') || tool.includes('grep') || tool.includes('glob')) return 'search';
  if (tool.includes('mcp')) return 'plug';
  return 'tools';
}

function stateView(row: ActionRow): TemplateResult | typeof nothing {
  switch (row.state) {
    case 'pending':
      return html`<span class="state state-pending"
        ><vscode-progress-ring
          class="ring"
          aria-hidden="true"
          role="presentation"
          aria-live="off"
        ></vscode-progress-ring
        >running</span
      >`;
    case 'awaiting':
      return html`<span class="state state-awaiting">${icon('shield')}awaiting your approval</span>`;
    case 'failed':
      return html`<span class="state state-failed">${icon('error')}failed</span>`;
    case 'rejected':
      return html`<span class="state state-rejected">${icon('circle-slash')}rejected</span>`;
    default:
      return nothing;
  }
}

function riskView(row: ActionRow): TemplateResult | typeof nothing {
  if (row.risk !== 'MEDIUM' && row.risk !== 'HIGH') return nothing;
  return html`<span class="risk risk-${row.risk.toLowerCase()}" title="Security risk the agent gave this call"
    >${icon('shield')}${row.risk === 'HIGH' ? 'high risk' : 'medium risk'}</span
  >`;
}

function actionView(row: ActionRow, actions: RowActions): TemplateResult {
  return html`<div class="action action-${row.state}">
    <div class="action-head">
      <span class="tool">${icon(toolIcon(row))}<span class="tool-name">${oneLine(row.tool, 80)}</span></span>
      <span class="summary" title=${oneLine(row.summary, 1000)}>${oneLine(row.summary)}</span>
      ${riskView(row)} ${stateView(row)} ${time(row.timestamp)}
    </div>
    ${row.thought ? folded('Thought', row.thought, 'thought') : nothing}
    ${row.terminal ? terminalView(row, actions) : nothing} ${row.edit ? editView(row) : nothing}
    ${resultView(row, actions)} ${imagesView(row.images)}
  </div>`;
}

function exitBadge(terminal: NonNullable<ActionRow['terminal']>): TemplateResult | typeof nothing {
  // a plain badge (the list builds many rows a frame while scrolling; vscode-badge is a custom element)
  if (terminal.timedOut)
    return html`<span class="badge exit exit-fail" title="The command timed out">timed out</span>`;
  if (terminal.exitCode === undefined) return nothing;
  const ok = terminal.exitCode === 0;
  return html`<span
    class="badge exit ${ok ? 'exit-ok' : 'exit-fail'}"
    title=${ok ? 'The command succeeded' : 'The command failed'}
    >${ok ? icon('check') : nothing}exit ${terminal.exitCode}</span
  >`;
}

function terminalView(row: ActionRow, actions: RowActions): TemplateResult {
  const terminal = row.terminal as NonNullable<ActionRow['terminal']>;
  const output = terminal.output;
  return html`<div class="terminal">
    <div class="command">
      <pre class="command-text"><span class="prompt" aria-hidden="true">$ </span><span
          .textContent=${boundedText(terminal.command, 20_000).text}
        ></span></pre>
      ${exitBadge(terminal)}
    </div>
    ${output !== undefined && output !== '' ? block(output, 'output', 'Command output') : nothing}
    ${showAll(row.id, terminal.outputClip, actions)}
  </div>`;
}

function diffText(line: DiffLine): string {
  return line.op === '…'
    ? oneLine(line.text || 'lines not shown', 200)
    : boundedText(line.text, MAX_DIFF_LINE_CHARS).text;
}

const DIFF_CLASS: Record<DiffLine['op'], string> = { ' ': 'ctx', '-': 'del', '+': 'add', '…': 'gap' };

function editView(row: ActionRow): TemplateResult {
  const edit = row.edit as NonNullable<ActionRow['edit']>;
  const lines = edit.lines.length > MAX_DIFF_LINES ? edit.lines.slice(0, MAX_DIFF_LINES) : edit.lines;
  return html`<div class="edit">
    <div class="edit-head">
      ${icon(edit.created ? 'new-file' : 'diff')}<span class="path" title=${oneLine(edit.path, 2000)}
        >${oneLine(edit.path)}</span
      >
      ${edit.created ? html`<span class="created">created</span>` : nothing}
      <span class="stat"
        ><span class="stat-add">+${formatCount(edit.added)}</span>
        <span class="stat-del">−${formatCount(edit.removed)}</span></span
      >
    </div>
    ${
      lines.length > 0
        ? html`<div class="block diff" tabindex="0" role="group" aria-label="Changes">
            ${lines.map(
              (line) =>
                html`<span class="dl dl-${DIFF_CLASS[line.op] ?? 'ctx'}"
                  ><span class="op" aria-hidden="true">${line.op}</span
                  ><span class="tx" .textContent=${diffText(line)}></span
                ></span>`,
            )}
          </div>`
        : nothing
    }
    ${
      edit.lines.length > lines.length
        ? html`<p class="omitted">${formatCount(edit.lines.length - lines.length)} more lines not shown.</p>`
        : nothing
    }
  </div>`;
}

function resultView(row: ActionRow, actions: RowActions): TemplateResult | typeof nothing {
  if (row.result === undefined || row.result === '') return nothing;
  if (row.state === 'rejected')
    return html`<p class="rejection">Rejected: ${oneLine(row.result, 4000)}</p>
      ${showAll(row.id, row.resultClip, actions)}`;
  return html`${block(row.result, row.state === 'failed' ? 'result result-failed' : 'result', 'Result')}
  ${showAll(row.id, row.resultClip, actions)}`;
}

const NOTICE_ICONS: Record<NoticeRow['level'], string> = { info: 'info', warning: 'warning', error: 'error' };

function noticeView(row: NoticeRow, actions: RowActions): TemplateResult {
  const detail = row.detail;
  const short = detail !== undefined && detail.length <= LAYOUT.openDetail && !detail.includes('\n\n');
  return html`<div class="notice notice-${row.level}">
    ${icon(NOTICE_ICONS[row.level] ?? 'info')}
    <div class="notice-body">
      <div class="notice-title"><span>${oneLine(row.title)}</span>${time(row.timestamp)}</div>
      ${
        detail === undefined || detail === ''
          ? nothing
          : short
            ? html`<p class="notice-detail" .textContent=${detail}></p>`
            : folded('Details', detail, 'notice-fold')
      }
      ${showAll(row.id, row.detailClip, actions)}
    </div>
  </div>`;
}

function genericView(row: GenericRow): TemplateResult {
  const parts = [oneLine(row.eventKind, 100), oneLine(row.source, 50), oneLine(row.summary, 300)].filter(
    (part) => part !== '',
  );
  return html`<div class="generic" title=${parts.join(' · ')}>${parts.join(' · ')}</div>`;
}
