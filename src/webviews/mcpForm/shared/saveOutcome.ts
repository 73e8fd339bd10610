/**
 * What a save achieved, per part: the git provider tokens and the MCP config are stored by different
 * server calls and can succeed or fail independently. A part that failed stays in the form, unsaved.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

export const PartStatusSchema = z.enum([
  /** The server holds what the form sent. */
  'synced',
  /** Nothing of this part changed, so it was not sent. */
  'unchanged',
  /** Not stored (refused, or the server could not be reached); `message` says why. */
  'failed',
]);
export type PartStatus = z.infer<typeof PartStatusSchema>;

export const PartOutcomeSchema = z.strictObject({
  status: PartStatusSchema,
  /** The server's (or the network's) explanation, secrets removed. */
  message: z.optional(z.string().check(z.maxLength(2000))),
  /** For MCP: stored by the provider-token call itself or by the settings write. */
  via: z.optional(z.enum(['add-git-providers', 'settings'])),
});
export type PartOutcome = z.infer<typeof PartOutcomeSchema>;

export const SaveOutcomeSchema = z.strictObject({
  tokens: PartOutcomeSchema,
  mcp: PartOutcomeSchema,
});
export type SaveOutcome = z.infer<typeof SaveOutcomeSchema>;

export function isSettled(part: PartOutcome): boolean {
  return part.status !== 'failed';
}
