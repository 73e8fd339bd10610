/**
 * What the webview keeps in `vscode.setState` so the form survives being hidden and VS Code
 * reloading: the draft with every typed secret blanked, and what it was based on. Read back
 * through zod: state from an older build is dropped rather than trusted.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { EditorDraftSchema, withoutSecrets, type EditorDraft } from './editorDraft';

export const PersistedStateSchema = z.object({
  version: z.literal(1),
  draft: EditorDraftSchema,
  /** `baselineOf(model)` of the model the draft started from. */
  baseline: z.string(),
  dirty: z.boolean(),
});
export type PersistedState = z.infer<typeof PersistedStateSchema>;

export function persistedState(draft: EditorDraft, baseline: string, dirty: boolean): PersistedState {
  return { version: 1, draft: withoutSecrets(draft), baseline, dirty };
}

export function readPersistedState(raw: unknown): PersistedState | undefined {
  const parsed = PersistedStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
