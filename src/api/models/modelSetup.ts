import * as z from 'zod/mini';
import { nullable, pageOf } from './common';

/**
 * What `GET /api/v1/settings` (OpenHands 1.11+) or `GET /api/settings` (before) says of the agent's
 * model: 1.11 nests it (`agent_settings.llm`, `conversation_settings`), older servers keep it at the top.
 * The key itself is never sent back: only `llm_api_key_set`.
 */
export const ModelSettingsReplySchema = z.looseObject({
  llm_model: nullable(z.string()),
  llm_base_url: nullable(z.string()),
  confirmation_mode: nullable(z.boolean()),
  llm_api_key_set: z._default(z.boolean(), false),
  max_budget_per_task: nullable(z.number()),
  /** Before 1.11; 1.11 says `agent_settings.condenser.enabled`. */
  enable_default_condenser: nullable(z.boolean()),
  agent_settings: z.optional(
    z.looseObject({
      llm: z.optional(z.looseObject({ model: nullable(z.string()), base_url: nullable(z.string()) })),
      condenser: z.optional(z.looseObject({ enabled: nullable(z.boolean()) })),
    }),
  ),
  conversation_settings: z.optional(z.looseObject({ confirmation_mode: nullable(z.boolean()) })),
  llm_profiles: z.optional(z.looseObject({ active: nullable(z.string()) })),
});
export type ModelSettingsReply = z.infer<typeof ModelSettingsReplySchema>;

/** One model of `GET /api/v1/config/models/search`; `hidden` ones are valid when saved, never offered. */
export const CatalogueModelSchema = z.looseObject({
  provider: nullable(z.string()),
  name: z.string(),
  verified: z._default(z.boolean(), false),
  hidden: z._default(z.boolean(), false),
  /** For a hidden model: the visible model (same provider) it aliases. */
  canonical: nullable(z.string()),
});
export type CatalogueModel = z.infer<typeof CatalogueModelSchema>;
export const CatalogueModelPageSchema = pageOf(CatalogueModelSchema);

export const CatalogueProviderSchema = z.looseObject({
  name: z.string(),
  verified: z._default(z.boolean(), false),
});
export type CatalogueProvider = z.infer<typeof CatalogueProviderSchema>;
export const CatalogueProviderPageSchema = pageOf(CatalogueProviderSchema);

/** `GET /api/v1/settings/profiles`: summaries; keys only as `api_key_set`. */
export const ProfileListSchema = z.looseObject({
  profiles: z.array(
    z.looseObject({
      name: z.string(),
      model: nullable(z.string()),
      base_url: nullable(z.string()),
      api_key_set: z._default(z.boolean(), false),
    }),
  ),
  active_profile: nullable(z.string()),
});
export type ProfileList = z.infer<typeof ProfileListSchema>;
export type ProfileSummary = ProfileList['profiles'][number];

/** `GET /api/v1/settings/profiles/{name}`: the profile's LLM with `api_key` always null. */
export const ProfileDetailSchema = z.looseObject({
  name: z.string(),
  config: z.looseObject({ model: nullable(z.string()), base_url: nullable(z.string()) }),
  api_key_set: z._default(z.boolean(), false),
});
export type ProfileDetail = z.infer<typeof ProfileDetailSchema>;

/** Save, delete and rename; activate adds the model now in use. */
export const ProfileMutationSchema = z.looseObject({
  name: z.string(),
  message: z._default(z.string(), ''),
  model: nullable(z.string()),
});
export type ProfileMutation = z.infer<typeof ProfileMutationSchema>;
