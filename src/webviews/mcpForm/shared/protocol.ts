/**
 * The one protocol between the panel (extension host) and its webview. Both sides parse every
 * incoming message with these schemas and handle it through a `MessageHandlers` map, so a message
 * type without a handler does not compile and a malformed message is dropped, never acted on.
 * No vscode import: the webview bundles this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { FieldErrorsSchema, FormDraftSchema, FormModelSchema } from './formSchema';
import { SyncStatusSchema } from './syncOutcome';
import { UiStringsSchema } from './uiStrings';

export const VIEW_TYPE = 'openhands.mcpForm';

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  /** The webview is listening; the host answers with `init`. */
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('save'), draft: FormDraftSchema }),
  z.strictObject({ type: z.literal('retrySync') }),
  /** Re-read the server's state (drops nothing that is pending). */
  z.strictObject({ type: z.literal('reload') }),
  z.strictObject({ type: z.literal('showLog') }),
  z.strictObject({ type: z.literal('configureServer') }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export const BusyOperationSchema = z.enum(['load', 'save', 'sync']);
export type BusyOperation = z.infer<typeof BusyOperationSchema>;

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    strings: UiStringsSchema,
    /** null when no server is configured. */
    model: z.nullable(FormModelSchema),
    sync: SyncStatusSchema,
  }),
  /** The stored state changed (loaded, saved, synced or another server): the new baseline. */
  z.strictObject({
    type: z.literal('state'),
    model: z.nullable(FormModelSchema),
    sync: SyncStatusSchema,
    reason: z.enum(['loaded', 'saved', 'synced']),
    /** Server refusals placed on fields (after a save or retry). */
    fieldErrors: FieldErrorsSchema,
  }),
  z.strictObject({ type: z.literal('busy'), operation: z.nullable(BusyOperationSchema) }),
  /** Nothing was stored: the draft broke a rule. */
  z.strictObject({ type: z.literal('validationFailed'), errors: FieldErrorsSchema }),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

/** One handler per message type; leaving one out is a compile error. */

export { dispatchMessage, type MessageHandlers } from '../../kit/shared/messages';
