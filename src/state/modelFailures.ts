/**
 * The conversations whose newest run ended on the model's failure (a refused or missing key, an unknown
 * model, a quota), as their feeds read it: the rows say "model failed" and why. In memory only; a
 * conversation's entry goes when its feed says a run started again.
 */
import { normalizeUuid } from '../api';
import { modelFailureText, type ModelFailure } from '../api/agentServer/modelFailure';

/** Conversations remembered at once; the oldest go first. */
const KEPT = 200;

const failures = new Map<string, ModelFailure>();
const listeners = new Set<(conversationId: string) => void>();

/** Calls `listener` with a conversation's id when its model failure is learnt or gone. */
export function onDidChangeModelFailure(listener: (conversationId: string) => void): { dispose(): void } {
  listeners.add(listener);
  return { dispose: () => void listeners.delete(listener) };
}

/** What a feed says of the conversation now: its model failure, or none. */
export function noteModelFailure(conversationId: string, failure: ModelFailure | undefined): void {
  const id = normalizeUuid(conversationId);
  const known = failures.get(id);
  if (known === failure || (known && failure && modelFailureText(known) === modelFailureText(failure)))
    return;
  if (!failure && !known) return;
  failures.delete(id);
  if (failure) failures.set(id, failure);
  while (failures.size > KEPT) {
    const oldest = failures.keys().next().value;
    if (oldest === undefined) break;
    failures.delete(oldest);
  }
  for (const listener of [...listeners]) listener(conversationId);
}

/** The words of the conversation's model failure ("openai/x refused the API key (401)."), if any. */
export function modelFailureWords(conversationId: string, model?: string | null): string | undefined {
  const failure = failures.get(normalizeUuid(conversationId));
  return failure && modelFailureText({ ...failure, model: failure.model ?? model ?? undefined });
}

/** Tests: forget everything. */
export function forgetModelFailures(): void {
  failures.clear();
}
