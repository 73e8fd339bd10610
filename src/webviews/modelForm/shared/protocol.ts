/**
 * The one protocol between the Model page's host and its webview. Both sides parse every incoming
 * message with these schemas and handle it through a `MessageHandlers` map. Only `save` may carry a
 * key (the user's, going out); nothing from the host ever does.
 * No vscode import: the webview bundles this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { ChoiceSchema, FieldErrorsSchema, ModelDraftSchema, PageModelSchema } from './pageModel';
import { UiStringsSchema } from './uiStrings';

export const VIEW_TYPE = 'openhands.modelForm';

/** The most entries of a list the page is sent at once: the rest is found by typing. */
export const MAX_CHOICES = 60;

const ListSchema = z.enum(['providers', 'models']);
const NameSchema = z.string().check(z.maxLength(200));

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  /** The page is listening; the host answers with `init`. */
  z.strictObject({ type: z.literal('ready') }),
  /** Show the entries of a list that match `query` (models: of `provider`). */
  z.strictObject({
    type: z.literal('search'),
    list: ListSchema,
    provider: NameSchema,
    query: z.string().check(z.maxLength(200)),
  }),
  z.strictObject({ type: z.literal('save'), draft: ModelDraftSchema }),
  z.strictObject({
    type: z.literal('profile'),
    action: z.enum(['save', 'activate', 'delete']),
    name: NameSchema,
  }),
  z.strictObject({ type: z.literal('renameProfile'), name: NameSchema, newName: NameSchema }),
  z.strictObject({ type: z.literal('reload') }),
  z.strictObject({ type: z.literal('openInBrowser') }),
  z.strictObject({ type: z.literal('showLog') }),
  z.strictObject({ type: z.literal('configureServer') }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export const BusyOperationSchema = z.enum(['load', 'save', 'profile']);
export type BusyOperation = z.infer<typeof BusyOperationSchema>;

/** What the last action came to, in words (secret-free). */
export const NoticeSchema = z.strictObject({
  kind: z.enum(['ok', 'error']),
  text: z.string().check(z.maxLength(2000)),
});
export type Notice = z.infer<typeof NoticeSchema>;

const ProblemSchema = z.nullable(z.string().check(z.maxLength(2000)));

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    strings: UiStringsSchema,
    /** null when there is no server, or it could not be read (`problem` says why). */
    page: z.nullable(PageModelSchema),
    problem: ProblemSchema,
  }),
  /**
   * The server was read again. `saved`: a model save ended (the page starts over from `page` unless
   * it failed, when the form is kept); `profile`: a profile changed; `loaded`: a reload or a switch.
   */
  z.strictObject({
    type: z.literal('state'),
    reason: z.enum(['loaded', 'saved', 'profile']),
    page: z.nullable(PageModelSchema),
    problem: ProblemSchema,
    notice: z.nullable(NoticeSchema),
    fieldErrors: FieldErrorsSchema,
  }),
  /** The entries of a list for the query the page asked with; `more`: how many matched beyond them. */
  z.strictObject({
    type: z.literal('choices'),
    list: ListSchema,
    provider: NameSchema,
    query: z.string().check(z.maxLength(200)),
    items: z.array(ChoiceSchema).check(z.maxLength(MAX_CHOICES)),
    more: z.number().check(z.int(), z.gte(0)),
  }),
  z.strictObject({ type: z.literal('busy'), operation: z.nullable(BusyOperationSchema) }),
  /** Nothing was sent: the form broke a rule, or the server refused it. */
  z.strictObject({
    type: z.literal('validationFailed'),
    errors: FieldErrorsSchema,
    notice: z.nullable(NoticeSchema),
  }),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

export { dispatchMessage, type MessageHandlers } from '../../kit/shared/messages';
