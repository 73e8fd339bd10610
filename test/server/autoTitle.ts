// What SetTitleCallbackProcessor ends up storing when no LLM is used for titles: the first line of
// the user's first message, truncated.
import type { SendMessageRequest } from './models';

const MAX_TITLE_LENGTH = 50;

export function titleFromMessage(message: SendMessageRequest | null): string | null {
  const firstText = message?.content.find((part) => part.type === 'text');
  if (!firstText || firstText.type !== 'text') return null;
  const firstLine = firstText.text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .find((line) => line !== '');
  if (!firstLine) return null;
  return firstLine.length > MAX_TITLE_LENGTH ? `${firstLine.slice(0, MAX_TITLE_LENGTH - 3)}...` : firstLine;
}

/** `processors: null` means the default `[SetTitleCallbackProcessor]`; an explicit list must name it. */
export function wantsAutoTitle(processors: readonly { kind: string }[] | null): boolean {
  return (
    processors === null || processors.some((processor) => processor.kind === 'SetTitleCallbackProcessor')
  );
}
