/**
 * What the conversation panel shows: the agent's events turned into rows, one per thing a reader
 * sees (an action and its observation make one row). The host builds them (`host/rows/transcript.ts`);
 * the page only renders them. Every text here came from the agent or the server and is untrusted:
 * the page renders it as text, or as markdown through the sanitiser, never as raw HTML.
 * No vscode import: the webview bundles this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

/** A text the host shortened before sending; the page offers "Show all" for it. */
export const ClipSchema = z.strictObject({
  /** Characters of the whole text. */
  fullLength: z.number(),
});
export type Clip = z.infer<typeof ClipSchema>;

/** One line of a compact diff: ' ' context, '-' removed, '+' added, '…' lines left out. */
export const DiffLineSchema = z.strictObject({
  op: z.enum([' ', '-', '+', '…']),
  text: z.string(),
});
export type DiffLine = z.infer<typeof DiffLineSchema>;

export const RISKS = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'] as const;

/**
 * Where an action stands: waiting for its observation (running), waiting for the user's approval
 * (`awaiting`: the agent stopped at `waiting_for_confirmation`), done, failed, rejected by the user or a hook.
 */
export const ACTION_STATES = ['pending', 'awaiting', 'done', 'failed', 'rejected'] as const;

/**
 * An image an event carries, by reference: the page asks the host for its bytes (`image`) when the row
 * comes near the viewport, and the host reads the event whole and checks the bytes before it sends them.
 */
export const ImageRefSchema = z.strictObject({
  /** The event that carries it, and its place there (`api/agentServer/eventImages.ts`). */
  event: z.string().check(z.maxLength(200)),
  index: z.number(),
  /** From the image's head, so its box has its shape before the bytes come; absent when the head does not say. */
  width: z.optional(z.number()),
  height: z.optional(z.number()),
  /** What it is in words ("Screenshot: 1920×1080 PNG"): its caption and alt text. */
  label: z.string(),
});
export type ImageRef = z.infer<typeof ImageRefSchema>;

const base = {
  /** The event id (an action row: the action's id); unique in a transcript. */
  id: z.string(),
  /** The server's timestamp as sent (naive server time); shown, never used to order. */
  timestamp: z.string(),
};

export const MessageRowSchema = z.strictObject({
  ...base,
  kind: z.literal('message'),
  role: z.enum(['user', 'agent', 'environment']),
  markdown: z.string(),
  clip: z.optional(ClipSchema),
  /** Reasoning the model gave with the message: shown folded. */
  reasoning: z.optional(z.string()),
  images: z.optional(z.array(ImageRefSchema)),
});

/** A terminal command with its output and exit code (undefined while it runs). */
export const TerminalSchema = z.strictObject({
  command: z.string(),
  output: z.optional(z.string()),
  outputClip: z.optional(ClipSchema),
  exitCode: z.optional(z.number()),
  timedOut: z.optional(z.boolean()),
});

/** A file edit as a compact inline diff of the file before and after. */
export const FileEditSchema = z.strictObject({
  path: z.string(),
  command: z.string(),
  /** The file did not exist before (`create`). */
  created: z.boolean(),
  lines: z.array(DiffLineSchema),
  added: z.number(),
  removed: z.number(),
});

export const ActionRowSchema = z.strictObject({
  ...base,
  kind: z.literal('action'),
  tool: z.string(),
  /** The LLM's summary of the call, or one made from the tool and its arguments. */
  summary: z.string(),
  /** What the agent thought before the call: shown folded. */
  thought: z.optional(z.string()),
  risk: z.enum(RISKS),
  state: z.enum(ACTION_STATES),
  terminal: z.optional(TerminalSchema),
  edit: z.optional(FileEditSchema),
  /** The observation's text for other tools (or the agent's error, or the rejection reason). */
  result: z.optional(z.string()),
  resultClip: z.optional(ClipSchema),
  /** The observation's images (a browser screenshot first). */
  images: z.optional(z.array(ImageRefSchema)),
});

/** Something that happened to the conversation rather than in it. */
export const NoticeRowSchema = z.strictObject({
  ...base,
  kind: z.literal('notice'),
  level: z.enum(['info', 'warning', 'error']),
  title: z.string(),
  detail: z.optional(z.string()),
  detailClip: z.optional(ClipSchema),
});

/** The agent's reply while the model is still streaming it; replaced by the final message. */
export const StreamingRowSchema = z.strictObject({
  ...base,
  kind: z.literal('streaming'),
  text: z.string(),
  reasoning: z.optional(z.string()),
});

/** An event kind this version does not know: shown small, never an error. */
export const GenericRowSchema = z.strictObject({
  ...base,
  kind: z.literal('generic'),
  eventKind: z.string(),
  source: z.string(),
  summary: z.string(),
});

export const RowSchema = z.discriminatedUnion('kind', [
  MessageRowSchema,
  ActionRowSchema,
  NoticeRowSchema,
  StreamingRowSchema,
  GenericRowSchema,
]);
export type Row = z.infer<typeof RowSchema>;
export type MessageRow = z.infer<typeof MessageRowSchema>;
export type ActionRow = z.infer<typeof ActionRowSchema>;
export type NoticeRow = z.infer<typeof NoticeRowSchema>;
export type StreamingRow = z.infer<typeof StreamingRowSchema>;
export type GenericRow = z.infer<typeof GenericRowSchema>;

/** The id of the one streaming bubble a transcript may hold. */
export const STREAMING_ROW_ID = 'streaming';
