/**
 * The one protocol between a conversation panel (extension host) and its webview. Both sides parse
 * every incoming message with these schemas and handle it through a `MessageHandlers` map, so a
 * malformed message is dropped, never acted on. No vscode import: the webview bundles this file.
 *
 * The host keeps the transcript; the page holds a copy it can lose at any time (it is not retained
 * while hidden). Each change the host sends carries the transcript's `epoch` and the next `rev`; a
 * page that sees a gap, or that was just loaded, sends `ready` with what it has and the host sends
 * the transcript again (newest rows first, so the end of a long conversation paints at once).
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { ImageRefSchema, RISKS, RowSchema } from './rows';

export const VIEW_TYPE = 'openhands.conversation';

/** How the live feed stands, for the header's mark. */
export const FEED_STATES = [
  /** Reading the history and opening the socket. */
  'connecting',
  'live',
  /** The socket broke; retrying (see `retryInMs`). What is shown may be behind. */
  'reconnecting',
  /** The sandbox is not running (paused, starting, gone): nothing to follow; what is shown is the last known. */
  'offline',
  /** Gave up (refused, not found, invalid settings) until the user acts. */
  'failed',
] as const;
export const FeedStateSchema = z.enum(FEED_STATES);
export type FeedState = z.infer<typeof FeedStateSchema>;

/** The longest message the composer sends (the agent server takes more; a paste this long is a mistake). */
export const MAX_MESSAGE_CHARS = 100_000;

/** An action the agent waits to have approved: what it is, its arguments, the risk the model gave it. */
export const PendingActionSchema = z.strictObject({
  id: z.string(),
  tool: z.string(),
  summary: z.string(),
  /** The action's arguments as text (clipped). */
  detail: z.string(),
  risk: z.enum(RISKS),
});
export type PendingAction = z.infer<typeof PendingActionSchema>;

/** Where a message the user sent stands until the server's echo confirms it. */
export const OUTBOX_STATES = [
  /** Resuming the sandbox first. */
  'resuming',
  /** The sandbox runs; waiting for its agent server to answer. */
  'connecting',
  'sending',
  /** The server took it; its echo has not come yet. */
  'sent',
  /** Held by the server while the conversation starts; the agent takes it once it has started. */
  'queued',
  /** Not sent: the text goes back to the input with `reason`. */
  'failed',
] as const;

export const OutboxEntrySchema = z.strictObject({
  id: z.string(),
  text: z.string(),
  /** Images sent with the text. */
  images: z.number(),
  state: z.enum(OUTBOX_STATES),
  reason: z.nullable(z.string()),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/** What the user can do with the agent now, and what is under way. */
export const ControlsSchema = z.strictObject({
  /** The conversation's confirmation policy kind (`NeverConfirm`, `AlwaysConfirm`, `ConfirmRisky`); null when unknown. */
  confirmationPolicy: z.nullable(z.string()),
  /** Actions waiting for approval (only while the agent waits for confirmation). */
  pendingActions: z.array(PendingActionSchema),
  outbox: z.array(OutboxEntrySchema),
  /** A control under way (its buttons are disabled until it ends); its outcome comes as its `reply`. */
  busy: z.nullable(z.enum(['approve', 'reject', 'continue', 'pause', 'stop', 'policy', 'model'])),
  /** The user rejected the pending actions and the agent waits: offer to let it continue. */
  rejected: z.boolean(),
});
export type Controls = z.infer<typeof ControlsSchema>;

export const CHANGE_STATUSES = ['ADDED', 'UPDATED', 'DELETED', 'MOVED'] as const;

/** One file the agent changed in its workspace. */
export const ChangedFileSchema = z.strictObject({
  path: z.string().check(z.maxLength(4096)),
  status: z.enum(CHANGE_STATUSES),
  /** Why the file can run code on the user's machine (api/agentServer/codeRunningFiles.ts), when it can. */
  runsCode: z.optional(z.string().check(z.maxLength(500))),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

/** The agent's changed files as the panel lists them. */
export const PanelChangesSchema = z.strictObject({
  /** `unread` before the first read; `failed` with `message` (the sandbox paused, an error). */
  state: z.enum(['unread', 'loading', 'ready', 'failed']),
  /** The last list read (kept while a newer read runs or after one failed). */
  files: z.array(ChangedFileSchema),
  message: z.nullable(z.string()),
});
export type PanelChanges = z.infer<typeof PanelChangesSchema>;

export const CHANGE_ACTIONS = ['openAll', 'apply', 'savePatch', 'refresh'] as const;

/** The newest page the agent saw, shown small under the header while it browses. */
export const BrowserStripSchema = z.strictObject({
  /** The row the screenshot belongs to. */
  rowId: z.string(),
  image: ImageRefSchema,
  /** Where the agent went last ("Open <url>"'s address), when a navigate is in view. */
  url: z.nullable(z.string().check(z.maxLength(2048))),
});
export type BrowserStrip = z.infer<typeof BrowserStripSchema>;

/** One figure of the usage breakdown. */
export const UsageLineSchema = z.strictObject({
  label: z.string().check(z.maxLength(200)),
  value: z.string().check(z.maxLength(200)),
});

/** What the conversation's LLM calls cost and used, in words (api/usage/usageText.ts). */
export const UsageSchema = z.strictObject({
  /** `$0.42 of $5.00 · 215k tokens · context 58 %`. */
  summary: z.string().check(z.maxLength(300)),
  /** How full the context window was at the newest call; null when unknown. */
  contextPercent: z.nullable(z.number()),
  /** The budget or the context window nearly used up; null when nothing is near. */
  warning: z.nullable(z.string().check(z.maxLength(300))),
  breakdown: z.array(UsageLineSchema).check(z.maxLength(40)),
  /** `live`: the agent server's stats updates; `list`: the app server's list, until the first one. */
  source: z.enum(['live', 'list']),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * The model cannot answer, said in words with Set Up the Model…: its run failed (`failed`: a refused
 * or missing key, an unknown model, a quota), or it is "running" and nothing came for a while (`silent`).
 */
export const ModelProblemSchema = z.strictObject({
  kind: z.enum(['failed', 'silent']),
  text: z.string().check(z.maxLength(600)),
  /** The provider's own words (bounded, keys masked), shown as text under ours; null when none. */
  detail: z.nullable(z.string().check(z.maxLength(600))),
});
export type ModelProblem = z.infer<typeof ModelProblemSchema>;

/** A PR the agent opened: `#12`, linked when its provider's page is known (http(s) only). */
export const PullRequestSchema = z.strictObject({
  number: z.number(),
  url: z.nullable(z.string().check(z.maxLength(2048))),
});

/** The agent's branch and its pull requests, as the app server lists them. */
export const AgentGitSchema = z.strictObject({
  /** `owner/name`; null when the conversation names no repository. */
  repository: z.nullable(z.string().check(z.maxLength(300))),
  branch: z.nullable(z.string().check(z.maxLength(300))),
  pullRequests: z.array(PullRequestSchema).check(z.maxLength(20)),
});
export type AgentGit = z.infer<typeof AgentGitSchema>;

/** One list under the hand-off line: a heading, its first entries, and how many more there are. */
export const HandedOverListSchema = z.strictObject({
  heading: z.string().check(z.maxLength(200)),
  items: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(30)),
  /** `and 12 more`; null when every entry is listed. */
  more: z.nullable(z.string().check(z.maxLength(200))),
});

/** The conversation started from the user's local state: what it was given, in words (the host's). */
export const HandedOverSchema = z.strictObject({
  /** `Started from your local state: 3 commits, 5 files`. */
  summary: z.string().check(z.maxLength(300)),
  lists: z.array(HandedOverListSchema).check(z.maxLength(3)),
});
export type HandedOver = z.infer<typeof HandedOverSchema>;

export const BRANCH_ACTIONS = ['checkOut', 'openPullRequest'] as const;

export const HeaderSchema = z.strictObject({
  conversationId: z.string(),
  title: z.string(),
  /** The agent's execution status as the agent server last said it (idle, running, …); null when unknown. */
  executionStatus: z.nullable(z.string()),
  /** RUNNING, PAUSED, …; null when unknown. */
  sandboxStatus: z.nullable(z.string()),
  model: z.nullable(z.string()),
  feed: FeedStateSchema,
  /** Why the feed is not live, secret-free; null when it is. */
  feedDetail: z.nullable(z.string()),
  /** When the next reconnect attempt starts, from now. */
  retryInMs: z.nullable(z.number()),
  /** Why the transcript is not the whole conversation (paging stopped, a size limit reached); null when it is. */
  notice: z.nullable(z.string()),
  /** The sandbox can be resumed from here (it is paused or stopped). */
  canResume: z.boolean(),
  /** Events held (not rows): shown in the footer, and lets tests see the transcript is whole. */
  eventCount: z.number(),
  controls: ControlsSchema,
  /** Absent where the host keeps no changes (tests of the transcript alone). */
  changes: z.optional(PanelChangesSchema),
  /** The agent browses now (its newest step is a browser step): the newest screenshot it took. */
  browser: z.optional(z.nullable(BrowserStripSchema)),
  /** Cost, tokens and context; absent or null before any LLM call is known. */
  usage: z.optional(z.nullable(UsageSchema)),
  /** The model failed or stays silent; absent or null otherwise. */
  modelProblem: z.optional(z.nullable(ModelProblemSchema)),
  /** The agent's branch and PRs; absent or null when it names neither. */
  git: z.optional(z.nullable(AgentGitSchema)),
  /** The conversation is still starting: the start's status in words (messages sent now are queued). */
  starting: z.optional(z.nullable(z.strictObject({ status: z.string().check(z.maxLength(400)) }))),
  /** What the conversation was handed from the user's local state; absent or null when it started without. */
  handedOver: z.optional(z.nullable(HandedOverSchema)),
});
export type Header = z.infer<typeof HeaderSchema>;

export const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The longest image the host sends, as base64 (the host's 8 MB cap, with room). */
export const MAX_IMAGE_BASE64 = 12 * 1024 * 1024;

/**
 * An image's bytes (checked by the host: a whole PNG, JPEG, GIF or WebP by its signature), or why it
 * cannot be shown. The page draws only these, as `blob:` URLs it makes itself.
 */
export const ImageReplySchema = z.strictObject({
  type: z.literal('image'),
  event: z.string().check(z.maxLength(200)),
  index: z.number(),
  image: z.optional(
    z.strictObject({
      mime: z.enum(IMAGE_MIMES),
      base64: z.string().check(z.maxLength(MAX_IMAGE_BASE64)),
      width: z.number(),
      height: z.number(),
      /** An animation's frames (the page counts each in what its images cost decoded); 1 when absent. */
      frames: z.optional(z.number()),
    }),
  ),
  problem: z.optional(z.string().check(z.maxLength(2000))),
});
export type ImageReply = z.infer<typeof ImageReplySchema>;

export { ImageRefSchema };

/** Images one message may carry. */
export const MAX_ATTACHMENTS = 4;

/**
 * An image the user attached to a message (pasted, dropped, or from Send Image to Conversation…): the
 * page checks its kind and size to show it, the host checks its bytes again before it is sent.
 */
export const AttachmentSchema = z.strictObject({
  name: z.string().check(z.maxLength(260)),
  mime: z.enum(IMAGE_MIMES),
  base64: z.string().check(z.maxLength(MAX_IMAGE_BASE64)),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A request's number, the page's own (counted up from 1), so that its reply can be told apart. */
export const RequestIdSchema = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));

/**
 * A control's outcome, answering the request of the same `id`: done, or refused with why (`error`,
 * secret-free; absent when the host did nothing because another control was under way).
 */
export const ReplySchema = z.strictObject({
  type: z.literal('reply'),
  id: RequestIdSchema,
  ok: z.boolean(),
  error: z.optional(z.string()),
});
export type Reply = z.infer<typeof ReplySchema>;

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  /**
   * The page is listening. `epoch`/`rev` say what it already holds (absent after a load): the host
   * answers with `reset` and the whole transcript unless they are current.
   */
  z.strictObject({ type: z.literal('ready'), epoch: z.optional(z.number()), rev: z.optional(z.number()) }),
  /** A link in a message was clicked; the host opens it if it is http(s) or mailto. */
  z.strictObject({ type: z.literal('openLink'), url: z.string().check(z.maxLength(8192)) }),
  /** "Show all" on a clipped row: the host answers with `expanded`. */
  z.strictObject({ type: z.literal('expand'), id: z.string().check(z.maxLength(200)) }),
  z.strictObject({ type: z.literal('resumeSandbox') }),
  /** Try the feed again now (after a failure, or to skip the backoff). */
  z.strictObject({ type: z.literal('reconnect') }),
  z.strictObject({ type: z.literal('openInBrowser') }),
  z.strictObject({ type: z.literal('showLog') }),
  /** "Set Up the Model…" on the model's problem: the host runs `openhands.setUpModel`. */
  z.strictObject({ type: z.literal('setUpModel') }),
  /** The header's Check Out Branch or Open Pull Request: the host runs the command for this conversation. */
  z.strictObject({ type: z.literal('branchAction'), action: z.enum(BRANCH_ACTIONS) }),
  /** Send a message (and let the agent run); `resume`: resume a paused sandbox first. Text, images or both. */
  z
    .strictObject({
      type: z.literal('send'),
      text: z.string().check(z.maxLength(MAX_MESSAGE_CHARS)),
      resume: z.boolean(),
      images: z.optional(z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS))),
    })
    .check(z.refine((message) => message.text.length > 0 || (message.images?.length ?? 0) > 0)),
  /** The page put a failed message back into its input: the host forgets it. */
  z.strictObject({ type: z.literal('dismissOutbox'), id: z.string().check(z.maxLength(100)) }),
  /** The agent's controls: each carries the page's `id`, and the host answers it with a `reply`. */
  z.strictObject({ type: z.literal('approve'), id: RequestIdSchema }),
  z.strictObject({
    type: z.literal('reject'),
    id: RequestIdSchema,
    reason: z.optional(z.string().check(z.maxLength(2000))),
  }),
  /** Let the agent run again (after a pause or a reject). */
  z.strictObject({ type: z.literal('continue'), id: RequestIdSchema }),
  /** Pause between steps. */
  z.strictObject({ type: z.literal('pause'), id: RequestIdSchema }),
  /** Stop now (interrupt the model call). */
  z.strictObject({ type: z.literal('stop'), id: RequestIdSchema }),
  /** Confirmation mode on (the setting's policy) or off. */
  z.strictObject({ type: z.literal('setConfirmation'), id: RequestIdSchema, on: z.boolean() }),
  /** The header's model: the host offers the server's saved profiles and switches to the one chosen. */
  z.strictObject({ type: z.literal('switchModel'), id: RequestIdSchema }),
  /** Open one changed file in the diff editor. */
  z.strictObject({ type: z.literal('openChange'), file: ChangedFileSchema }),
  z.strictObject({ type: z.literal('changes'), action: z.enum(CHANGE_ACTIONS) }),
  /** An image of a row came near the viewport: the host answers with `image`. */
  z.strictObject({ type: z.literal('image'), event: z.string().check(z.maxLength(200)), index: z.number() }),
  /** An image was clicked: the host opens it whole in an editor tab. */
  z.strictObject({
    type: z.literal('openImage'),
    event: z.string().check(z.maxLength(200)),
    index: z.number(),
  }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  /** Start over: drop every row. The rows follow in `rows` messages of the same epoch. */
  z.strictObject({ type: z.literal('reset'), epoch: z.number(), rev: z.number(), header: HeaderSchema }),
  /**
   * Rows to put in place: a row whose id the page holds is replaced where it is; a new one goes at
   * the end (`at: 'end'`, newer) or before every row (`at: 'start'`, older history, in order).
   */
  z.strictObject({
    type: z.literal('rows'),
    epoch: z.number(),
    rev: z.number(),
    at: z.enum(['start', 'end']),
    rows: z.array(RowSchema),
  }),
  z.strictObject({ type: z.literal('remove'), epoch: z.number(), rev: z.number(), ids: z.array(z.string()) }),
  z.strictObject({ type: z.literal('header'), header: HeaderSchema }),
  /** The row again with every text whole (after `expand`); not part of the rev sequence. */
  z.strictObject({ type: z.literal('expanded'), row: RowSchema }),
  ImageReplySchema,
  ReplySchema,
  /** Images to put under the message input (a failed message's, or Send Image to Conversation…). */
  z.strictObject({
    type: z.literal('attach'),
    images: z.array(AttachmentSchema).check(z.maxLength(MAX_ATTACHMENTS)),
  }),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

export { dispatchMessage, type MessageHandlers } from '../../kit/shared/messages';
