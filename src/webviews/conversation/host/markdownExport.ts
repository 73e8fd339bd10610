/**
 * A transcript as a Markdown file: the same rows the panel shows (`rows/transcript.ts`, texts whole),
 * every secret the extension knows masked (`scrub.ts`), and each picture the rows show as a file in a
 * folder beside the file, linked relatively. What the agent wrote stays text: raw HTML is escaped
 * outside code, every code or output block is fenced longer than any backtick run inside it, and a
 * picture's file name is made here (a number and its checked type), never taken from an event.
 * No vscode import.
 */
import { checkEventImage, eventImages } from '../../../api/agentServer/eventImages';
import type { AgentEvent } from '../../../api/agentServer/events';
import type { ImageRef, Row } from '../shared/rows';
import { Transcript } from './rows/transcript';
import { EXPANDED_LIMITS } from './rows/textPieces';
import { scrubDeep } from './scrub';

export interface MarkdownExport {
  markdown: string;
  /** Pictures to write into the folder, by the names the markdown links to. */
  pictures: { name: string; bytes: Buffer }[];
}

export interface MarkdownExportOptions {
  title: string;
  /** Secrets to mask in every text. */
  secrets: readonly string[];
  /** The folder beside the .md the pictures go in, as the links name it (one path segment). */
  picturesFolder: string;
}

const EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;

export function transcriptMarkdown(
  events: readonly AgentEvent[],
  options: MarkdownExportOptions,
): MarkdownExport {
  const transcript = new Transcript(EXPANDED_LIMITS);
  transcript.append(events);
  const secrets = options.secrets.filter((secret) => secret.length > 0);
  const rows = scrubDeep([...transcript.all], secrets);
  const byId = new Map(events.map((event) => [event.id, event]));
  const pictures: MarkdownExport['pictures'] = [];
  const picture = (ref: ImageRef): string => {
    const event = byId.get(ref.event);
    const image = event ? eventImages(event).find((candidate) => candidate.index === ref.index) : undefined;
    const check = image ? checkEventImage(image) : undefined;
    const label = escapeText(scrubDeep(ref.label, secrets));
    if (!check?.ok) return `_(${label}: not saved${check ? `, ${escapeText(check.reason)}` : ''})_`;
    const name = `picture-${String(pictures.length + 1).padStart(3, '0')}.${EXTENSIONS[check.image.mime]}`;
    pictures.push({ name, bytes: check.image.bytes });
    return `![${label}](${encodeURIComponent(options.picturesFolder)}/${name})`;
  };
  const parts = [`# ${escapeText(scrubDeep(options.title, secrets))}`];
  for (const row of rows) parts.push(rowMarkdown(row, picture));
  return { markdown: `${parts.join('\n\n')}\n`, pictures };
}

function rowMarkdown(row: Row, picture: (ref: ImageRef) => string): string {
  switch (row.kind) {
    case 'message': {
      const who = row.role === 'user' ? 'User' : row.role === 'agent' ? 'Agent' : 'Environment';
      const lines = [`## ${who}`, stamp(row.timestamp)];
      if (row.reasoning) lines.push(quote(`Reasoning: ${row.reasoning}`));
      lines.push(safeMarkdown(row.markdown));
      for (const ref of row.images ?? []) lines.push(picture(ref));
      return lines.filter(Boolean).join('\n\n');
    }
    case 'action': {
      const lines = [`### ${escapeText(row.tool)}: ${escapeText(row.summary)}`, stamp(row.timestamp)];
      if (row.state !== 'done') lines.push(`_${row.state}_`);
      if (row.thought) lines.push(quote(row.thought));
      if (row.terminal) {
        lines.push(fenced(`$ ${row.terminal.command}`, 'bash'));
        if (row.terminal.output) lines.push(fenced(row.terminal.output, 'text'));
        if (row.terminal.exitCode !== undefined) lines.push(`Exit code ${row.terminal.exitCode}.`);
      }
      if (row.edit) {
        const diff = row.edit.lines
          .map((line) => `${line.op === '…' ? ' ' : line.op}${line.text}`)
          .join('\n');
        lines.push(
          `\`${escapeCode(row.edit.path)}\` (+${row.edit.added} −${row.edit.removed})`,
          fenced(diff, 'diff'),
        );
      }
      if (row.result) lines.push(fenced(row.result, 'text'));
      for (const ref of row.images ?? []) lines.push(picture(ref));
      return lines.filter(Boolean).join('\n\n');
    }
    case 'notice':
      return quote(`**${row.title}**${row.detail ? `\n${row.detail}` : ''}`);
    case 'streaming':
      return '';
    case 'generic':
      return `_${escapeText(row.eventKind)} (${escapeText(row.source)}): ${escapeText(row.summary)}_`;
  }
}

function stamp(timestamp: string): string {
  return timestamp ? `<sub>${escapeText(timestamp)}</sub>` : '';
}

/** A block as it was written: fenced with more backticks than any run inside it. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function quote(text: string): string {
  return safeMarkdown(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** What the agent wrote in Markdown, raw HTML escaped outside fenced code (a preview shows it as text). */
function safeMarkdown(text: string): string {
  return text
    .split(/(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[ \t]*$)/m)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;')))
    .join('');
}

/** One line of plain text (a title, a tool's summary): no Markdown or HTML of its own. */
function escapeText(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`*_{}[\]()#+!|<>]/g, (char) => `\\${char}`);
}

function escapeCode(text: string): string {
  return text.replace(/`/g, "'").replace(/\r?\n/g, ' ');
}
