/**
 * What the user asked each conversation, as its first words: the name a conversation goes by until
 * the server titles it (the server's own placeholder is "Conversation b2dd7"). In memory only, never
 * persisted: they are the user's own words and may say more than a title should keep.
 */
// no `vscode` here: names.ts reads this, and the e2e tests name rows with names.ts in plain Node
import { normalizeUuid } from '../api';

/** Enough words for a row's label; the rest of the prompt is not kept. */
export const ASKED_WORDS_CHARS = 60;
/** Conversations remembered at once; the oldest go first. */
const KEPT = 200;

const words = new Map<string, string>();
const listeners = new Set<(conversationId: string) => void>();

/** Calls `listener` with a conversation's id when its first words are first known or change. */
export function onDidLearnAskedWords(listener: (conversationId: string) => void): { dispose(): void } {
  listeners.add(listener);
  return { dispose: () => void listeners.delete(listener) };
}

/** The first line of what was asked, spaces collapsed, cut at a word near `ASKED_WORDS_CHARS`. */
export function firstWords(text: string): string {
  const line = text
    .split('\n')
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .find(Boolean);
  if (!line) return '';
  if (line.length <= ASKED_WORDS_CHARS) return line;
  const cut = line.slice(0, ASKED_WORDS_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > ASKED_WORDS_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** Remembers what was asked of a conversation (its id as the server spells it, any case). */
export function rememberAsked(conversationId: string, text: string): void {
  const id = normalizeUuid(conversationId);
  const said = firstWords(text);
  if (!said || words.get(id) === said) return;
  words.delete(id);
  words.set(id, said);
  while (words.size > KEPT) {
    const oldest = words.keys().next().value;
    if (oldest === undefined) break;
    words.delete(oldest);
  }
  for (const listener of [...listeners]) listener(conversationId);
}

export function askedWords(conversationId: string): string | undefined {
  return words.get(normalizeUuid(conversationId));
}

/** Tests: forget everything. */
export function forgetAskedWords(): void {
  words.clear();
}
