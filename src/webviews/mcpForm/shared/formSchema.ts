/**
 * The form's data as it crosses the webview boundary. Secret values never travel host → webview:
 * the model only says whether a secret is `set`. The draft (webview → host) says what to do with
 * each secret: keep it (`set`), have none (`unset`), remove it (`clear`) or store a new `value`.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { FORM_PROVIDERS } from './providers';

/** Upper bounds keep a hostile or broken webview from making the host store megabytes. */
const MAX_TEXT = 4096;
const MAX_ITEMS = 200;

const text = z.string().check(z.maxLength(MAX_TEXT));
const id = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));
const list = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.maxLength(MAX_ITEMS));

export const FormProviderSchema = z.enum(FORM_PROVIDERS);

/** Host → webview: whether a secret exists, never its value. */
export const SecretStatusSchema = z.enum(['set', 'unset']);
export type SecretStatus = z.infer<typeof SecretStatusSchema>;

/** Webview → host: what to do with a secret. */
export const SecretInputSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('unset') }),
  z.strictObject({ state: z.literal('set') }),
  z.strictObject({ state: z.literal('clear') }),
  z.strictObject({ state: z.literal('replace'), value: text }),
]);
export type SecretInput = z.infer<typeof SecretInputSchema>;

// ---- model (host → webview) ----

export const ProviderModelSchema = z.strictObject({
  provider: FormProviderSchema,
  /** The host to show; `null` and `""` both show as empty but are kept apart (the server tells them apart). */
  host: z.nullable(z.string()),
  /** Whether the server holds a token for this provider. */
  token: SecretStatusSchema,
});
export type ProviderModel = z.infer<typeof ProviderModelSchema>;

export const SseModelSchema = z.strictObject({ id, url: text, apiKey: SecretStatusSchema });
export const ShttpModelSchema = z.strictObject({
  id,
  url: text,
  apiKey: SecretStatusSchema,
  timeout: z.nullable(z.number().check(z.int())),
});
export const EnvModelSchema = z.strictObject({ id, name: text, value: SecretStatusSchema });
export const StdioModelSchema = z.strictObject({
  id,
  name: text,
  command: text,
  args: list(text),
  env: list(EnvModelSchema),
  /** The server hides this server's env and VS Code saved none of it (OpenHands 1.11, set up elsewhere). */
  envHidden: z.boolean(),
});
export type SseModel = z.infer<typeof SseModelSchema>;
export type ShttpModel = z.infer<typeof ShttpModelSchema>;
export type StdioModel = z.infer<typeof StdioModelSchema>;
export type EnvModel = z.infer<typeof EnvModelSchema>;

export const McpModelSchema = z.strictObject({
  sse: list(SseModelSchema),
  shttp: list(ShttpModelSchema),
  stdio: list(StdioModelSchema),
});
export type McpModel = z.infer<typeof McpModelSchema>;

export const FormModelSchema = z.strictObject({
  serverUrl: text,
  providers: list(ProviderModelSchema),
  mcp: McpModelSchema,
});
export type FormModel = z.infer<typeof FormModelSchema>;

// ---- draft (webview → host) ----

export const ProviderDraftSchema = z.strictObject({
  provider: FormProviderSchema,
  /** As typed; an unchanged field is recognised by comparing with the model's host. */
  host: text,
  token: SecretInputSchema,
});
export type ProviderDraft = z.infer<typeof ProviderDraftSchema>;

/** `id` is null for an entry added in this edit. */
export const SseDraftSchema = z.strictObject({ id: z.nullable(id), url: text, apiKey: SecretInputSchema });
export const ShttpDraftSchema = z.strictObject({
  id: z.nullable(id),
  url: text,
  apiKey: SecretInputSchema,
  /** As typed (empty = the server default), so validation can name a non-number. */
  timeout: text,
});
export const EnvDraftSchema = z.strictObject({ id: z.nullable(id), name: text, value: SecretInputSchema });
export const StdioDraftSchema = z.strictObject({
  id: z.nullable(id),
  name: text,
  command: text,
  args: list(text),
  env: list(EnvDraftSchema),
});
export type SseDraft = z.infer<typeof SseDraftSchema>;
export type ShttpDraft = z.infer<typeof ShttpDraftSchema>;
export type StdioDraft = z.infer<typeof StdioDraftSchema>;
export type EnvDraft = z.infer<typeof EnvDraftSchema>;

export const McpDraftSchema = z.strictObject({
  sse: list(SseDraftSchema),
  shttp: list(ShttpDraftSchema),
  stdio: list(StdioDraftSchema),
});
export type McpDraft = z.infer<typeof McpDraftSchema>;

export const FormDraftSchema = z.strictObject({
  /** The server the draft was made for; a save for another server is refused. */
  serverUrl: text,
  providers: list(ProviderDraftSchema),
  mcp: McpDraftSchema,
});
export type FormDraft = z.infer<typeof FormDraftSchema>;

/** Field path → message (paths from `fieldPath.ts`). */
export const FieldErrorsSchema = z.record(z.string().check(z.maxLength(200)), text);
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;
