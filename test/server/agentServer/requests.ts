// Request bodies of the agent server (SDK/agent-server 1.34.0 models) as zod schemas, and their
// failures in FastAPI's 422 item shape or pydantic's ValidationError text (for WebSocket frames).
import { z } from 'zod';
import { issue, type ValidationIssue } from '../validation';
import type { MessageContent } from './events';
import { CONFIRMATION_POLICY_KINDS } from './records';

const textPart = z.object({
  type: z.literal('text'),
  text: z.string(),
  cache_prompt: z.boolean().default(false),
});

const imagePart = z.object({
  type: z.literal('image'),
  image_urls: z.array(z.string()),
  cache_prompt: z.boolean().default(false),
});

const contentPart = z.discriminatedUnion('type', [textPart, imagePart]);
export type ContentPart = z.infer<typeof contentPart>;

/** Stored with the SDK's field order (`cache_prompt` first). */
export function toMessageContent(parts: readonly ContentPart[]): MessageContent[] {
  return parts.map((part) =>
    part.type === 'text'
      ? { cache_prompt: part.cache_prompt, type: 'text', text: part.text }
      : { cache_prompt: part.cache_prompt, type: 'image', image_urls: [...part.image_urls] },
  );
}

export const MESSAGE_ROLES = ['user', 'system', 'assistant', 'tool'] as const;

/** The SDK's `Message` (what a WebSocket frame carries); other Message fields are accepted and ignored. */
export const messageSchema = z.looseObject({
  role: z.enum(MESSAGE_ROLES),
  content: z.array(contentPart).default([]),
});

/** `SendMessageRequest{role="user", content=[], run=false}`. */
export const sendMessageSchema = z.object({
  role: z.enum(MESSAGE_ROLES).default('user'),
  content: z.array(contentPart).default([]),
  run: z.boolean().default(false),
});

export const confirmationResponseSchema = z.object({
  accept: z.boolean(),
  reason: z.string().default('User rejected the action.'),
});

export const confirmationPolicySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal(CONFIRMATION_POLICY_KINDS[0]) }),
  z.object({ kind: z.literal(CONFIRMATION_POLICY_KINDS[1]) }),
  z.object({
    kind: z.literal(CONFIRMATION_POLICY_KINDS[2]),
    threshold: z.enum(['LOW', 'MEDIUM', 'HIGH']).default('HIGH'),
    confirm_unknown: z.boolean().default(true),
  }),
]);

export const setConfirmationPolicySchema = z.object({ policy: confirmationPolicySchema });

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function locOf(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((key) => (typeof key === 'number' ? key : String(key)));
}

/** FastAPI 422 items for a body that failed its schema. */
export function bodyIssues(error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map((problem) => {
    const value = valueAt(input, problem.path);
    const loc = ['body', ...locOf(problem.path)];
    return value === undefined
      ? issue(
          'missing',
          loc,
          'Field required',
          input === undefined ? null : valueAt(input, problem.path.slice(0, -1)),
        )
      : issue(problem.code, loc, problem.message, value);
  });
}

/** pydantic's `str(ValidationError)`, the `detail` of the ServerErrorEvent a bad frame gets back. */
export function validationErrorText(error: z.ZodError, model: string): string {
  const count = error.issues.length;
  const lines = error.issues.map(
    (problem) => `${locOf(problem.path).join('.') || '__root__'}\n  ${problem.message}`,
  );
  return `${count} validation error${count === 1 ? '' : 's'} for ${model}\n${lines.join('\n')}`;
}
