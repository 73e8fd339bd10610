/**
 * The form as sent, checked and turned into the change the client posts: what the user chose, each
 * option only when the server's settings carry it. `saveModelSettings` then sends only what differs
 * from what is stored.
 */
import type { ModelSettings, ModelSettingsChange } from '../../../api';
import type { FieldErrors, ModelDraft } from '../shared/pageModel';
import type { UiStrings } from '../shared/uiStrings';

export type DraftChange = { ok: true; change: ModelSettingsChange } | { ok: false; errors: FieldErrors };

/** Dollars with at most two decimals (`5`, `2.50`, `.5`). */
const DOLLARS = /^(\d{1,7}(\.\d{0,2})?|\.\d{1,2})$/;

export function draftToChange(
  draft: ModelDraft,
  stored: ModelSettings | undefined,
  strings: UiStrings,
): DraftChange {
  const errors: FieldErrors = {};
  const custom = draft.source === 'custom';
  const modelField = custom ? 'customModel' : 'model';
  const model = (custom ? draft.customModel : draft.model).trim();
  if (!model) errors[modelField] = strings.errModelEmpty;
  else if (/\s/.test(model)) errors[modelField] = strings.errModelSpaces;

  // a model from the list answers at its provider's own address: a base URL set for another goes
  const baseUrl = custom ? draft.baseUrl.trim() || null : null;
  if (baseUrl !== null && !isHttpUrl(baseUrl)) errors.baseUrl = strings.errBaseUrl;

  const apiKey = draft.apiKey.trim();
  if (/\s/.test(apiKey)) errors.apiKey = strings.errKeySpaces;

  let maxBudgetPerTask: number | null | undefined;
  if (stored) {
    const budget = draft.maxBudget.trim();
    if (!budget) maxBudgetPerTask = null;
    else if (DOLLARS.test(budget) && Number(budget) > 0) maxBudgetPerTask = Number(budget);
    else errors.maxBudget = strings.errBudget;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const carries = (option: boolean | null | undefined): boolean => option !== null && option !== undefined;
  return {
    ok: true,
    change: {
      model,
      baseUrl,
      ...(apiKey ? { apiKey } : {}),
      ...(carries(stored?.confirmationMode) && draft.confirmationMode !== null
        ? { confirmationMode: draft.confirmationMode }
        : {}),
      ...(carries(stored?.condenserEnabled) && draft.condenserEnabled !== null
        ? { condenserEnabled: draft.condenserEnabled }
        : {}),
      ...(maxBudgetPerTask === undefined ? {} : { maxBudgetPerTask }),
    },
  };
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
