/**
 * What the Model page shows (host → page, never a key) and the form it sends back on Save (page →
 * host: the one message that may carry a key, typed by the user, on its way to Secret Storage and the
 * server). Both bounded: the page and the host each parse the other's messages with these schemas.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

const text = (max: number) => z.string().check(z.maxLength(max));

export const READINESS = ['ready', 'no-settings', 'no-model', 'no-key', 'unknown'] as const;

/** What the server has stored, as the page shows it (a key only as `apiKeySet`). */
export const StoredModelSchema = z.strictObject({
  model: z.nullable(text(500)),
  baseUrl: z.nullable(text(2000)),
  apiKeySet: z.boolean(),
  /** `null`: the server's settings do not carry the option, so the page does not offer it. */
  confirmationMode: z.nullable(z.boolean()),
  condenserEnabled: z.nullable(z.boolean()),
  maxBudgetPerTask: z.nullable(z.number()),
  /** Whether the budget is a setting of this server (1.11 leaves it out of its settings when unsupported). */
  budgetOffered: z.boolean(),
});
export type StoredModel = z.infer<typeof StoredModelSchema>;

export const ProfileRowSchema = z.strictObject({
  name: text(64),
  model: z.nullable(text(500)),
  apiKeySet: z.boolean(),
  active: z.boolean(),
});
export type ProfileRow = z.infer<typeof ProfileRowSchema>;

export const PageModelSchema = z.strictObject({
  serverUrl: text(2000),
  /** The server as the user named it. */
  serverName: text(200),
  /** The server's own web page for Open in Browser: http(s) only, else null. */
  webUrl: z.nullable(text(2000)),
  /** `v1` (1.11), `legacy` (before 1.11), `none`: the server offers no settings route to write. */
  settingsRoute: z.enum(['v1', 'legacy', 'none']),
  /** null when nothing is stored yet (a fresh 1.11's 404) or the settings are not offered. */
  stored: z.nullable(StoredModelSchema),
  readiness: z.enum(READINESS),
  /** The readiness in words, e.g. "Ready: conversations use openai/gpt-4o." */
  readinessText: text(1000),
  catalogueOffered: z.boolean(),
  /** null when the server offers no profiles. */
  profiles: z.nullable(z.array(ProfileRowSchema).check(z.maxLength(100))),
});
export type PageModel = z.infer<typeof PageModelSchema>;

/** The form as the user left it, sent with Save. Every field a string as typed; the host checks it. */
export const ModelDraftSchema = z.strictObject({
  /** The server the form was filled for: a save for another is refused. */
  serverUrl: text(2000),
  source: z.enum(['catalogue', 'custom']),
  /** Catalogue: the provider chosen, and the model's full id (`provider/name`). */
  provider: text(200),
  model: text(500),
  /** Custom: the model's name and where it answers. */
  customModel: text(500),
  baseUrl: text(2000),
  /** Typed by the user; empty keeps the stored key. Never sent back to the page. */
  apiKey: text(4096),
  confirmationMode: z.nullable(z.boolean()),
  condenserEnabled: z.nullable(z.boolean()),
  maxBudget: text(50),
});
export type ModelDraft = z.infer<typeof ModelDraftSchema>;

/** A field of the form (or the whole form) a message is about. */
export const FIELDS = [
  'form',
  'model',
  'customModel',
  'baseUrl',
  'apiKey',
  'maxBudget',
  'profileName',
] as const;
export type Field = (typeof FIELDS)[number];
export const FieldErrorsSchema = z.partialRecord(z.enum(FIELDS), text(1000));
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

/** One entry of a searchable list: a provider or a model (its full id), verified first. */
export const ChoiceSchema = z.strictObject({
  value: text(500),
  label: text(500),
  verified: z.boolean(),
});
export type Choice = z.infer<typeof ChoiceSchema>;
