/**
 * What a save or retry achieved, per part: the git provider tokens and the MCP config are stored by
 * different server calls and can succeed or fail independently.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

export const PartStatusSchema = z.enum([
  /** The server holds what was saved locally. */
  'synced',
  /** Nothing of this part changed, so it was not sent. */
  'unchanged',
  /** The server could not be reached; the change is kept locally for a retry. */
  'pending',
  /** The server refused; the change is kept locally and `message` says why. */
  'failed',
]);
export type PartStatus = z.infer<typeof PartStatusSchema>;

export const PartOutcomeSchema = z.strictObject({
  status: PartStatusSchema,
  /** The server's (or the network's) explanation, secrets removed. */
  message: z.optional(z.string().check(z.maxLength(2000))),
  /** For MCP: stored by `/api/add-git-providers` itself or by the `/api/settings` fallback. */
  via: z.optional(z.enum(['add-git-providers', 'settings'])),
});
export type PartOutcome = z.infer<typeof PartOutcomeSchema>;

export const SyncOutcomeSchema = z.strictObject({
  /** ISO time of the attempt. */
  at: z.string().check(z.maxLength(40)),
  tokens: PartOutcomeSchema,
  mcp: PartOutcomeSchema,
});
export type SyncOutcome = z.infer<typeof SyncOutcomeSchema>;

export const SyncStatusSchema = z.strictObject({
  /** Parts saved locally and not yet accepted by the server. */
  pending: z.strictObject({ tokens: z.boolean(), mcp: z.boolean() }),
  last: z.nullable(SyncOutcomeSchema),
  /** Why the server's current state could not be read when the form was loaded, if it could not. */
  loadProblem: z.nullable(z.string().check(z.maxLength(2000))),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

export function isSettled(part: PartOutcome): boolean {
  return part.status === 'synced' || part.status === 'unchanged';
}
