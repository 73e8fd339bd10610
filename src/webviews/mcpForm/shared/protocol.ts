/**
 * The one protocol between the panel (extension host) and its webview. Both sides parse every
 * incoming message with these schemas and handle it through a `MessageHandlers` map, so a message
 * type without a handler does not compile and a malformed message is dropped, never acted on.
 * No vscode import: the webview bundles this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { FieldErrorsSchema, FormDraftSchema, FormModelSchema } from './formSchema';
import { SaveOutcomeSchema } from './saveOutcome';
import { UiStringsSchema } from './uiStrings';

export const VIEW_TYPE = 'openhands.mcpForm';

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  /** The webview is listening; the host answers with `init`. */
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('save'), draft: FormDraftSchema }),
  /** Read the server again (the webview keeps unsaved edits). */
  z.strictObject({ type: z.literal('reload') }),
  z.strictObject({ type: z.literal('showLog') }),
  z.strictObject({ type: z.literal('configureServer') }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

/** `check`: a save is checking the MCP servers it adds or changes, before it writes anything. */
export const BusyOperationSchema = z.enum(['load', 'save', 'check']);
export type BusyOperation = z.infer<typeof BusyOperationSchema>;

/**
 * What the check before a save found for one SSE or HTTP server of the draft (by kind and place in
 * the draft that was sent): `ok` answers as MCP, `failed` did not, `skipped` was not checked.
 */
export const McpCheckSchema = z.strictObject({
  kind: z.enum(['sse', 'shttp']),
  index: z.number().check(z.int(), z.gte(0), z.lte(1000)),
  status: z.enum(['ok', 'failed', 'skipped']),
  message: z.string().check(z.maxLength(1000)),
});
export type McpCheck = z.infer<typeof McpCheckSchema>;

/** Why the server's settings could not be read, secret-free; null when they were. */
const LoadProblemSchema = z.nullable(z.string().check(z.maxLength(2000)));

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    strings: UiStringsSchema,
    /** What the server holds now; null when there is no server or it could not be read. */
    model: z.nullable(FormModelSchema),
    loadProblem: LoadProblemSchema,
  }),
  /** The server was read again (reload, another server) or a save ended: the new baseline. */
  z.strictObject({
    type: z.literal('state'),
    model: z.nullable(FormModelSchema),
    loadProblem: LoadProblemSchema,
    reason: z.enum(['loaded', 'saved']),
    /** After a save: what each part achieved. A failed part stays in the webview's draft. */
    outcome: z.nullable(SaveOutcomeSchema),
    /** Server refusals placed on fields (after a save). */
    fieldErrors: FieldErrorsSchema,
  }),
  z.strictObject({ type: z.literal('busy'), operation: z.nullable(BusyOperationSchema) }),
  /** A save checked MCP servers it adds or changes (advice: the sandbox may see another network). */
  z.strictObject({ type: z.literal('mcpChecks'), checks: z.array(McpCheckSchema).check(z.maxLength(400)) }),
  /** Nothing was sent: the draft broke a rule. */
  z.strictObject({ type: z.literal('validationFailed'), errors: FieldErrorsSchema }),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

/** One handler per message type; leaving one out is a compile error. */

export { dispatchMessage, type MessageHandlers } from '../../kit/shared/messages';
