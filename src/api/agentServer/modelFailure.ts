/**
 * A conversation whose model failed, said in words that name the model. The agent server (SDK 1.34)
 * maps LiteLLM's exceptions to its own (`openhands/sdk/llm/exceptions/mapping.py`) and ends the run
 * with a `ConversationErrorEvent` whose `code` is the exception's class and whose `detail` is its
 * text, then `execution_status: error`. Pure; what the server wrote is hostile: bounded, one line,
 * anything shaped like a provider key masked (the caller masks the secrets it knows too).
 */
import { REDACTED } from '../redact';
import type { AgentEvent } from './events';

export type ModelFailureKind = 'key-refused' | 'no-key' | 'unknown-model' | 'quota' | 'unreachable';

export interface ModelFailure {
  kind: ModelFailureKind;
  /** The model as the conversation named it; undefined when not known yet. */
  model: string | undefined;
  /** The exception's class, as the server sent it (bounded). */
  code: string;
  /** The provider's own words, bounded to one line, keys masked. */
  detail: string;
}

/** The provider's words are a hint beside ours: a line, not a page. */
export const MAX_FAILURE_DETAIL_CHARS = 300;
const MAX_CODE_CHARS = 80;

/** The classes the SDK raises for a failed LLM call, and LiteLLM's own when the SDK leaves them. */
const CODES: Record<string, ModelFailureKind> = {
  LLMAuthenticationError: 'key-refused',
  AuthenticationError: 'key-refused',
  PermissionDeniedError: 'key-refused',
  LLMRateLimitError: 'quota',
  RateLimitError: 'quota',
  NotFoundError: 'unknown-model',
  LLMBadRequestError: 'unknown-model',
  BadRequestError: 'unknown-model',
  LLMServiceUnavailableError: 'unreachable',
  ServiceUnavailableError: 'unreachable',
  APIConnectionError: 'unreachable',
  LLMTimeoutError: 'unreachable',
  Timeout: 'unreachable',
};

/** What the provider (or the OpenAI client before it) says when no key was given at all. */
const NO_KEY =
  /api_key client option must be set|missing api key|no api key|api key is required|api_key must be set|OPENAI_API_KEY|ANTHROPIC_API_KEY/i;
/** A bad request that is about the model's name (the other bad requests are not the model's setup). */
const UNKNOWN_MODEL =
  /model[^.]{0,120}(not found|does not exist|not supported|is not a valid|unknown)|LLM Provider NOT provided|invalid model|model_not_found|no such model/i;

/**
 * The failure an event reports, when it is the model's; undefined for any other error (a tool's, the
 * iteration limit, the budget) and any other event.
 */
export function modelFailureOf(event: AgentEvent, model: string | undefined): ModelFailure | undefined {
  if (event.kind !== 'ConversationErrorEvent') return undefined;
  const code = boundedLine(typeof event['code'] === 'string' ? event['code'] : '', MAX_CODE_CHARS);
  const said = typeof event['detail'] === 'string' ? event['detail'] : '';
  // cut before anything reads it (a hostile detail may be megabytes), masked, then bounded to a line
  const detail = boundedLine(maskKeys(said.slice(0, MAX_FAILURE_DETAIL_CHARS * 4)), MAX_FAILURE_DETAIL_CHARS);
  let kind = CODES[code.replace(/^litellm\.(exceptions\.)?/, '')];
  if (kind === undefined) return undefined;
  // a refused or missing key reads alike to the SDK's classifier: the text tells "none at all"
  if (kind === 'key-refused' && NO_KEY.test(detail)) kind = 'no-key';
  if ((code === 'LLMBadRequestError' || code === 'BadRequestError') && !UNKNOWN_MODEL.test(detail))
    return undefined;
  return { kind, model: model ? boundedLine(model, 120) : undefined, code, detail };
}

/** The failure in plain words that name the model; `detail` stays apart (a hint, shown as text). */
export function modelFailureText(failure: ModelFailure): string {
  const model = failure.model ?? 'the model';
  const Model = failure.model ?? 'The model';
  switch (failure.kind) {
    case 'key-refused':
      return `${Model} refused the API key (401).`;
    case 'no-key':
      return `The server has no key for ${model}.`;
    case 'unknown-model':
      return `${Model} is not a model the provider knows.`;
    case 'quota':
      return `The provider's quota for ${model} is used up (429).`;
    case 'unreachable':
      return `The provider of ${model} did not answer.`;
  }
}

/**
 * Provider keys as providers echo them ("Incorrect API key provided: sk-proj-abc…xyz"): masked even
 * when the extension never knew them (the server holds the LLM key, not VS Code).
 */
export function maskKeys(text: string): string {
  return text
    .replace(/\b(?:sk|rk|pk|gsk|xai|sk-ant|sk-proj|sk-or)-[A-Za-z0-9_*.-]{6,}/g, REDACTED)
    .replace(/\bAIza[A-Za-z0-9_-]{20,}/g, REDACTED)
    .replace(
      /\b(api[_-]?key|token|authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',}]{6,}/gi,
      `$1$2${REDACTED}`,
    );
}

/** One line, at most `max` characters (a cut marked), without control characters. */
function boundedLine(text: string, max: number): string {
  const line = text
    .slice(0, max * 4)
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
