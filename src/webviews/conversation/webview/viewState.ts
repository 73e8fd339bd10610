/**
 * What the page keeps in `setState` (restored when the panel comes back or VS Code reloads): the
 * conversation it shows (the panel's serializer needs it to reopen the panel), where the reader
 * was, the message the user was typing, and whether the changed-files fold is open. Never a row, a text or anything else the server sent:
 * rows can hold anything an agent printed.
 * Read back through zod: state from another build is dropped, not trusted. Pure: unit-tested in Node.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { MAX_MESSAGE_CHARS } from '../shared/protocol';

/** How far into its row the viewport may start (negative: the room above the first row). */
const MAX_DELTA = 1_000_000;

export const ViewStateSchema = z.object({
  version: z.literal(1),
  /** The panel's conversation (an id, not content): `host/panel.ts` revives the panel with it. */
  conversationId: z.optional(z.string().check(z.maxLength(100))),
  /** Following the end of the transcript (the reader had not scrolled away from the bottom). */
  stuck: z.boolean(),
  /** The row at the top of the viewport and how far into it, when not stuck. */
  top: z.optional(
    z.object({
      id: z.string().check(z.maxLength(200)),
      delta: z.number().check(z.gte(-MAX_DELTA), z.lte(MAX_DELTA)),
    }),
  ),
  /** The unsent message in the input: the user's own words, kept across hide and reload. */
  draft: z.optional(z.string().check(z.maxLength(MAX_MESSAGE_CHARS))),
  /** The changed-files fold is open. */
  changesOpen: z.optional(z.boolean()),
});
export type ViewState = z.infer<typeof ViewStateSchema>;

export function readViewState(raw: unknown): ViewState | undefined {
  const parsed = ViewStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

export function viewState(
  conversationId: string | undefined,
  stuck: boolean,
  top: { id: string; delta: number } | undefined,
  draft = '',
  changesOpen = false,
): ViewState {
  return {
    version: 1,
    ...(changesOpen ? { changesOpen } : {}),
    ...(draft && draft.length <= MAX_MESSAGE_CHARS ? { draft } : {}),
    ...(conversationId && conversationId.length <= 100 ? { conversationId } : {}),
    stuck,
    ...(!stuck && top && top.id.length <= 200 ? { top: { id: top.id, delta: clampDelta(top.delta) } } : {}),
  };
}

function clampDelta(delta: number): number {
  return Number.isFinite(delta) ? Math.min(MAX_DELTA, Math.max(-MAX_DELTA, Math.round(delta))) : 0;
}
