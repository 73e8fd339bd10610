/**
 * The form as the page holds it: started from what the server has stored, and kept without the key in
 * `setState` so it survives hiding and a reload (the key, typed again, never leaves memory but to Save).
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { ModelDraftSchema, type ModelDraft, type PageModel } from '../shared/pageModel';

/** The provider part of `provider/name`; a bare name is LiteLLM's default provider, OpenAI. */
export function providerOf(model: string): string {
  const slash = model.indexOf('/');
  return slash > 0 ? model.slice(0, slash) : 'openai';
}

export function draftFromPage(page: PageModel): ModelDraft {
  const stored = page.stored;
  const model = stored?.model ?? '';
  // a model at its own address, or a server with no list, is a custom one
  const custom = !page.catalogueOffered || Boolean(stored?.baseUrl);
  return {
    serverUrl: page.serverUrl,
    source: custom ? 'custom' : 'catalogue',
    provider: model ? providerOf(model) : '',
    model,
    customModel: model,
    baseUrl: stored?.baseUrl ?? '',
    apiKey: '',
    confirmationMode: stored?.confirmationMode ?? null,
    condenserEnabled: stored?.condenserEnabled ?? null,
    maxBudget: stored?.maxBudgetPerTask === null || stored === null ? '' : String(stored.maxBudgetPerTask),
  };
}

export const PersistedStateSchema = z.object({
  version: z.literal(1),
  draft: ModelDraftSchema,
  dirty: z.boolean(),
});
export type PersistedState = z.infer<typeof PersistedStateSchema>;

/** What `setState` keeps: the form with the key blanked. */
export function persistedState(draft: ModelDraft, dirty: boolean): PersistedState {
  return { version: 1, draft: { ...draft, apiKey: '' }, dirty };
}

export function readPersistedState(raw: unknown): PersistedState | undefined {
  const parsed = PersistedStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
