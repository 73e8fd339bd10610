// Whether the server's agent has a model it can use, read once before a flow would leave the user at a
// conversation that never answers (issue 36: a fresh 1.11 sat "running" on `gpt-5.5` with no key).
import { messageOf, modelReadiness, type ModelReadiness, type OpenHandsClient } from '../api';

export interface ModelCheck {
  readiness: ModelReadiness;
  /** The stored model's name, when one is stored (`provider/name`). */
  model?: string;
}

/** Longest a flow waits for the answer: a slow server must not hold up Connect or New Conversation. */
export const MODEL_CHECK_TIMEOUT_MS = 5_000;

/**
 * Reads the settings and says whether the model is ready. Never throws and never blocks a flow: a read
 * that fails (timeout, 5xx, a route the server does not have) is `unknown`, and only logged.
 */
export async function checkModel(
  client: Pick<OpenHandsClient, 'modelSetup'>,
  options: { timeoutMs?: number; onFailure?: (reason: string) => void } = {},
): Promise<ModelCheck> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? MODEL_CHECK_TIMEOUT_MS);
  try {
    const read = await client.modelSetup.readModelSettings({ signal: deadline });
    const model = read.offered && read.value.kind === 'stored' ? read.value.settings.model : undefined;
    return { readiness: modelReadiness(read), ...(model?.trim() ? { model: model.trim() } : {}) };
  } catch (error) {
    options.onFailure?.(messageOf(error));
    return { readiness: 'unknown' };
  }
}

/** Whether a flow should offer to set up the model. */
export function needsModelSetup(check: ModelCheck): boolean {
  return check.readiness === 'no-settings' || check.readiness === 'no-model' || check.readiness === 'no-key';
}
